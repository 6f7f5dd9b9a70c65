package grouprlsi

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/rlsi"
)

// None, as Options.Ks or Options.Kc, asks for no topics of that kind; it
// is 0, written as a name where a literal reads better with one.
const None = 0

// The declared defaults (the tags of Options), as constants for code that
// states them.
const (
	// DefaultKs and DefaultKc are the numbers of shared and class-specific
	// topics of the paper's topic tables (GMF §7.2, Wikipedia: Ks = 20,
	// Kc = 8).
	DefaultKs = 20
	DefaultKc = 8
	// DefaultLambda1 and DefaultLambda2 are the GMF experiments' settings
	// (§7.1: λ1 chosen from 0.01/0.02/0.05/0.1, 0.01 in the topic tables of
	// §7.2; λ2 fixed to 0.1).
	DefaultLambda1 = 0.01
	DefaultLambda2 = 0.1
)

// Options configure GRLSI (GMF §4, Eq. 3); Options implements
// engine.Method, and its Fit needs a corpus whose every document has a
// class. Its declared fields are the parameters of the "grouprlsi" catalog
// family (engine/param): Defaults returns Ks = 20 shared and Kc = 8 class
// topics per class, λ1 = 0.01, λ2 = 0.1, the engine's default stopping
// rule, the inner-loop settings of engine/rlsi, seed 1 and the default
// pool. In a literal, a zero Ks or Kc is no topics of that kind (None), a
// zero λ is 0 and a zero InnerTol or Stopping.RelTol disables its test,
// while a zero InnerSweeps or Stopping.MaxIter selects its default.
type Options struct {
	// Ks is the number of shared topics (columns of U0); 0 (None) means no
	// shared topics.
	Ks int `param:"ks" default:"20" range:"[0,inf)" doc:"number of shared topics Ks (0: none)"`
	// Kc is the number of class-specific topics of every class (columns of
	// each U_p); 0 (None) means none. Ks + Kc ≥ 1, at most min(M, N)
	// (Fit's error otherwise); the model has K = Ks + P·Kc topics in all,
	// which may exceed it.
	Kc int `param:"kc" default:"8" range:"[0,inf)" doc:"number of topics of each class Kc (0: none); K = Ks + P·Kc"`
	// Lambda1 (λ1 ≥ 0) weighs the ℓ1 norms of the shared and class topics.
	Lambda1 float64 `param:"lambda1" default:"0.01" range:"[0,inf)" doc:"λ1 ≥ 0, weight of the ℓ1 norms of the topics (GMF §7.1: 0.01–0.1)"`
	// Lambda2 (λ2 ≥ 0) weighs the squared ℓ2 norms of the document
	// representations.
	Lambda2 float64 `param:"lambda2" default:"0.1" range:"[0,inf)" doc:"λ2 ≥ 0, weight of the squared ℓ2 norms of the document representations (GMF §7.1: 0.1)"`
	// Stopping bounds the outer iterations of Algorithm 1 and sets the
	// relative-change test on the objective.
	Stopping engine.Stopping `param:"iters,tol"`
	// InnerSweeps bounds the coordinate-descent sweeps per row of the U0
	// and U_p updates (Algorithms 2–3 "until convergence"); 0 means
	// rlsi.DefaultInnerSweeps.
	InnerSweeps int `param:"inner-sweeps" default:"100" range:"[1,inf)" doc:"maximum coordinate-descent sweeps per row of a topic update"`
	// InnerTol stops a row's sweeps when max_k |Δu_mk| ≤ InnerTol·max_k
	// |u_mk|; 0 or a negative value runs every sweep.
	InnerTol float64 `param:"inner-tol" default:"1e-5" doc:"a row's sweeps stop when its largest change ≤ inner-tol × its largest magnitude; 0 or negative runs all sweeps"`
	// ColdStart restarts every row of the U updates from zero, as
	// Algorithms 2–3 line 4 literally say, instead of from the previous
	// iterate (see the package doc).
	ColdStart bool
	// Seed seeds V⁽⁰⁾ (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random initialization"`
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Check reports a parameter outside its range, or Ks = Kc = 0; it needs no
// corpus.
func (o Options) Check() error { return grouping.CheckTopics("grouprlsi", o, o.Ks, o.Kc) }

// Name is the registry name, "grouprlsi".
func (o Options) Name() string { return "grouprlsi" }

type settings struct {
	ks, kc           int
	lambda1, lambda2 float64
	stop             engine.Stopping
	innerSweeps      int
	innerTol         float64
	coldStart        bool
	seed             uint64
	pool             *parallel.Pool
}

func (o Options) resolve() (settings, error) {
	s := settings{ks: o.Ks, kc: o.Kc, lambda1: o.Lambda1, lambda2: o.Lambda2, stop: o.Stopping,
		innerSweeps: o.InnerSweeps, innerTol: o.InnerTol, coldStart: o.ColdStart, seed: o.Seed, pool: o.Pool}
	if err := o.Check(); err != nil {
		return s, err
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("grouprlsi: Stopping: %w", err)
	}
	if s.innerSweeps == 0 {
		s.innerSweeps = rlsi.DefaultInnerSweeps
	}
	if s.innerTol <= 0 {
		s.innerTol = -1 // the lasso reads a negative tolerance as "every sweep"
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
