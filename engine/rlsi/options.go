package rlsi

import (
	"fmt"
	"math"
	"strings"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
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

var variantNames = [...]string{U1V2: "u1v2", U2V1: "u2v1", U1V1: "u1v1", U2V2: "u2v2"}

// String is the variant's short name: "u1v2", "u2v1", "u1v1" or "u2v2".
func (v Variant) String() string {
	if v >= 0 && int(v) < len(variantNames) {
		return variantNames[v]
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// ParseVariant reads a short name ("u1v2", "u2v1", "u1v1", "u2v2"; case and
// the separators '-', '_' and the letter 'l' of "Ul1-Vl2" are ignored).
func ParseVariant(s string) (Variant, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.NewReplacer("-", "", "_", "", "ℓ", "", "l", "").Replace(t)
	for v, name := range variantNames {
		if t == name {
			return Variant(v), nil
		}
	}
	return 0, fmt.Errorf("rlsi: unknown variant %q (want u1v2, u2v1, u1v1 or u2v2)", s)
}

// l1U reports whether U carries the ℓ1 regularizer.
func (v Variant) l1U() bool { return v == U1V2 || v == U1V1 }

// l1V reports whether V carries the ℓ1 regularizer.
func (v Variant) l1V() bool { return v == U2V1 || v == U1V1 }

// Defaults applied where an Options field is zero.
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

// Options configure RLSI. The zero value is valid: RLSI (Uℓ1-Vℓ2) with
// K = 20, λ1 = 0.5, λ2 = 1.0, the engine's default stopping rule, a random
// normal V⁽⁰⁾ from seed 0 and the default pool. Options implements
// engine.Method.
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed
	// min(M, N) of the corpus.
	K int
	// Lambda1 (λ1 ≥ 0) weighs the regularizer on U; 0 means DefaultLambda1.
	// For an effectively unregularized U pass a tiny positive value.
	Lambda1 float64
	// Lambda2 (λ2 ≥ 0) weighs the regularizer on V; 0 means DefaultLambda2.
	Lambda2 float64
	// Variant picks the norms; the zero value is U1V2 (Eq. 1).
	Variant Variant
	// RelativeLambda, when true, reads Lambda1 and Lambda2 as stated for
	// documents of unit root-mean-square Euclidean length: Fit multiplies a
	// λ that weighs an ℓ1 term by ŝ^{3/2} and one that weighs a squared ℓ2
	// term by ŝ, with ŝ = ‖D‖_F/√N (DataScale). For Eq. 1 (U1V2) that is
	// λ1·ŝ^{3/2} and λ2·ŝ. False (the default) uses them as given, the
	// paper's literal Eq. 1 and Algorithm 1.
	//
	// Why: D → αD with (U, V) → (√α U, √α V) multiplies the loss by α², an
	// ℓ1 term by √α and a squared ℓ2 term by α; scaling the λs by α^{3/2}
	// and α makes the whole objective α² times the original, so relative
	// λs give the same topics (U scaled by √ŝ, same zeros) whatever the
	// documents' overall scale — raw tf-idf or unit-length — while
	// absolute λs mean very different amounts of regularization (on MED,
	// ŝ ≈ 51 for raw tf-idf and 1 for unit-length documents). With ℓ1 on U
	// and squared ℓ2 on V, (U, V) → (cU, V/c) leaves the loss unchanged and
	// maps (λ1, λ2) to (cλ1, λ2/c²), so only λ1²λ2 decides the sparsity;
	// relative λs keep λ1²λ2/ŝ⁴ fixed.
	RelativeLambda bool
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
	BalancedInit bool
	// Stopping bounds the outer iterations of Algorithm 1 and sets the
	// relative-change test on the objective (evaluated every iteration; the
	// test is applied at the iterations Stopping.Evaluate selects).
	Stopping engine.Stopping
	// InnerSweeps is the largest number of coordinate-descent sweeps per
	// row in an ℓ1 update; 0 means DefaultInnerSweeps.
	InnerSweeps int
	// InnerTol stops a row's sweeps when a sweep has
	// max_k |Δx_k| ≤ InnerTol·max_k |x_k|;
	// 0 means DefaultInnerTol; a negative value disables the test so every
	// row runs exactly InnerSweeps sweeps.
	InnerTol float64
	// ColdStart restarts every row of an ℓ1 update from zero, as Algorithm 2
	// line 4 literally says, instead of from the previous iterate.
	ColdStart bool
	// Seed seeds V⁽⁰⁾ (engine.NewRand).
	Seed uint64
	// InitV, when not nil, is V⁽⁰⁾ stored transposed (N×K, row n = v_n);
	// it is copied, never modified. Nil means random N(0, 1) entries.
	InitV *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

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
	if s.k < 0 {
		return s, fmt.Errorf("rlsi: K = %d, want ≥ 1 (0 for the default %d)", s.k, DefaultK)
	}
	if s.k == 0 {
		s.k = DefaultK
	}
	if s.k > min(m, n) {
		return s, fmt.Errorf("rlsi: K = %d exceeds min(M, N) = min(%d terms, %d documents) = %d", s.k, m, n, min(m, n))
	}
	for _, p := range []struct {
		name string
		v    *float64
		def  float64
	}{{"Lambda1", &s.lambda1, DefaultLambda1}, {"Lambda2", &s.lambda2, DefaultLambda2}} {
		if math.IsNaN(*p.v) || math.IsInf(*p.v, 0) || *p.v < 0 {
			return s, fmt.Errorf("rlsi: %s = %v, want a finite number ≥ 0", p.name, *p.v)
		}
		if *p.v == 0 {
			*p.v = p.def
		}
	}
	if s.variant < 0 || int(s.variant) >= len(variantNames) {
		return s, fmt.Errorf("rlsi: Variant = %d, want U1V2, U2V1, U1V1 or U2V2", int(s.variant))
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("rlsi: Stopping: %w", err)
	}
	if s.innerSweeps < 0 {
		return s, fmt.Errorf("rlsi: InnerSweeps = %d, want ≥ 0", s.innerSweeps)
	}
	if s.innerSweeps == 0 {
		s.innerSweeps = DefaultInnerSweeps
	}
	if math.IsNaN(s.innerTol) || math.IsInf(s.innerTol, 0) {
		return s, fmt.Errorf("rlsi: InnerTol = %v, want a finite number", s.innerTol)
	}
	if s.innerTol == 0 {
		s.innerTol = DefaultInnerTol
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
