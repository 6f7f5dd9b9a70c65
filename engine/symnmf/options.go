package symnmf

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/symmetric"
	"gonum.org/v1/gonum/mat"
)

// Defaults applied where an Options field is zero.
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

// Options configure SymNMF on the document-document cosine similarity.
// The zero value is valid: K = 20, the engine's default stopping rule, the
// Armijo parameters of Kuang et al., random start from seed 0, storage of
// A by density, the default pool. Options implements engine.Method.
type Options struct {
	// K is the number of clusters; 0 means DefaultK. At most N.
	K int
	// Stopping bounds the iterations and sets the relative-change test on
	// ‖A − HHᵀ‖²_F; FoldIn uses MaxIter and RelTol for its NNLS sweeps.
	Stopping engine.Stopping
	// Sigma (0 < σ < 1) and Beta (0 < β < 1) of the Armijo rule; 0 means
	// DefaultSigma, DefaultBeta.
	Sigma, Beta float64
	// Storage holds A sparse or dense (symmetric.Storage); the zero value picks
	// by density (short texts: sparse).
	Storage symmetric.Storage
	// Seed seeds H⁽⁰⁾ (package doc).
	Seed uint64
	// InitH, when set, is H⁽⁰⁾ (N×K, non-negative), copied.
	InitH *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Name is the registry name, "symnmf".
func (o Options) Name() string { return "symnmf" }

func (o Options) resolve(n int) (Options, error) {
	if o.K < 0 {
		return o, fmt.Errorf("symnmf: K = %d, want ≥ 1 (0 for the default %d)", o.K, DefaultK)
	}
	if o.K == 0 {
		o.K = DefaultK
	}
	if n == 0 {
		return o, fmt.Errorf("symnmf: empty corpus (no documents)")
	}
	if o.K > n {
		return o, fmt.Errorf("symnmf: K = %d exceeds the %d documents", o.K, n)
	}
	for _, f := range []struct {
		name string
		v    *float64
		def  float64
	}{{"Sigma", &o.Sigma, DefaultSigma}, {"Beta", &o.Beta, DefaultBeta}} {
		if *f.v == 0 {
			*f.v = f.def
		}
		if !(*f.v > 0 && *f.v < 1) {
			return o, fmt.Errorf("symnmf: %s = %v, want a number in (0, 1)", f.name, *f.v)
		}
	}
	if o.Storage < symmetric.StorageAuto || o.Storage > symmetric.StorageDense {
		return o, fmt.Errorf("symnmf: Storage = %d, want auto, sparse or dense", int(o.Storage))
	}
	if err := o.Stopping.Validate(); err != nil {
		return o, fmt.Errorf("symnmf: Stopping: %w", err)
	}
	if o.InitH != nil {
		r, c := o.InitH.Dims()
		if r != n || c != o.K {
			return o, fmt.Errorf("symnmf: InitH is %d×%d, want N×K = %d×%d", r, c, n, o.K)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if x := o.InitH.At(i, j); math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
					return o, fmt.Errorf("symnmf: InitH[%d,%d] = %v, want finite and non-negative", i, j, x)
				}
			}
		}
	}
	if o.Pool == nil {
		o.Pool = parallel.Default()
	}
	return o, nil
}
