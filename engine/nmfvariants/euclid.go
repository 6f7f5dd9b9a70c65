package nmfvariants

import (
	"context"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Fit runs NMF_E (package doc) through engine.Iterate: V then U
// multiplicative updates per iteration, every iteration recorded, with the
// loss and the two regularizer terms after the evaluated ones
// (Stopping.EvalEvery). Cancellation gives Status
// Cancelled with the last complete iterate; a NaN/Inf gives
// NumericalFailure naming the step, with the last finite iterate; a
// non-finite start (data whose scale overflows) is an error.
func (o EOptions) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	set, dt, u, v, err := settings{name: "nmfe", k: o.K, lambda: o.Lambda, stop: o.Stopping, seed: o.Seed, u0: o.U0, v0: o.V0, pool: o.Pool}.start(c)
	if err != nil {
		return nil, engine.Status{}, err
	}
	p, k, m, n := set.pool, set.k, c.Terms(), c.Docs()
	un, vn := mat.NewDense(m, k, nil), mat.NewDense(n, k, nil)
	gu, gv, gn := mat.NewDense(k, k, nil), mat.NewDense(k, k, nil), mat.NewDense(k, k, nil)
	dtu, vg := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	dv, ug := mat.NewDense(m, k, nil), mat.NewDense(m, k, nil)
	dense.Gram(p, gu, u)
	normD2 := sparse.FrobeniusSq(p, c.D)

	// The candidate (un, vn) with gn = unᵀun; (u, v) stay until accepted.
	step := func(context.Context, int) error {
		// V ← V ∘ (DᵀU + ε) ⊘ (V·UᵀU + λV + ε)
		sparse.MulDense(p, dtu, dt, u)
		dense.MulSmall(p, vg, v, gu)
		solve.MultiplicativeStep(p, vn, v, dtu, vg, set.lambda, Eps)
		if err := engine.CheckFinite(p, vn, "V update", "V"); err != nil {
			return err
		}
		// U ← U ∘ (DV + ε) ⊘ (U·VᵀV + λU + ε), with the new V.
		dense.Gram(p, gv, vn)
		sparse.MulDense(p, dv, c.D, vn)
		dense.MulSmall(p, ug, u, gv)
		solve.MultiplicativeStep(p, un, u, dv, ug, set.lambda, Eps)
		if err := engine.CheckFinite(p, un, "U update", "U"); err != nil {
			return err
		}
		dense.Gram(p, gn, un)
		return nil
	}
	objective := func() (float64, []engine.Term) {
		terms := []engine.Term{{Name: TermLoss, Value: sparse.ResidualSqParts(p, normD2, un, dv, gn, gv)},
			{Name: TermRegU, Value: set.lambda * dense.Dot(p, un, un)},
			{Name: TermRegV, Value: set.lambda * dense.Dot(p, vn, vn)}}
		f := 0.0
		for _, x := range terms {
			f += x.Value
		}
		return f, terms
	}
	accept := func() {
		u, un = un, u
		v, vn = vn, v
		gu, gn = gn, gu
	}
	st := engine.Iterate(ctx, set.stop, rec, engine.Steps{Step: step, Objective: objective, Accept: accept,
		Sparsity: func() []engine.Term { return sparsity(p, u, v) }})
	return &EModel{factors: factors{set: set, u: u, v: v}, gu: gu}, st, nil
}

// EModel is a fitted NMF_E model. It implements engine.Model.
type EModel struct {
	factors            // U, V and their accessors
	gu      *mat.Dense // UᵀU
}

// Lambda is λ as used.
func (m *EModel) Lambda() float64 { return m.set.lambda }

// FoldIn solves, for each row x of X (n×M, weighted like D), the V
// subproblem of the fit with U fixed,
//
//	min_{v≥0} ‖x − Uv‖² + λ‖v‖²,
//
// by the fit's V update v ← v ∘ (Uᵀx + ε) ⊘ (UᵀU·v + λv + ε), from every
// entry sqrt(mean(x)/K) (scikit-learn's transform start, per document, as
// engine/nmf does), with the fit's Stopping applied to each document's own
// objective. An empty row gives v = 0. Documents run in parallel blocks.
func (m *EModel) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	mt, k := m.u.Dims()
	if err := engine.CheckFoldIn(ctx, "nmfe", x, mt, nil); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	p := m.set.pool
	b := mat.NewDense(x.Rows, k, nil) // XU
	sparse.MulDense(p, b, x, m.u)
	g := m.gu.RawMatrix()
	return solve.FoldRows(ctx, p, x, k, docBlock, func() solve.RowFolder {
		gv := make([]float64, k)
		return func(j int, v []float64, _ []int32, xv []float64) {
			var sum, sq float64
			for _, w := range xv {
				sum += w
				sq += w * w
			}
			if sum == 0 {
				return
			}
			for a := range v {
				v[a] = math.Sqrt(sum / float64(mt) / float64(k))
			}
			bj := b.RawRowView(j)
			obj := func() float64 {
				s := sq
				for a := range v {
					gva := 0.0
					for c, w := range g.Data[a*g.Stride : a*g.Stride+k] {
						gva += w * v[c]
					}
					gv[a] = gva
					s += v[a]*(gva-2*bj[a]) + m.set.lambda*v[a]*v[a]
				}
				return s
			}
			f := obj() // fills gv = UᵀU·v
			m.set.stop.Loop(ctx, func(int) {
				for a := range v {
					v[a] *= (bj[a] + Eps) / (gv[a] + m.set.lambda*v[a] + Eps)
				}
				f = obj() // and UᵀU·v for the next update
			}, func() float64 { return f })
		}
	})
}
