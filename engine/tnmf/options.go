package tnmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
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

var inferences = param.Enum[Inference]{Pkg: "tnmf", Type: "Inference", Noun: "inference",
	Names: []string{InferE: "e", InferI: "i", InferENNLS: "e-nnls"}}

func (f Inference) String() string { return inferences.String(f) }

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
	return 0, inferences.Unknown(s)
}

// MarshalText is the short name; it fails for a value that is not an
// Inference.
func (f Inference) MarshalText() ([]byte, error) { return inferences.MarshalText(f) }

// UnmarshalText reads a name as ParseInference does.
func (f *Inference) UnmarshalText(b []byte) error { return param.UnmarshalText(f, b, ParseInference) }

// MarshalText is the name; it fails for a value that is not a CountMode.
func (c CountMode) MarshalText() ([]byte, error) { return countModes.MarshalText(c) }

// UnmarshalText reads a name as ParseCountMode does.
func (c *CountMode) UnmarshalText(b []byte) error { return param.UnmarshalText(c, b, ParseCountMode) }

// The declared defaults (the tags of Options), as constants for code that
// states them.
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

// Options configure TNMF (Algorithm 1); Options implements engine.Method.
// Its declared fields are the parameters of the "tnmf" catalog family
// (engine/param): Defaults returns K = 20, per-document co-occurrence
// counts, S stored by density, the engine's default stopping rule for the
// U iterations, TNMF_E inference, a random U⁽⁰⁾ from seed 1 and the
// default pool. In a literal, a zero K, InnerSweeps or Stopping.MaxIter
// selects its default, while a zero InnerTol or Stopping.RelTol runs every
// sweep or iteration.
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed the
	// number of terms M.
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K (1 ≤ K ≤ terms)"`
	// Count says how co-occurrences are counted (Section 3.1); the zero
	// value is PerDocument.
	Count CountMode `param:"count" default:"document" range:"document|multiplicity" doc:"co-occurrence count: document (once per document containing both terms) or multiplicity (product of the weights)"`
	// Storage holds S sparse or dense; the zero value picks by density.
	Storage symmetric.Storage `param:"storage" default:"auto" range:"auto|sparse|dense" doc:"S storage: auto (dense from density 0.5), sparse or dense"`
	// Stopping bounds the U iterations of Algorithm 1 (Eq. 4.5) and sets
	// the relative-change test on L(U) = ‖S − UUᵀ‖²_F. The Eq. 4.5 update
	// is not monotone (see the package doc): L may rise between
	// iterations, and the test compares consecutive values.
	Stopping engine.Stopping `param:"iters,tol" iters:"maximum U iterations of Algorithm 1 (Eq. 4.5)" tol:"relative change of ‖S−UUᵀ‖²_F (not monotone: usually runs all iterations) that stops the fit; 0 or negative runs all iterations"`
	// Inference picks TNMF_E (Eq. 4.6, the default), TNMF_I (Newton on the
	// I-divergence) or the exact NNLS variant of TNMF_E.
	Inference Inference `param:"inference" default:"e" range:"e|i|e-nnls" doc:"document topics: e (TNMF_E, Eq. 4.6), i (TNMF_I, Newton on the I-divergence) or e-nnls (exact NNLS, not in the paper)"`
	// InnerSweeps bounds the per-document sweeps of TNMF_I and e-nnls; 0
	// means DefaultInnerSweeps.
	InnerSweeps int `param:"inner-sweeps" default:"100" range:"[1,inf)" doc:"maximum sweeps per document of the Newton (i) or NNLS (e-nnls) inference"`
	// InnerTol stops a document's sweeps when a sweep lowers its objective
	// by at most InnerTol times the objective; 0 or a negative value runs
	// every sweep.
	InnerTol float64 `param:"inner-tol" default:"1e-8" doc:"a document's sweeps stop when one lowers its objective by at most inner-tol times it; 0 or negative runs all sweeps"`
	// Rescale follows every Eq. 4.5 step by the exact minimization of
	// L(U) over the column scales of U (see the package doc). Not in the
	// paper; off by default.
	Rescale bool `param:"rescale" default:"false" doc:"true: after every Eq. 4.5 step, the column scales of U minimizing ‖S−UUᵀ‖ (not in the paper; removes the scale 2-cycle)"`
	// Seed seeds U⁽⁰⁾ (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random U⁽⁰⁾"`
	// InitU, when not nil, is U⁽⁰⁾ (M×K, non-negative); it is copied, never
	// modified. Nil means entries drawn uniformly from [0, 2·sqrt(s̄/K))
	// with s̄ the mean entry of S, so that E[(U⁽⁰⁾U⁽⁰⁾ᵀ)_ij] = s̄ (the
	// initialization of Kuang, Ding and Park's SymNMF code).
	InitU *mat.Dense
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

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
	if err := param.Check(o); err != nil {
		return s, fmt.Errorf("tnmf: %w", err)
	}
	if s.k == 0 {
		s.k = DefaultK
	}
	if s.k > m {
		return s, fmt.Errorf("tnmf: K = %d exceeds the %d terms of the corpus", s.k, m)
	}
	// U (M×K) and its next iterate, before anything is allocated.
	if err := engine.CheckNeed(fmt.Sprintf("tnmf: K = %d topics of %d terms need", s.k, m), 16*float64(m)*float64(s.k), " for U"); err != nil {
		return s, err
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("tnmf: Stopping: %w", err)
	}
	if s.sweeps == 0 {
		s.sweeps = DefaultInnerSweeps
	}
	if s.tol <= 0 {
		s.tol = -1 // the inference kernels read a negative tolerance as "every sweep"
	}
	if s.initU != nil {
		if err := engine.CheckStart("tnmf", "InitU", s.initU, m, s.k, "M×K"); err != nil {
			return s, err
		}
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
