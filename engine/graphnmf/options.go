package graphnmf

import (
	"cmp"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"gonum.org/v1/gonum/mat"
)

// MarshalText is the name; it fails for a value that is not a Weighting.
func (w Weighting) MarshalText() ([]byte, error) { return weightings.MarshalText(w) }

// UnmarshalText reads a name as ParseWeighting does.
func (w *Weighting) UnmarshalText(b []byte) error { return param.UnmarshalText(w, b, ParseWeighting) }

// The declared defaults (the tags of Options): Cai et al. (2011),
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

// Options configure graph-regularized NMF; Options implements
// engine.Method. Its declared fields are the parameters of the "graphnmf"
// catalog family (engine/param): Defaults returns K = 20, λ = 100, p = 5
// nearest neighbours by cosine with 0-1 weights, the engine's default
// stopping rule, random start from seed 1, columns of U normalized at the
// end and the default pool. In a literal, a zero K, Neighbors, Sigma or
// Stopping.MaxIter selects its default, while a zero Lambda is no graph
// regularizer and a zero Stopping.RelTol runs every iteration.
type Options struct {
	// K is the number of topics; 0 means DefaultK. At most min(M, N).
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K (1 ≤ K ≤ min(terms, documents))"`
	// Lambda (λ ≥ 0) weighs the graph regularizer Tr(VᵀLV). (The TNMF
	// paper, footnote 6, found the best λ sometimes 0 and then used 0.01.)
	Lambda float64 `param:"lambda" default:"100" range:"[0,inf)" doc:"λ ≥ 0 of the graph regularizer (Cai et al. use 100)"`
	// Neighbors is p of the p-nearest-neighbour graph; 0 means
	// DefaultNeighbors.
	Neighbors int `param:"neighbors" default:"5" range:"[1,inf)" doc:"p of the p-nearest-neighbour graph (by cosine)"`
	// Weighting of the edges; the zero value is Binary.
	Weighting Weighting `param:"weighting" default:"binary" range:"binary|heat|cosine" doc:"edge weights: binary (0-1), heat (exp(−‖x̃i−x̃j‖²/σ)) or cosine"`
	// Sigma is σ > 0 of the Heat weighting; 0 means DefaultSigma.
	Sigma float64 `param:"sigma" default:"1" range:"(0,inf)" doc:"σ of the heat weighting"`
	// Stopping bounds the iterations and sets the relative-change test on
	// the objective; FoldIn applies it to each document's own loss.
	Stopping engine.Stopping `param:"iters,tol" iters:"maximum iterations (a V update and a U update each)"`
	// Seed seeds the random start (see the package doc).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random start (|N(0,1)|·sqrt(mean(D)/K))"`
	// NoNormalize keeps the factors as the last iteration left them;
	// by default the columns of U are scaled to unit Euclidean norm and V
	// by the inverse, as Cai et al.'s code does at the end (UVᵀ unchanged).
	// Its parameter "normalize" is the negation: "true" is NoNormalize =
	// false.
	NoNormalize bool `param:"normalize" default:"true" range:"true|false" doc:"scale the columns of U to unit norm at the end (V by the inverse), as the authors' code"`
	// U0 (M×K) and V0 (N×K), when both set, are the start (copied).
	U0, V0 *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Name is the registry name, "graphnmf".
func (o Options) Name() string { return "graphnmf" }

func (o Options) resolve(m, n int) (Options, error) {
	if err := param.Check(o); err != nil {
		return o, fmt.Errorf("graphnmf: %w", err)
	}
	if err := engine.ResolveK("graphnmf", &o.K, DefaultK, m, n); err != nil {
		return o, err
	}
	o.Sigma = cmp.Or(o.Sigma, DefaultSigma)
	o.Neighbors = cmp.Or(o.Neighbors, DefaultNeighbors)
	if err := o.Stopping.Validate(); err != nil {
		return o, fmt.Errorf("graphnmf: Stopping: %w", err)
	}
	if (o.U0 == nil) != (o.V0 == nil) {
		return o, fmt.Errorf("graphnmf: U0 and V0 must be given together")
	}
	if o.U0 != nil {
		if err := engine.CheckStart("graphnmf", "U0", o.U0, m, o.K, "M×K"); err != nil {
			return o, err
		}
		if err := engine.CheckStart("graphnmf", "V0", o.V0, n, o.K, "N×K"); err != nil {
			return o, err
		}
	}
	if o.Pool == nil {
		o.Pool = parallel.Default()
	}
	return o, nil
}
