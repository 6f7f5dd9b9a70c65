package lda

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/parallel"
)

// Defaults applied where an Options field is zero.
const (
	// DefaultK is the number of topics of the RLSI paper's topic tables
	// (Section 6.3: K = 20 for every method).
	DefaultK = 20
	// DefaultAlphaTimesK gives the default α = 50/K (Griffiths & Steyvers
	// 2004, Section 2.2; also GibbsLDA++'s default, the implementation the
	// TNMF paper used, Section 5.2).
	DefaultAlphaTimesK = 50.0
	// DefaultBeta is β = 0.1 (Griffiths & Steyvers 2004, Section 2.2;
	// GibbsLDA++'s default). The TNMF paper (Section 5.2) does not state
	// its values ("tuned to best manually").
	DefaultBeta = 0.1
	// DefaultIters is the number of Gibbs sweeps of a fit.
	DefaultIters = 1000
	// DefaultEvalEvery is how often log p(w|z) is evaluated and recorded.
	DefaultEvalEvery = 10
	// DefaultFoldInIters is the number of Gibbs sweeps when folding in a
	// document; the first half are burn-in (DefaultFoldInBurnIn).
	DefaultFoldInIters = 100
)

// Options configure LDA by collapsed Gibbs sampling. The zero value is
// valid: K = 20, α = 50/K, β = 0.1, 1000 sweeps of which the first 500 are
// burn-in, log p(w|z) every 10 sweeps, seed 0, integer counts required, 100
// fold-in sweeps (50 burn-in) and the default pool. Options implements
// engine.Method.
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed
	// min(M, N) of the corpus.
	K int
	// Alpha is the symmetric Dirichlet parameter of θ; 0 means 50/K.
	Alpha float64
	// Beta is the symmetric Dirichlet parameter of φ; 0 means DefaultBeta.
	Beta float64
	// Iters is the number of Gibbs sweeps over all tokens; 0 means
	// DefaultIters.
	Iters int
	// BurnIn is the number of initial sweeps whose samples are discarded;
	// the estimates of φ and θ average the samples of the sweeps after it.
	// 0 means Iters/2; a negative value means no burn-in (every sweep is
	// averaged). It must be less than Iters.
	BurnIn int
	// EvalEvery evaluates log p(w|z) every EvalEvery sweeps and after the
	// last; 0 means DefaultEvalEvery.
	EvalEvery int
	// Seed seeds the initial assignment and the sampler (engine.NewRand),
	// and, derived with a document's content, its fold-in sampler.
	Seed uint64
	// RoundWeights rounds non-integer entries of D (and of folded-in
	// documents) to the nearest integer count (half away from zero)
	// instead of refusing them; entries that round to 0 are dropped.
	RoundWeights bool
	// FoldInIters is the number of Gibbs sweeps when folding in a
	// document; 0 means DefaultFoldInIters.
	FoldInIters int
	// FoldInBurnIn is the number of fold-in sweeps discarded before θ is
	// averaged; 0 means FoldInIters/2, negative means none. It must be less
	// than FoldInIters.
	FoldInBurnIn int
	// Pool runs the parallel loops (log-likelihood, estimates, fold-in);
	// nil means parallel.Default(). The training sampler itself is
	// sequential.
	Pool *parallel.Pool
}

// Name is the registry name, "lda".
func (o Options) Name() string { return "lda" }

type settings struct {
	k                   int
	alpha, beta         float64
	iters, burnIn       int
	evalEvery           int
	seed                uint64
	round               bool
	foldIters, foldBurn int
	pool                *parallel.Pool
}

// resolve validates o against an M×N corpus and applies the defaults.
func (o Options) resolve(m, n int) (settings, error) {
	s := settings{k: o.K, alpha: o.Alpha, beta: o.Beta, iters: o.Iters, burnIn: o.BurnIn,
		evalEvery: o.EvalEvery, seed: o.Seed, round: o.RoundWeights,
		foldIters: o.FoldInIters, foldBurn: o.FoldInBurnIn, pool: o.Pool}
	if s.k < 0 {
		return s, fmt.Errorf("lda: K = %d, want ≥ 1 (0 for the default %d)", s.k, DefaultK)
	}
	if s.k == 0 {
		s.k = DefaultK
	}
	if s.k > min(m, n) {
		return s, fmt.Errorf("lda: K = %d exceeds min(M, N) = min(%d terms, %d documents) = %d", s.k, m, n, min(m, n))
	}
	if math.IsNaN(s.alpha) || math.IsInf(s.alpha, 0) || s.alpha < 0 {
		return s, fmt.Errorf("lda: Alpha = %v, want a finite number > 0 (0 for the default 50/K)", s.alpha)
	}
	if s.alpha == 0 {
		s.alpha = DefaultAlphaTimesK / float64(s.k)
	}
	if math.IsNaN(s.beta) || math.IsInf(s.beta, 0) || s.beta < 0 {
		return s, fmt.Errorf("lda: Beta = %v, want a finite number > 0 (0 for the default %v)", s.beta, DefaultBeta)
	}
	if s.beta == 0 {
		s.beta = DefaultBeta
	}
	var err error
	if s.iters, s.burnIn, err = sweeps("Iters", "BurnIn", s.iters, s.burnIn, DefaultIters); err != nil {
		return s, err
	}
	if s.evalEvery < 0 {
		return s, fmt.Errorf("lda: EvalEvery = %d, want ≥ 0 (0 for the default %d)", s.evalEvery, DefaultEvalEvery)
	}
	if s.evalEvery == 0 {
		s.evalEvery = DefaultEvalEvery
	}
	if s.foldIters, s.foldBurn, err = sweeps("FoldInIters", "FoldInBurnIn", s.foldIters, s.foldBurn, DefaultFoldInIters); err != nil {
		return s, err
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}

// sweeps applies the defaults of a (sweeps, burn-in) pair and checks that
// at least one sweep follows the burn-in.
func sweeps(itersName, burnName string, iters, burn, def int) (int, int, error) {
	if iters < 0 {
		return 0, 0, fmt.Errorf("lda: %s = %d, want ≥ 1 (0 for the default %d)", itersName, iters, def)
	}
	if iters == 0 {
		iters = def
	}
	switch {
	case burn == 0:
		burn = iters / 2
	case burn < 0:
		burn = 0
	case burn >= iters:
		return 0, 0, fmt.Errorf("lda: %s = %d, want fewer than %s = %d", burnName, burn, itersName, iters)
	}
	return iters, burn, nil
}
