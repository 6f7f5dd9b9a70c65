package nmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"gonum.org/v1/gonum/mat"
)

// Eps is ε of the guarded multiplicative update (doc.go): added to the
// numerator and the denominator of every update factor.
const Eps = 1e-16

// DefaultK is the number of topics when Options.K is 0 (its declared
// default).
const DefaultK = 10

// Initializations accepted in Options.Init.
const (
	InitRandom  = "random"
	InitNNDSVD  = "nndsvd"
	InitNNDSVDA = "nndsvda"
	InitCustom  = "custom"
)

// NNDSVDZero is the threshold below which NNDSVD sets entries to zero, as
// scikit-learn's _initialize_nmf does (its eps = 1e-6).
const NNDSVDZero = 1e-6

// Options configures an NMF fit; Options implements engine.Method. Its
// declared fields are the parameters of the "nmf" catalog family
// (engine/param): Defaults returns 10 topics, the engine's default stopping
// rule, seed 1, random initialization and the default pool. In a literal,
// a zero K, Init or Stopping.MaxIter selects its default, while a zero
// Stopping.RelTol runs every iteration.
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed
	// min(M, N) of the corpus. With Init "custom" and K = 0, K is the
	// number of columns of U0.
	K int `param:"k" default:"10" range:"[1,inf)" doc:"number of topics K (1 ≤ K ≤ min(terms, documents))"`

	// Stopping is the stopping rule: at most MaxIter iterations, stop when
	// the relative decrease of the loss ‖D − UVᵀ‖²_F between evaluations
	// is ≤ RelTol. FoldIn uses the same rule on each document's own loss.
	Stopping engine.Stopping `param:"iters,tol" iters:"maximum iterations (one V update and one U update each)" tol:"relative decrease of ‖D−UVᵀ‖²_F that stops the fit; 0 or negative runs all iterations"`

	// Seed seeds the random initialization and the randomized SVD of
	// NNDSVD (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random initialization and of the randomized SVD of nndsvd"`

	// Init is the initialization of U and V:
	//
	//   - "" or "random": as scikit-learn's NMF(init="random"): every entry
	//     of U and V is |z|·sqrt(mean(D)/K) with z standard normal (the mean
	//     over all M·N entries of D, zeros included), U drawn first, row by
	//     row, then V, from engine.NewRand(Seed).
	//   - "nndsvd": non-negative double SVD (Boutsidis & Gallopoulos 2008,
	//     "SVD based initialization: A head start for nonnegative matrix
	//     factorization", Pattern Recognition 41, Table 1) on the leading K
	//     singular triplets of D from engine/rsvd (randomized, seeded by
	//     Seed; D is never densified); entries below NNDSVDZero are set to
	//     0, as scikit-learn does. Zeros stay zero under multiplicative
	//     updates, which gives sparse factors but can slow the fit.
	//   - "nndsvda": NNDSVD with every zero replaced by mean(D)
	//     (scikit-learn's "nndsvda"), better when sparsity is not wanted.
	//   - "custom": U0 (M×K) and V0 (N×K), copied; they must be finite
	//     and non-negative.
	Init string `param:"init" default:"random" range:"random|nndsvd|nndsvda" doc:"random (|N(0,1)|·sqrt(mean(D)/K), as scikit-learn), nndsvd (Boutsidis & Gallopoulos 2008) or nndsvda (zeros filled with mean(D))"`

	// U0 and V0 are the starting factors for Init "custom" (ignored
	// otherwise): U0 is M×K, V0 is N×K (one row per document).
	U0, V0 *mat.Dense

	// Pool runs the parallel kernels; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Name is the registry name "nmf".
func (o Options) Name() string { return "nmf" }

// resolved returns the options with defaults applied, checked against a
// corpus of m terms and n documents.
func (o Options) resolved(m, n int) (Options, error) {
	if err := o.Stopping.Validate(); err != nil {
		return o, fmt.Errorf("nmf: %w", err)
	}
	switch o.Init {
	case "":
		o.Init = InitRandom
	case InitRandom, InitNNDSVD, InitNNDSVDA, InitCustom:
	default:
		return o, fmt.Errorf("nmf: Init = %q, want random, nndsvd, nndsvda or custom", o.Init)
	}
	if o.K < 0 {
		return o, fmt.Errorf("nmf: K = %d, want ≥ 1 (or 0 for the default %d)", o.K, DefaultK)
	}
	if o.Init == InitCustom {
		if o.U0 == nil || o.V0 == nil || o.U0.IsEmpty() || o.V0.IsEmpty() {
			return o, fmt.Errorf("nmf: Init \"custom\" needs both U0 and V0")
		}
		_, uk := o.U0.Dims()
		if o.K == 0 {
			o.K = uk
		}
	}
	if err := engine.ResolveK("nmf", &o.K, DefaultK, m, n); err != nil {
		return o, err
	}
	if o.Init == InitCustom {
		if err := engine.CheckStart("nmf", "U0", o.U0, m, o.K, "terms × K"); err != nil {
			return o, err
		}
		if err := engine.CheckStart("nmf", "V0", o.V0, n, o.K, "documents × K"); err != nil {
			return o, err
		}
	}
	return o, nil
}
