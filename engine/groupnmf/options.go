package groupnmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
)

// None, as Options.Ks or Options.Kc, asks for no topics of that kind; it
// is 0, written as a name where a literal reads better with one.
const None = 0

// The declared defaults of Options.Ks and Options.Kc: the numbers of
// shared and class-specific topics of the paper's topic tables (GMF §7.2,
// Wikipedia: Ks = 20, Kc = 8).
const (
	DefaultKs = 20
	DefaultKc = 8
)

// Eps is ε of the guarded multiplicative updates, the value of engine/nmf
// (nmf.Eps): every update factor is (num + ε)/(den + ε).
const Eps = 1e-16

// Options configure Group NMF (GMF §5, Eq. 9, Algorithm 5); Options
// implements engine.Method, and its Fit needs a corpus whose every
// document has a class. Its declared fields are the parameters of the
// "groupnmf" catalog family (engine/param): Defaults returns Ks = 20
// shared and Kc = 8 class topics per class, the engine's default stopping
// rule, seed 1, the paper's update order and the default pool. In a
// literal, a zero Ks or Kc is no topics of that kind (None) and a zero
// Stopping.RelTol runs every iteration, while a zero Stopping.MaxIter
// selects its default.
type Options struct {
	// Ks is the number of shared topics (columns of U0); 0 (None) means no
	// shared topics.
	Ks int `param:"ks" default:"20" range:"[0,inf)" doc:"number of shared topics Ks (0: none)"`
	// Kc is the number of class-specific topics of every class; 0 (None)
	// means none. Ks + Kc ≥ 1, at most min(M, N) (Fit's error otherwise);
	// the model has K = Ks + P·Kc topics in all, which may exceed it.
	Kc int `param:"kc" default:"8" range:"[0,inf)" doc:"number of topics of each class Kc (0: none); K = Ks + P·Kc"`
	// Stopping bounds the iterations and sets the relative-change test on
	// the loss; folding-in applies the same rule to each document's loss.
	Stopping engine.Stopping `param:"iters,tol"`
	// Seed seeds the random initialization (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random initialization"`
	// VFirst runs each iteration as V_p (every class), then U0, then U_p —
	// the order of Lee & Seung's eq. 4 and of engine/nmf — instead of
	// Algorithm 5's U0, U_p, then V_p. Both are the same cycle of block
	// updates started at a different block; with one class, Kc = 0 and
	// VFirst the fit reproduces nmf.Options{Init: "random"} bit for bit.
	VFirst bool `param:"order" default:"alg5" range:"alg5|vfirst" doc:"update order: alg5 (U0, U_p, then V_p, GMF Algorithm 5) or vfirst (V_p first, as engine/nmf)"`
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Check reports a parameter outside its range, or Ks = Kc = 0; it needs no
// corpus.
func (o Options) Check() error { return grouping.CheckTopics("groupnmf", o, o.Ks, o.Kc) }

// Name is the registry name, "groupnmf".
func (o Options) Name() string { return "groupnmf" }

type settings struct {
	ks, kc int
	stop   engine.Stopping
	seed   uint64
	vFirst bool
	pool   *parallel.Pool
}

func (o Options) resolve() (settings, error) {
	s := settings{ks: o.Ks, kc: o.Kc, stop: o.Stopping, seed: o.Seed, vFirst: o.VFirst, pool: o.Pool}
	if err := o.Check(); err != nil {
		return s, err
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("groupnmf: Stopping: %w", err)
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
