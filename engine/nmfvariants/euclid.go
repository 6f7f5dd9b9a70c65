package nmfvariants

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
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
	if c == nil || c.D == nil {
		return nil, engine.Status{}, fmt.Errorf("nmfe: nil corpus or term-document matrix")
	}
	set, err := settings{name: "nmfe", k: o.K, lambda: o.Lambda, stop: o.Stopping, seed: o.Seed, u0: o.U0, v0: o.V0, pool: o.Pool}.resolve(c.Terms(), c.Docs())
	if err != nil {
		return nil, engine.Status{}, err
	}
	dt := c.DT
	if dt == nil {
		dt = c.D.T()
	}
	p, k, m, n := set.pool, set.k, c.Terms(), c.Docs()
	u, v := initFactors(c, set)
	if err := checkStart("nmfe", p, u, v); err != nil {
		return nil, engine.Status{}, err
	}
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
		muEuclid(p, vn, v, dtu, vg, set.lambda)
		if err := nonFinite(p, "V update", "V", vn); err != nil {
			return err
		}
		// U ← U ∘ (DV + ε) ⊘ (U·VᵀV + λU + ε), with the new V.
		dense.Gram(p, gv, vn)
		sparse.MulDense(p, dv, c.D, vn)
		dense.MulSmall(p, ug, u, gv)
		muEuclid(p, un, u, dv, ug, set.lambda)
		if err := nonFinite(p, "U update", "U", un); err != nil {
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
	return &EModel{set: set, u: u, v: v, gu: gu}, st, nil
}

// muEuclid sets dst = cur ∘ (num + ε) ⊘ (den + λ·cur + ε) elementwise in
// fixed row blocks.
func muEuclid(p *parallel.Pool, dst, cur, num, den *mat.Dense, lambda float64) {
	r, k := cur.Dims()
	d, c, nu, de := dst.RawMatrix(), cur.RawMatrix(), num.RawMatrix(), den.RawMatrix()
	p.For(r, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := d.Data[i*d.Stride : i*d.Stride+k]
			x := c.Data[i*c.Stride : i*c.Stride+k]
			a := nu.Data[i*nu.Stride : i*nu.Stride+k]
			b := de.Data[i*de.Stride : i*de.Stride+k]
			for j := range out {
				out[j] = x[j] * ((a[j] + Eps) / (b[j] + lambda*x[j] + Eps))
			}
		}
	})
}

// EModel is a fitted NMF_E model. It implements engine.Model.
type EModel struct {
	set  settings
	u, v *mat.Dense
	gu   *mat.Dense // UᵀU
}

// TermTopics is U (M×K), the model's own matrix.
func (m *EModel) TermTopics() *mat.Dense { return m.u }

// DocTopics is V (N×K), the model's own matrix.
func (m *EModel) DocTopics() *mat.Dense { return m.v }

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
	b := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(p, b, x, m.u)
	out := mat.NewDense(x.Rows, k, nil)
	g := m.gu.RawMatrix()
	p.For(x.Rows, docBlock, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		gv := make([]float64, k)
		for j := lo; j < hi; j++ {
			_, xv := x.Row(j)
			var sum, sq float64
			for _, w := range xv {
				sum += w
				sq += w * w
			}
			v := out.RawRowView(j)
			if sum == 0 {
				continue
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
			obj() // fills gv = UᵀU·v
			prev := math.NaN()
			for t := 1; t <= m.set.stop.Iterations(); t++ {
				for a := range v {
					v[a] *= (bj[a] + Eps) / (gv[a] + m.set.lambda*v[a] + Eps)
				}
				f := obj()
				if m.set.stop.Evaluate(t) {
					if m.set.stop.Converged(prev, f) {
						break
					}
					prev = f
				}
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
