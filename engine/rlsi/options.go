package rlsi

import (
	"fmt"
	"math"
	"strings"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"gonum.org/v1/gonum/mat"
)

// Variant says which norm regularizes U and which regularizes V (RLSI
// Section 6.2). λ1 always weighs the U term and λ2 the V term; "ℓ2" is the
// squared ℓ2 norm as in Eq. 1.
type Variant int

const (
	// U1V2 is RLSI (Uℓ1-Vℓ2), Eq. 1: λ1 Σ|u_mk| + λ2 Σ v_kn². The default.
	U1V2 Variant = iota
	// U2V1 is RLSI (Uℓ2-Vℓ1): λ1 Σ u_mk² + λ2 Σ |v_kn|.
	U2V1
	// U1V1 is RLSI (Uℓ1-Vℓ1): λ1 Σ|u_mk| + λ2 Σ |v_kn|.
	U1V1
	// U2V2 is RLSI (Uℓ2-Vℓ2): λ1 Σ u_mk² + λ2 Σ v_kn².
	U2V2
)

var variants = param.Enum[Variant]{Pkg: "rlsi", Type: "Variant", Noun: "variant",
	Names: []string{U1V2: "u1v2", U2V1: "u2v1", U1V1: "u1v1", U2V2: "u2v2"}}

// String is the variant's short name: "u1v2", "u2v1", "u1v1" or "u2v2".
func (v Variant) String() string { return variants.String(v) }

// ParseVariant reads a short name ("u1v2", "u2v1", "u1v1", "u2v2"; case and
// the separators '-', '_' and the letter 'l' of "Ul1-Vl2" are ignored).
func ParseVariant(s string) (Variant, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.NewReplacer("-", "", "_", "", "ℓ", "", "l", "").Replace(t)
	if v, ok := variants.Lookup(t); ok {
		return v, nil
	}
	return 0, variants.Unknown(s)
}

// MarshalText is the short name; it fails for a value that is not a
// Variant.
func (v Variant) MarshalText() ([]byte, error) { return variants.MarshalText(v) }

// UnmarshalText reads a name as ParseVariant does.
func (v *Variant) UnmarshalText(b []byte) error { return param.UnmarshalText(v, b, ParseVariant) }

// l1U reports whether U carries the ℓ1 regularizer.
func (v Variant) l1U() bool { return v == U1V2 || v == U1V1 }

// l1V reports whether V carries the ℓ1 regularizer.
func (v Variant) l1V() bool { return v == U2V1 || v == U1V1 }

// The declared defaults (the tags of Options), as constants for code that
// states them.
const (
	// DefaultK is the number of topics of the paper's topic tables (RLSI
	// Sections 6.2 and 6.3 use K = 20).
	DefaultK = 20
	// DefaultLambda1 and DefaultLambda2 are the values the paper found best
	// on AP/WSJ/OHSUMED and used on the web data (Sections 6.3 and 6.4:
	// λ1 = 0.5, λ2 = 1.0).
	DefaultLambda1 = 0.5
	DefaultLambda2 = 1.0
	// DefaultInnerSweeps bounds the coordinate-descent sweeps per row of one
	// lasso update (the paper iterates "until convergence").
	DefaultInnerSweeps = 100
	// DefaultInnerTol ends a row's sweeps once the largest change in a sweep
	// is at most this fraction of the row's largest magnitude.
	DefaultInnerTol = 1e-5
)

