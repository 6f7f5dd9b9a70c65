package tnmf

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/symmetric"
	"gonum.org/v1/gonum/mat"
)

// Inference says how document topics V are solved once U is learned
// (Section 4.2).
type Inference int

const (
	// InferE is TNMF_E, Eq. 4.6: v = max((UᵀU)⁻¹Uᵀx, 0), the unconstrained
	// least-squares solution of Eq. 3.2 with its negative entries set to 0.
	// The default.
	InferE Inference = iota
	// InferI is TNMF_I: Eq. 3.3, the generalized I-divergence D(x‖Uv),
	// minimized by coordinate-wise Newton steps (Section 4.2).
	InferI
	// InferENNLS solves Eq. 3.2 exactly, min_{v≥0} ‖x − Uv‖², by cyclic
	// coordinate descent started from the Eq. 4.6 solution. Not in the
	// paper (which uses Eq. 4.6 because exact NNLS is slower); offered to
	// measure what the approximation costs.
	InferENNLS
)

var inferenceNames = [...]string{InferE: "e", InferI: "i", InferENNLS: "e-nnls"}

func (f Inference) String() string {
	if f >= 0 && int(f) < len(inferenceNames) {
		return inferenceNames[f]
	}
	return fmt.Sprintf("Inference(%d)", int(f))
}

// ParseInference reads "e" (or ""), "i" or "e-nnls" (case-sensitive; the
// paper's names TNMF_E and TNMF_I are also accepted).
func ParseInference(s string) (Inference, error) {
	switch s {
	case "", "e", "E", "TNMF_E":
		return InferE, nil
	case "i", "I", "TNMF_I":
		return InferI, nil
	case "e-nnls":
		return InferENNLS, nil
	}
	return 0, fmt.Errorf("tnmf: unknown inference %q (want e, i or e-nnls)", s)
}

// Defaults applied where an Options field is zero.
const (
	// DefaultK is the smallest number of topics of the paper's experiments
	// (Table 2 and Figures 5–8 use K = 20 … 100).
	DefaultK = 20
	// DefaultInnerSweeps bounds the sweeps over a document's K coordinates
	// in TNMF_I (Newton) and e-nnls (coordinate descent). The paper says
	// "until convergence".
	DefaultInnerSweeps = 100
	// DefaultInnerTol stops a document's sweeps when one sweep lowers its
	// objective by at most this fraction of the objective.
	DefaultInnerTol = 1e-8
)

// Options configure TNMF (Algorithm 1). The zero value is valid: K = 20,
// per-document co-occurrence counts, S stored by density, the engine's
// default stopping rule for the U iterations, TNMF_E inference, a random U⁽⁰⁾
// from seed 0 and the default pool. Options implements engine.Method.
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed the
	// number of terms M.
	K int
	// Count says how co-occurrences are counted (Section 3.1); the zero
	// value is PerDocument.
	Count CountMode
	// Storage holds S sparse or dense; the zero value picks by density.
	Storage symmetric.Storage
	// Stopping bounds the U iterations of Algorithm 1 (Eq. 4.5) and sets
	// the relative-change test on L(U) = ‖S − UUᵀ‖²_F. The Eq. 4.5 update
	// is not monotone (see the package doc): L may rise between
	// iterations, and the test compares consecutive values.
	Stopping engine.Stopping
	// Inference picks TNMF_E (Eq. 4.6, the default), TNMF_I (Newton on the
	// I-divergence) or the exact NNLS variant of TNMF_E.
	Inference Inference
	// InnerSweeps bounds the per-document sweeps of TNMF_I and e-nnls; 0
	// means DefaultInnerSweeps.
	InnerSweeps int
	// InnerTol stops a document's sweeps when a sweep lowers its objective
	// by at most InnerTol times the objective; 0 means DefaultInnerTol, a
	// negative value runs every sweep.
	InnerTol float64
	// Rescale follows every Eq. 4.5 step by the exact minimization of
	// L(U) over the column scales of U (see the package doc). Not in the
	// paper; off by default.
	Rescale bool
	// Seed seeds U⁽⁰⁾ (engine.NewRand).
	Seed uint64
	// InitU, when not nil, is U⁽⁰⁾ (M×K, non-negative); it is copied, never
	// modified. Nil means entries drawn uniformly from [0, 2·sqrt(s̄/K))
	// with s̄ the mean entry of S, so that E[(U⁽⁰⁾U⁽⁰⁾ᵀ)_ij] = s̄ (the
	// initialization of Kuang, Ding and Park's SymNMF code).
	InitU *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Name is the registry name, "tnmf".
func (o Options) Name() string { return "tnmf" }

type settings struct {
	k         int
	count     CountMode
	storage   symmetric.Storage
	stop      engine.Stopping
	inference Inference
	sweeps    int
	tol       float64
	rescale   bool
	seed      uint64
	initU     *mat.Dense
	pool      *parallel.Pool
}

func (o Options) resolve(m int) (settings, error) {
	s := settings{k: o.K, count: o.Count, storage: o.Storage, stop: o.Stopping, inference: o.Inference,
		sweeps: o.InnerSweeps, tol: o.InnerTol, rescale: o.Rescale, seed: o.Seed, initU: o.InitU, pool: o.Pool}
	if s.k < 0 {
		return s, fmt.Errorf("tnmf: K = %d, want ≥ 1 (0 for the default %d)", s.k, DefaultK)
	}
	if s.k == 0 {
		s.k = DefaultK
	}
	if s.k > m {
		return s, fmt.Errorf("tnmf: K = %d exceeds the %d terms of the corpus", s.k, m)
	}
	if s.count != PerDocument && s.count != Multiplicity {
		return s, fmt.Errorf("tnmf: Count = %d, want PerDocument or Multiplicity", int(s.count))
	}
	if s.storage < symmetric.StorageAuto || s.storage > symmetric.StorageDense {
		return s, fmt.Errorf("tnmf: Storage = %d, want StorageAuto, StorageSparse or StorageDense", int(s.storage))
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("tnmf: Stopping: %w", err)
	}
	if s.inference < 0 || int(s.inference) >= len(inferenceNames) {
		return s, fmt.Errorf("tnmf: Inference = %d, want InferE, InferI or InferENNLS", int(s.inference))
	}
	if s.sweeps < 0 {
		return s, fmt.Errorf("tnmf: InnerSweeps = %d, want ≥ 0 (0 for the default %d)", s.sweeps, DefaultInnerSweeps)
	}
	if s.sweeps == 0 {
		s.sweeps = DefaultInnerSweeps
	}
	if math.IsNaN(s.tol) || math.IsInf(s.tol, 0) {
		return s, fmt.Errorf("tnmf: InnerTol = %v, want a finite number", s.tol)
	}
	if s.tol == 0 {
		s.tol = DefaultInnerTol
	}
	if s.initU != nil {
		r, c := s.initU.Dims()
		if r != m || c != s.k {
			return s, fmt.Errorf("tnmf: InitU is %d×%d, want M×K = %d×%d", r, c, m, s.k)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if x := s.initU.At(i, j); math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
					return s, fmt.Errorf("tnmf: InitU[%d,%d] = %v, want finite and non-negative", i, j, x)
				}
			}
		}
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
