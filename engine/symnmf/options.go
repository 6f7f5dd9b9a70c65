package symnmf

import (
	"cmp"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/symmetric"
	"gonum.org/v1/gonum/mat"
)

// The declared defaults (the tags of Options), as constants for code that
// states them, and the backtracking bound.
const (
	// DefaultK is the smallest number of clusters of the TNMF paper's
	// experiments (K = 20 … 100).
	DefaultK = 20
	// DefaultSigma and DefaultBeta are σ and β of the Armijo rule of Kuang,
	// Ding and Park (2012), Algorithm 1: accept α = β^m, the largest with
	// f(H_new) − f(H) ≤ σ·⟨∇f(H), H_new − H⟩.
	DefaultSigma = 0.01
	DefaultBeta  = 0.1
	// MaxBacktracks bounds m in the Armijo search (α ≥ β^MaxBacktracks).
	MaxBacktracks = 40
)

// Options configure SymNMF on the document-document cosine similarity;
// Options implements engine.Method. Its declared fields are the parameters
// of the "symnmf" catalog family (engine/param): Defaults returns K = 20,
// the engine's default stopping rule, the Armijo parameters of Kuang et
// al., random start from seed 1, storage of A by density and the default
// pool. In a literal, a zero K, Sigma, Beta or Stopping.MaxIter selects
// its default, while a zero Stopping.RelTol runs every iteration.
type Options struct {
	// K is the number of clusters; 0 means DefaultK. At most N.
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of clusters K (1 ≤ K ≤ documents)"`
	// Stopping bounds the iterations and sets the relative-change test on
	// ‖A − HHᵀ‖²_F; FoldIn uses MaxIter and RelTol for its NNLS sweeps.
	Stopping engine.Stopping `param:"iters,tol" iters:"maximum projected-gradient iterations" tol:"relative change of ‖A−HHᵀ‖²_F that stops the fit; 0 or negative runs all iterations"`
	// Sigma (0 < σ < 1) and Beta (0 < β < 1) of the Armijo rule; 0 means
	// DefaultSigma, DefaultBeta.
	Sigma float64 `param:"sigma" default:"0.01" range:"(0,1)" doc:"σ of the Armijo rule"`
	Beta  float64 `param:"beta" default:"0.1" range:"(0,1)" doc:"β, the step shrink factor of the Armijo rule"`
	// Storage holds A sparse or dense (symmetric.Storage); the zero value picks
	// by density (short texts: sparse).
	Storage symmetric.Storage `param:"storage" default:"auto" range:"auto|sparse|dense" doc:"A storage: auto (dense from density 0.5), sparse or dense"`
	// Seed seeds H⁽⁰⁾ (package doc).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random H⁽⁰⁾ (2·sqrt(mean(A)/K)·Uniform[0,1))"`
	// InitH, when set, is H⁽⁰⁾ (N×K, non-negative), copied.
	InitH *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Name is the registry name, "symnmf".
func (o Options) Name() string { return "symnmf" }

func (o Options) resolve(n int) (Options, error) {
	if err := param.Check(o); err != nil {
		return o, fmt.Errorf("symnmf: %w", err)
	}
	o.K = cmp.Or(o.K, DefaultK)
	if n == 0 {
		return o, fmt.Errorf("symnmf: empty corpus (no documents)")
	}
	if o.K > n {
		return o, fmt.Errorf("symnmf: K = %d exceeds the %d documents", o.K, n)
	}
	// H (N×K) and its next iterate, before anything is allocated.
	if err := engine.CheckNeed(fmt.Sprintf("symnmf: K = %d topics of %d documents need", o.K, n), 16*float64(n)*float64(o.K), " for H"); err != nil {
		return o, err
	}
	o.Sigma = cmp.Or(o.Sigma, DefaultSigma)
	o.Beta = cmp.Or(o.Beta, DefaultBeta)
	if err := o.Stopping.Validate(); err != nil {
		return o, fmt.Errorf("symnmf: Stopping: %w", err)
	}
	if o.InitH != nil {
		if err := engine.CheckStart("symnmf", "InitH", o.InitH, n, o.K, "N×K"); err != nil {
			return o, err
		}
	}
	if o.Pool == nil {
		o.Pool = parallel.Default()
	}
	return o, nil
}