// Options configure RLSI; Options implements engine.Method. Its declared
// fields are the parameters of the "rlsi" catalog family (engine/param):
// Defaults returns RLSI (Uℓ1-Vℓ2) with K = 20, λ1 = 0.5, λ2 = 1.0, the
// engine's default stopping rule, a random normal V⁽⁰⁾ from seed 1 and the
// default pool. In a literal, a zero K, InnerSweeps or Stopping.MaxIter
// selects its default, while a zero λ, InnerTol or Stopping.RelTol means 0.
// The front ends (topicmf fit, the notebook API) use the paper's settings
// but λ read relative to the data's scale, λ1 = 0.05 and V⁽⁰⁾ drawn at that
// scale, which engine/catalog declares with its reason (FrontEnd).
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed
	// min(M, N) of the corpus.
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K"`
	// Lambda1 (λ1 ≥ 0) weighs the regularizer on U.
	Lambda1 float64 `param:"lambda1" default:"0.5" range:"[0,inf)" doc:"λ1 ≥ 0, weight of the regularizer on U"`
	// Lambda2 (λ2 ≥ 0) weighs the regularizer on V.
	Lambda2 float64 `param:"lambda2" default:"1" range:"[0,inf)" doc:"λ2 ≥ 0, weight of the regularizer on V"`
	// Variant picks the norms; the zero value is U1V2 (Eq. 1).
	Variant Variant `param:"variant" default:"u1v2" range:"u1v2|u2v1|u1v1|u2v2" doc:"norms on U and V: u1v2 (Eq. 1), u2v1, u1v1 or u2v2 (ℓ2 = squared)"`
	// RelativeLambda, when true, reads Lambda1 and Lambda2 as stated for
	// documents of unit root-mean-square Euclidean length: Fit multiplies a
	// λ that weighs an ℓ1 term by ŝ^{3/2} and one that weighs a squared ℓ2
	// term by ŝ, with ŝ = ‖D‖_F/√N (DataScale). For Eq. 1 (U1V2) that is
	// λ1·ŝ^{3/2} and λ2·ŝ. False (the default) uses them as given, the
	// paper's literal Eq. 1 and Algorithm 1.
	//
	// Relative λs give the same topics (U scaled by √ŝ, the same zeros)
	// whatever the documents' overall scale, raw tf-idf or unit-length, and
	// keep λ1²λ2/ŝ⁴ fixed for U1V2; see the package doc, "Scale of V⁽⁰⁾ and
	// of λ".
	RelativeLambda bool `param:"lambda-scale" default:"absolute" range:"absolute|relative" doc:"absolute: λ1, λ2 as given (Eq. 1); relative: λ stated for documents of unit RMS length, ℓ1 weights × ŝ^{3/2} and squared-ℓ2 weights × ŝ, ŝ = ‖D‖_F/√N"`
	// BalancedInit, when true and InitV is nil, draws V⁽⁰⁾ with N(0, σ²)
	// entries, σ = √(ŝ/N) with ŝ = ‖D‖_F/√N (DataScale), instead of
	// N(0, 1). Algorithm 1 line 1 says only "random matrix"; this scale makes
	// the first, unregularized least-squares U = DV⁽⁰⁾ᵀ(V⁽⁰⁾V⁽⁰⁾ᵀ)⁻¹ and V⁽⁰⁾
	// equally large in expectation (E‖DGᵀ‖²_F = K‖D‖²_F for G with N(0, 1)
	// entries, so ‖U‖²_F ≈ K‖D‖²_F/(N²σ²) = ‖V⁽⁰⁾‖²_F = NKσ² at σ⁴ = ŝ²/N²),
	// the balanced split of the (cU, V/c) symmetry, and it follows the data:
	// D → αD gives σ → √α σ, so with RelativeLambda the fits of D and αD
	// are the same up to (√α U, √α V). The draws are the same as for
	// N(0, 1), multiplied by σ. False (the default) keeps N(0, 1), whose
	// scale ignores the data (see the package doc for what that does to the
	// ℓ1-on-V variants on unit-length documents).
	BalancedInit bool `param:"init-scale" default:"unit" range:"unit|balanced" doc:"unit: V⁽⁰⁾ entries N(0,1); balanced: N(0,σ²) with σ = √(ŝ/N), ŝ = ‖D‖_F/√N"`
	// Stopping bounds the outer iterations of Algorithm 1 and sets the
	// relative-change test on the objective (evaluated every iteration; the
	// test is applied at the iterations Stopping.Evaluate selects).
	Stopping engine.Stopping `param:"iters,tol" iters:"maximum outer iterations (Algorithm 1)"`
	// InnerSweeps is the largest number of coordinate-descent sweeps per
	// row in an ℓ1 update; 0 means DefaultInnerSweeps.
	InnerSweeps int `param:"inner-sweeps" default:"100" range:"[1,inf)" doc:"maximum coordinate-descent sweeps per row of an ℓ1 update"`
	// InnerTol stops a row's sweeps when a sweep has
	// max_k |Δx_k| ≤ InnerTol·max_k |x_k|; 0 or a negative value disables
	// the test so every row runs exactly InnerSweeps sweeps.
	InnerTol float64 `param:"inner-tol" default:"1e-5" doc:"a row's sweeps stop when its largest change ≤ inner-tol × its largest magnitude; 0 or negative runs all sweeps"`
	// ColdStart restarts every row of an ℓ1 update from zero, as Algorithm 2
	// line 4 literally says, instead of from the previous iterate.
	ColdStart bool
	// Seed seeds V⁽⁰⁾ (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random V⁽⁰⁾ (N(0,1) entries)"`
	// InitV, when not nil, is V⁽⁰⁾ stored transposed (N×K, row n = v_n);
	// it is copied, never modified. Nil means random N(0, 1) entries.
	InitV *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Name is the registry name, "rlsi".
func (o Options) Name() string { return "rlsi" }

// settings are the options with defaults applied.
type settings struct {
	k           int
	lambda1     float64
	lambda2     float64
	variant     Variant
	stop        engine.Stopping
	innerSweeps int
	innerTol    float64
	coldStart   bool
	seed        uint64
	initV       *mat.Dense
	pool        *parallel.Pool
}

// resolve validates o against an M×N corpus and applies the defaults.
func (o Options) resolve(m, n int) (settings, error) {
	s := settings{k: o.K, lambda1: o.Lambda1, lambda2: o.Lambda2, variant: o.Variant,
		stop: o.Stopping, innerSweeps: o.InnerSweeps, innerTol: o.InnerTol,
		coldStart: o.ColdStart, seed: o.Seed, initV: o.InitV, pool: o.Pool}
	if err := param.Check(o); err != nil {
		return s, fmt.Errorf("rlsi: %w", err)
	}
	if err := engine.ResolveK("rlsi", &s.k, DefaultK, m, n); err != nil {
		return s, err
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("rlsi: Stopping: %w", err)
	}
	if s.innerSweeps == 0 {
		s.innerSweeps = DefaultInnerSweeps
	}
	if s.innerTol <= 0 {
		s.innerTol = -1 // the lasso kernel reads a negative tolerance as "every sweep"
	}
	if s.initV != nil {
		r, c := s.initV.Dims()
		if r != n || c != s.k {
			return s, fmt.Errorf("rlsi: InitV is %d×%d, want N×K = %d×%d", r, c, n, s.k)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if x := s.initV.At(i, j); math.IsNaN(x) || math.IsInf(x, 0) {
					return s, fmt.Errorf("rlsi: InitV[%d,%d] = %v, want finite", i, j, x)
				}
			}
		}
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
