package nmfvariants

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"gonum.org/v1/gonum/mat"
)

// The declared defaults (the tags of EOptions and IOptions), as constants
// for code that states them.
const (
	// DefaultK is the smallest number of topics of the TNMF paper's
	// experiments (Section 5, K = 20 … 100).
	DefaultK = 20
	// DefaultLambda is λ of NMF_E. The paper tuned it by hand and does not
	// report it; 0.1 is our choice (see the package doc for its scale).
	DefaultLambda = 0.1
)

// Eps is ε of the guarded NMF_E update: added to the numerator and the
// denominator of every factor, which keeps the update monotone (package
// doc).
const Eps = 1e-16

// EOptions configure NMF_E: min ‖D − UVᵀ‖²_F + λ(‖U‖²_F + ‖V‖²_F) over
// U, V ≥ 0; EOptions implements engine.Method. Its declared fields are the
// parameters of the "nmfe" catalog family (engine/param): DefaultsE
// returns K = 20, λ = 0.1, the engine's default stopping rule, random
// initialization from seed 1 and the default pool. In a literal, a zero K
// or Stopping.MaxIter selects its default, while a zero Lambda is no
// regularizer and a zero Stopping.RelTol runs every iteration.
type EOptions struct {
	// K is the number of topics; 0 means DefaultK. At most min(M, N).
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K (1 ≤ K ≤ min(terms, documents))"`
	// Lambda (λ ≥ 0) weighs the ℓ2 regularizer of both factors.
	Lambda float64 `param:"lambda" default:"0.1" range:"[0,inf)" doc:"λ ≥ 0 of the ℓ2 regularizer on both factors"`
	// Stopping bounds the iterations and sets the relative-change test on
	// the objective; FoldIn applies it to each document's own objective.
	Stopping engine.Stopping `param:"iters,tol" iters:"maximum iterations (a V update and a U update each)"`
	// Seed seeds the random start (see the package doc).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random start (|N(0,1)|·sqrt(mean(D)/K))"`
	// U0 (M×K) and V0 (N×K), when both set, are the start (copied).
	U0, V0 *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// IOptions configure NMF_I: min D(D ‖ UVᵀ) (generalized I-divergence) over
// U, V ≥ 0, no regularizer; IOptions implements engine.Method. Its
// declared fields are the parameters of the "nmfi" catalog family
// (engine/param): DefaultsI returns K = 20, the engine's default stopping
// rule, random initialization from seed 1 and the default pool. In a
// literal, a zero K or Stopping.MaxIter selects its default, while a zero
// Stopping.RelTol runs every iteration.
type IOptions struct {
	// K is the number of topics; 0 means DefaultK. At most min(M, N).
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K (1 ≤ K ≤ min(terms, documents))"`
	// Stopping bounds the iterations and sets the relative-change test on
	// the divergence; FoldIn applies it to each document's own divergence.
	Stopping engine.Stopping `param:"iters,tol" iters:"maximum iterations (a V update and a U update each)" tol:"relative change of the I-divergence that stops the fit; 0 or negative runs all iterations"`
	// Seed seeds the random start (see the package doc).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random start (|N(0,1)|·sqrt(mean(D)/K))"`
	// U0 (M×K) and V0 (N×K), when both set, are the start (copied).
	U0, V0 *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// DefaultsE returns the declared defaults of every NMF_E parameter (the
// tags of EOptions).
func DefaultsE() EOptions { return param.DefaultsOf[EOptions]() }

// DefaultsI returns the declared defaults of every NMF_I parameter (the
// tags of IOptions).
func DefaultsI() IOptions { return param.DefaultsOf[IOptions]() }

// Name is the registry name, "nmfe".
func (o EOptions) Name() string { return "nmfe" }

// Name is the registry name, "nmfi".
func (o IOptions) Name() string { return "nmfi" }

// settings are the resolved options of either variant.
type settings struct {
	name   string
	k      int
	lambda float64
	stop   engine.Stopping
	seed   uint64
	u0, v0 *mat.Dense
	pool   *parallel.Pool
}

func (s settings) resolve(m, n int) (settings, error) {
	if s.k < 0 {
		return s, fmt.Errorf("%s: K = %d, want ≥ 1 (0 for the default %d)", s.name, s.k, DefaultK)
	}
	if err := engine.ResolveK(s.name, &s.k, DefaultK, m, n); err != nil {
		return s, err
	}
	if math.IsNaN(s.lambda) || math.IsInf(s.lambda, 0) || s.lambda < 0 {
		return s, fmt.Errorf("%s: Lambda = %v, want a finite number ≥ 0", s.name, s.lambda)
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("%s: Stopping: %w", s.name, err)
	}
	if (s.u0 == nil) != (s.v0 == nil) {
		return s, fmt.Errorf("%s: U0 and V0 must be given together", s.name)
	}
	if s.u0 != nil {
		if err := engine.CheckStart(s.name, "U0", s.u0, m, s.k, "M×K"); err != nil {
			return s, err
		}
		if err := engine.CheckStart(s.name, "V0", s.v0, n, s.k, "N×K"); err != nil {
			return s, err
		}
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
