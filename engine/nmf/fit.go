package nmf

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Fit factorizes c.D by Lee & Seung's multiplicative updates (doc.go). It
// returns an error only for invalid options or corpus; a fit that stops on
// a NaN/Inf returns the last complete iterate with Status NumericalFailure
// naming the step, a cancelled one the last complete iterate with Status
// Cancelled.
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, o, err := engine.Prepare(c, "nmf", o.resolved)
	if err == nil {
		err = c.CheckNonNegative("nmf")
	}
	if err != nil {
		return nil, engine.Status{}, err
	}
	// The initialization runs to completion even when ctx is cancelled (it
	// is bounded: one randomized SVD at most), so a cancelled fit always
	// returns the last complete iterate, at worst the initial factors.
	u, v, err := initFactors(c.D, dt, o)
	if err != nil {
		return nil, engine.Status{}, fmt.Errorf("nmf: initialization %q: %w", o.Init, err)
	}
	if err := solve.FiniteStart(o.Pool, []string{"U", "V"}, u, v); err != nil {
		return nil, engine.Status{}, fmt.Errorf("nmf: initialization %q: %w", o.Init, err)
	}
	s := newSolver(o, c.D, dt, u, v)
	st := s.run(ctx, rec)
	return &Model{u: s.u, v: s.v, opts: o}, st, nil
}

// run iterates through the engine's driver until the stopping rule, a
// cancellation or a failure.
func (s *solver) run(ctx context.Context, rec *engine.Recorder) engine.Status {
	return engine.Iterate(ctx, s.o.Stopping, rec, engine.Steps{
		Step:      s.step,
		Objective: s.objective,
		Accept:    s.accept,
		Sparsity:  s.sparsity,
	})
}

// solver holds the factors and the scratch matrices of one fit.
type solver struct {
	o      Options
	p      *parallel.Pool
	d, dt  *sparse.CSR
	normD2 float64

	u, v       *mat.Dense // current factors, M×K and N×K
	gu, gv     *mat.Dense // UᵀU and VᵀV (K×K) of the latest factors
	numU, denU *mat.Dense // M×K scratch: D·V, then U(VᵀV) overwritten by the candidate U
	numV, denV *mat.Dense // N×K scratch: Dᵀ·U, then V(UᵀU) overwritten by the candidate V
}

func newSolver(o Options, d, dt *sparse.CSR, u, v *mat.Dense) *solver {
	m, n, k := d.Rows, d.Cols, o.K
	s := &solver{o: o, p: o.Pool, d: d, dt: dt, u: u, v: v,
		gu: mat.NewDense(k, k, nil), gv: mat.NewDense(k, k, nil),
		numU: mat.NewDense(m, k, nil), denU: mat.NewDense(m, k, nil),
		numV: mat.NewDense(n, k, nil), denV: mat.NewDense(n, k, nil)}
	s.normD2 = sparse.FrobeniusSq(s.p, d)
	dense.Gram(s.p, s.gu, s.u)
	return s
}

// step computes the candidate (U, V) of one iteration into (denU, denV),
// leaving the current factors untouched:
//
//	V ← V ∘ (DᵀU + ε) ⊘ (V(UᵀU) + ε), then U ← U ∘ (DV + ε) ⊘ (U(VᵀV) + ε)
//
// with the new V in the U update, and UᵀU, VᵀV of the candidate for the
// loss and for the next iteration.
func (s *solver) step(_ context.Context, _ int) error {
	sparse.MulDense(s.p, s.numV, s.dt, s.u)
	dense.MulSmall(s.p, s.denV, s.v, s.gu)
	if r, c, bad := muStep(s.p, s.denV, s.v, s.numV); bad {
		return engine.NonFinite("V update", "entry (document %d, topic %d) is not finite", r, c)
	}
	dense.Gram(s.p, s.gv, s.denV)

	sparse.MulDense(s.p, s.numU, s.d, s.denV)
	dense.MulSmall(s.p, s.denU, s.u, s.gv)
	if r, c, bad := muStep(s.p, s.denU, s.u, s.numU); bad {
		return engine.NonFinite("U update", "entry (term %d, topic %d) is not finite", r, c)
	}
	dense.Gram(s.p, s.gu, s.denU) // for the loss and for the next V update
	return nil
}

// objective is the loss at the candidate: ‖D − UVᵀ‖² = ‖D‖² − 2⟨U, DV⟩ +
// ⟨UᵀU, VᵀV⟩ from the products the step computed.
func (s *solver) objective() (float64, []engine.Term) {
	f := sparse.ResidualSqParts(s.p, s.normD2, s.denU, s.numU, s.gu, s.gv)
	return f, []engine.Term{{Name: "loss", Value: f}}
}

// accept makes the candidate current (the previous factors become scratch).
func (s *solver) accept() {
	s.u, s.denU = s.denU, s.u
	s.v, s.denV = s.denV, s.v
}

func (s *solver) sparsity() []engine.Term {
	return []engine.Term{
		{Name: "U", Value: dense.ZeroFraction(s.p, s.u)},
		{Name: "V", Value: dense.ZeroFraction(s.p, s.v)},
	}
}

// muStep overwrites den with the multiplicative update x ∘ (num + ε) ⊘
// (den + ε), in parallel over fixed row blocks, and reports the first
// non-finite new entry (row-major). x, num and den are contiguous
// matrices of the same shape made by the solver.
func muStep(p *parallel.Pool, den, x, num *mat.Dense) (row, col int, bad bool) {
	n, k := x.Dims()
	xd, nd, dd := x.RawMatrix().Data, num.RawMatrix().Data, den.RawMatrix().Data
	first := make([]int, parallel.Blocks(n, dense.RowBlock))
	p.For(n, dense.RowBlock, func(b, lo, hi int) {
		first[b] = -1
		xs, ns, ds := xd[lo*k:hi*k], nd[lo*k:hi*k], dd[lo*k:hi*k]
		ns, ds = ns[:len(xs)], ds[:len(xs)]
		for i, xi := range xs {
			y := xi * (ns[i] + Eps) / (ds[i] + Eps)
			ds[i] = y
			if first[b] < 0 && (math.IsNaN(y) || math.IsInf(y, 0)) {
				first[b] = lo*k + i
			}
		}
	})
	for _, f := range first {
		if f >= 0 {
			return f / k, f % k, true
		}
	}
	return 0, 0, false
}
