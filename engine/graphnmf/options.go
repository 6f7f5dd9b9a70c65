package graphnmf

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// Defaults applied where an Options field is zero: Cai et al. (2011),
// Section 5.3, set p = 5 and λ = 100 for all their data sets, with 0-1
// weights.
const (
	DefaultK         = 20
	DefaultLambda    = 100
	DefaultNeighbors = 5
	DefaultSigma     = 1
)

// Eps is ε of the guarded update: added to the numerator and the
// denominator of every factor (package doc).
const Eps = 1e-16

// Options configure graph-regularized NMF. The zero value is valid: K = 20,
// λ = 100, p = 5 nearest neighbours by cosine with 0-1 weights, the
// engine's default stopping rule, random start from seed 0, columns of U
// normalized at the end, the default pool. Options implements
// engine.Method.
type Options struct {
	// K is the number of topics; 0 means DefaultK. At most min(M, N).
	K int
	// Lambda (λ ≥ 0) weighs the graph regularizer Tr(VᵀLV); 0 means
	// DefaultLambda. (The TNMF paper, footnote 6, found the best λ
	// sometimes 0 and then used 0.01.)
	Lambda float64
	// Neighbors is p of the p-nearest-neighbour graph; 0 means
	// DefaultNeighbors.
	Neighbors int
	// Weighting of the edges; the zero value is Binary.
	Weighting Weighting
	// Sigma is σ of the Heat weighting; 0 means DefaultSigma.
	Sigma float64
	// Stopping bounds the iterations and sets the relative-change test on
	// the objective; FoldIn applies it to each document's own loss.
	Stopping engine.Stopping
	// Seed seeds the random start (see the package doc).
	Seed uint64
	// NoNormalize keeps the factors as the last iteration left them;
	// by default the columns of U are scaled to unit Euclidean norm and V
	// by the inverse, as Cai et al.'s code does at the end (UVᵀ unchanged).
	NoNormalize bool
	// U0 (M×K) and V0 (N×K), when both set, are the start (copied).
	U0, V0 *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Name is the registry name, "graphnmf".
func (o Options) Name() string { return "graphnmf" }

func (o Options) resolve(m, n int) (Options, error) {
	if o.K < 0 {
		return o, fmt.Errorf("graphnmf: K = %d, want ≥ 1 (0 for the default %d)", o.K, DefaultK)
	}
	if o.K == 0 {
		o.K = DefaultK
	}
	if m == 0 || n == 0 {
		return o, fmt.Errorf("graphnmf: empty corpus (%d terms × %d documents)", m, n)
	}
	if o.K > min(m, n) {
		return o, fmt.Errorf("graphnmf: K = %d exceeds min(terms, documents) = min(%d, %d)", o.K, m, n)
	}
	for _, f := range []struct {
		name string
		v    *float64
		def  float64
	}{{"Lambda", &o.Lambda, DefaultLambda}, {"Sigma", &o.Sigma, DefaultSigma}} {
		if math.IsNaN(*f.v) || math.IsInf(*f.v, 0) || *f.v < 0 {
			return o, fmt.Errorf("graphnmf: %s = %v, want a finite number ≥ 0", f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if o.Neighbors < 0 {
		return o, fmt.Errorf("graphnmf: Neighbors = %d, want ≥ 1 (0 for the default %d)", o.Neighbors, DefaultNeighbors)
	}
	if o.Neighbors == 0 {
		o.Neighbors = DefaultNeighbors
	}
	if o.Weighting < 0 || int(o.Weighting) >= len(weightingNames) {
		return o, fmt.Errorf("graphnmf: Weighting = %d, want Binary, Heat or Cosine", int(o.Weighting))
	}
	if err := o.Stopping.Validate(); err != nil {
		return o, fmt.Errorf("graphnmf: Stopping: %w", err)
	}
	if (o.U0 == nil) != (o.V0 == nil) {
		return o, fmt.Errorf("graphnmf: U0 and V0 must be given together")
	}
	if o.U0 != nil {
		for _, f := range []struct {
			name string
			a    *mat.Dense
			rows int
		}{{"U0", o.U0, m}, {"V0", o.V0, n}} {
			r, c := f.a.Dims()
			if r != f.rows || c != o.K {
				return o, fmt.Errorf("graphnmf: %s is %d×%d, want %d×%d", f.name, r, c, f.rows, o.K)
			}
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					if x := f.a.At(i, j); math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
						return o, fmt.Errorf("graphnmf: %s[%d,%d] = %v, want finite and non-negative", f.name, i, j, x)
					}
				}
			}
		}
	}
	if o.Pool == nil {
		o.Pool = parallel.Default()
	}
	return o, nil
}
