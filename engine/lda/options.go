package lda

import (
	"cmp"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
)

// The declared defaults (the tags of Options), as constants for code that
// states them.
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

// AutoBurnIn, as Options.BurnIn or FoldInBurnIn, discards the first half
// of the sweeps (Iters/2 or FoldInIters/2), the declared default.
const AutoBurnIn = -1

// Options configure LDA by collapsed Gibbs sampling; Options implements
// engine.Method. Its declared fields are the parameters of the "lda"
// catalog family (engine/param): Defaults returns K = 20, α = 50/K,
// β = 0.1, 1000 sweeps of which the first 500 are burn-in, log p(w|z)
// every 10 sweeps, seed 1, integer counts required, 100 fold-in sweeps (50
// burn-in) and the default pool. In a literal, a zero K, Alpha, Beta,
// Iters, EvalEvery or FoldInIters selects its default, while a zero BurnIn
// or FoldInBurnIn means no burn-in (AutoBurnIn asks for half).
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed
	// min(M, N) of the corpus.
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K"`
	// Alpha is the symmetric Dirichlet parameter of θ; 0 means 50/K.
	Alpha float64 `param:"alpha" default:"50/K" auto:"0" range:"(0,inf)" doc:"symmetric Dirichlet parameter of θ"`
	// Beta is the symmetric Dirichlet parameter of φ; 0 means DefaultBeta.
	Beta float64 `param:"beta" default:"0.1" range:"(0,inf)" doc:"symmetric Dirichlet parameter of φ"`
	// Iters is the number of Gibbs sweeps over all tokens; 0 means
	// DefaultIters.
	Iters int `param:"iters" default:"1000" range:"[1,inf)" doc:"Gibbs sweeps over all tokens"`
	// BurnIn is the number of initial sweeps whose samples are discarded;
	// the estimates of φ and θ average the samples of the sweeps after it.
	// 0 averages every sweep; AutoBurnIn means Iters/2. It must be less
	// than Iters.
	BurnIn int `param:"burnin" default:"iters/2" auto:"-1" range:"[0,inf)" doc:"initial sweeps not averaged into φ and θ (burnin < iters)"`
	// EvalEvery evaluates log p(w|z) every EvalEvery sweeps and after the
	// last; 0 means DefaultEvalEvery.
	EvalEvery int `param:"eval-every" default:"10" range:"[1,inf)" doc:"evaluate and record log p(w|z) every eval-every sweeps and after the last"`
	// Seed seeds the initial assignment and the sampler (engine.NewRand),
	// and, derived with a document's content, its fold-in sampler.
	Seed uint64 `param:"seed" default:"1" doc:"seed of the initial assignment and the sampler"`
	// RoundWeights rounds non-integer entries of D (and of folded-in
	// documents) to the nearest integer count (half away from zero)
	// instead of refusing them; entries that round to 0 are dropped.
	RoundWeights bool `param:"round" default:"false" doc:"round non-integer weights of D to counts (true) instead of refusing them (false)"`
	// FoldInIters is the number of Gibbs sweeps when folding in a
	// document; 0 means DefaultFoldInIters.
	FoldInIters int `param:"fold-in-iters" default:"100" range:"[1,inf)" doc:"Gibbs sweeps when folding in a document (φ fixed)"`
	// FoldInBurnIn is the number of fold-in sweeps discarded before θ is
	// averaged; 0 averages every sweep, AutoBurnIn means FoldInIters/2. It
	// must be less than FoldInIters.
	FoldInBurnIn int `param:"fold-in-burnin" default:"fold-in-iters/2" auto:"-1" range:"[0,inf)" doc:"fold-in sweeps not averaged into θ (fold-in-burnin < fold-in-iters)"`
	// Pool runs the parallel loops (log-likelihood, estimates, fold-in);
	// nil means parallel.Default(). The training sampler itself is
	// sequential.
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Check reports a parameter outside its range, or a burn-in that leaves no
// sweep to average; it needs no corpus.
func (o Options) Check() error {
	if err := param.Check(o); err != nil {
		return fmt.Errorf("lda: %w", err)
	}
	if _, _, err := sweeps("Iters", "BurnIn", o.Iters, o.BurnIn, DefaultIters); err != nil {
		return err
	}
	_, _, err := sweeps("FoldInIters", "FoldInBurnIn", o.FoldInIters, o.FoldInBurnIn, DefaultFoldInIters)
	return err
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
	if err := o.Check(); err != nil {
		return s, err
	}
	if err := engine.ResolveK("lda", &s.k, DefaultK, m, n); err != nil {
		return s, err
	}
	s.alpha = cmp.Or(s.alpha, DefaultAlphaTimesK/float64(s.k))
	s.beta = cmp.Or(s.beta, DefaultBeta)
	var err error
	if s.iters, s.burnIn, err = sweeps("Iters", "BurnIn", s.iters, s.burnIn, DefaultIters); err != nil {
		return s, err
	}
	s.evalEvery = cmp.Or(s.evalEvery, DefaultEvalEvery)
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
	case burn == AutoBurnIn:
		burn = iters / 2
	case burn < 0:
		return 0, 0, fmt.Errorf("lda: %s = %d, want ≥ 0 (AutoBurnIn for %s/2)", burnName, burn, itersName)
	case burn >= iters:
		return 0, 0, fmt.Errorf("lda: %s = %d, want fewer than %s = %d", burnName, burn, itersName, iters)
	}
	return iters, burn, nil
}
