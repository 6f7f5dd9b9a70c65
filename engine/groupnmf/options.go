package groupnmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
)

// None, as Options.Ks or Options.Kc, asks for no topics of that kind (0
// selects the default).
const None = -1

// Defaults applied where an Options field is zero: the numbers of shared
// and class-specific topics of the paper's topic tables (GMF §7.2,
// Wikipedia: Ks = 20, Kc = 8).
const (
	DefaultKs = 20
	DefaultKc = 8
)

// Eps is ε of the guarded multiplicative updates, the value of engine/nmf
// (nmf.Eps): every update factor is (num + ε)/(den + ε).
const Eps = 1e-16

// Options configure Group NMF (GMF §5, Eq. 9, Algorithm 5). The zero value
// is valid: Ks = 20 shared and Kc = 8 class topics per class, the engine's
// default stopping rule, seed 0, the paper's update order and the default
// pool. Options implements engine.Method; its Fit needs a corpus whose
// every document has a class.
type Options struct {
	// Ks is the number of shared topics (columns of U0); 0 means DefaultKs,
	// None means no shared topics.
	Ks int
	// Kc is the number of class-specific topics of every class; 0 means
	// DefaultKc, None means none. Ks + Kc ≥ 1; the model has
	// K = Ks + P·Kc topics in all.
	Kc int
	// Stopping bounds the iterations and sets the relative-change test on
	// the loss; folding-in applies the same rule to each document's loss.
	Stopping engine.Stopping
	// Seed seeds the random initialization (engine.NewRand).
	Seed uint64
	// VFirst runs each iteration as V_p (every class), then U0, then U_p —
	// the order of Lee & Seung's eq. 4 and of engine/nmf — instead of
	// Algorithm 5's U0, U_p, then V_p. Both are the same cycle of block
	// updates started at a different block; with one class, Kc = 0 and
	// VFirst the fit reproduces nmf.Options{Init: "random"} bit for bit.
	VFirst bool
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Name is the registry name, "groupnmf".
func (o Options) Name() string { return "groupnmf" }

type settings struct {
	ks, kc int
	stop   engine.Stopping
	seed   uint64
	vFirst bool
	pool   *parallel.Pool
}

// topicCount applies the default and None to a topic-count field.
func topicCount(who, name string, v, def int) (int, error) {
	switch {
	case v == 0:
		return def, nil
	case v == None:
		return 0, nil
	case v < 0:
		return 0, fmt.Errorf("%s: %s = %d, want ≥ 1 (0 for the default %d, None for no topics)", who, name, v, def)
	}
	return v, nil
}

func (o Options) resolve() (settings, error) {
	const who = "groupnmf"
	s := settings{stop: o.Stopping, seed: o.Seed, vFirst: o.VFirst, pool: o.Pool}
	var err error
	if s.ks, err = topicCount(who, "Ks", o.Ks, DefaultKs); err != nil {
		return s, err
	}
	if s.kc, err = topicCount(who, "Kc", o.Kc, DefaultKc); err != nil {
		return s, err
	}
	if s.ks+s.kc < 1 {
		return s, fmt.Errorf("%s: Ks = Kc = None leaves no topics; want Ks + Kc ≥ 1", who)
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("%s: Stopping: %w", who, err)
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
