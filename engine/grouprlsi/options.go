package grouprlsi

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rlsi"
)

// None, as Options.Ks or Options.Kc, asks for no topics of that kind (0
// selects the default).
const None = -1

// Defaults applied where an Options field is zero.
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

// Options configure GRLSI (GMF §4, Eq. 3). The zero value is valid:
// Ks = 20 shared and Kc = 8 class topics per class, λ1 = 0.01, λ2 = 0.1, the
// engine's default stopping rule, the inner-loop settings of engine/rlsi,
// seed 0 and the default pool. Options implements engine.Method; its Fit
// needs a corpus whose every document has a class.
type Options struct {
	// Ks is the number of shared topics (columns of U0); 0 means DefaultKs,
	// None means no shared topics.
	Ks int
	// Kc is the number of class-specific topics of every class (columns of
	// each U_p); 0 means DefaultKc, None means none. Ks + Kc ≥ 1. The model
	// has K = Ks + P·Kc topics in all.
	Kc int
	// Lambda1 (λ1 > 0) weighs the ℓ1 norms of the shared and class topics;
	// 0 means DefaultLambda1.
	Lambda1 float64
	// Lambda2 (λ2 > 0) weighs the squared ℓ2 norms of the document
	// representations; 0 means DefaultLambda2.
	Lambda2 float64
	// Stopping bounds the outer iterations of Algorithm 1 and sets the
	// relative-change test on the objective.
	Stopping engine.Stopping
	// InnerSweeps bounds the coordinate-descent sweeps per row of the U0
	// and U_p updates (Algorithms 2–3 "until convergence"); 0 means
	// rlsi.DefaultInnerSweeps.
	InnerSweeps int
	// InnerTol stops a row's sweeps when max_k |Δu_mk| ≤ InnerTol·max_k
	// |u_mk|; 0 means rlsi.DefaultInnerTol, negative runs every sweep.
	InnerTol float64
	// ColdStart restarts every row of the U updates from zero, as
	// Algorithms 2–3 line 4 literally say, instead of from the previous
	// iterate (see the package doc).
	ColdStart bool
	// Seed seeds V⁽⁰⁾ (engine.NewRand).
	Seed uint64
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

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

// positive applies the default to a λ and checks it.
func positive(who, name string, v, def float64) (float64, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("%s: %s = %v, want a finite number > 0 (0 for the default %v)", who, name, v, def)
	}
	if v == 0 {
		return def, nil
	}
	return v, nil
}

func (o Options) resolve() (settings, error) {
	const who = "grouprlsi"
	s := settings{stop: o.Stopping, innerSweeps: o.InnerSweeps, innerTol: o.InnerTol,
		coldStart: o.ColdStart, seed: o.Seed, pool: o.Pool}
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
	if s.lambda1, err = positive(who, "Lambda1", o.Lambda1, DefaultLambda1); err != nil {
		return s, err
	}
	if s.lambda2, err = positive(who, "Lambda2", o.Lambda2, DefaultLambda2); err != nil {
		return s, err
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("%s: Stopping: %w", who, err)
	}
	if s.innerSweeps < 0 {
		return s, fmt.Errorf("%s: InnerSweeps = %d, want ≥ 0", who, s.innerSweeps)
	}
	if s.innerSweeps == 0 {
		s.innerSweeps = rlsi.DefaultInnerSweeps
	}
	if math.IsNaN(s.innerTol) || math.IsInf(s.innerTol, 0) {
		return s, fmt.Errorf("%s: InnerTol = %v, want a finite number", who, s.innerTol)
	}
	if s.innerTol == 0 {
		s.innerTol = rlsi.DefaultInnerTol
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
