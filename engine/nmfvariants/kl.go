package nmfvariants

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

// Fit runs NMF_I (package doc) through engine.Iterate: the Lee–Seung
// I-divergence updates, V then U, every iteration recorded, with the
// divergence after the evaluated ones (Stopping.EvalEvery). Cancellation gives Status Cancelled with the last
// complete iterate; a NaN/Inf or a zero (UVᵀ)_mn where D_mn > 0 gives
// NumericalFailure naming the step, with the last finite iterate; a
// non-finite start (data whose scale overflows) is an error.
func (o IOptions) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	set, dt, u, v, err := settings{name: "nmfi", k: o.K, stop: o.Stopping, seed: o.Seed, u0: o.U0, v0: o.V0, pool: o.Pool}.start(c)
	if err != nil {
		return nil, engine.Status{}, err
	}
	p, k, m, n := set.pool, set.k, c.Terms(), c.Docs()
	un, vn := mat.NewDense(m, k, nil), mat.NewDense(n, k, nil)
	numV, numU := mat.NewDense(n, k, nil), mat.NewDense(m, k, nil)
	r := &sparse.CSR{Rows: c.D.Rows, Cols: c.D.Cols, RowPtr: c.D.RowPtr, ColIdx: c.D.ColIdx, Val: make([]float64, c.D.NNZ())}
	rt := &sparse.CSR{Rows: dt.Rows, Cols: dt.Cols, RowPtr: dt.RowPtr, ColIdx: dt.ColIdx, Val: make([]float64, dt.NNZ())}
	rtNext := &sparse.CSR{Rows: dt.Rows, Cols: dt.Cols, RowPtr: dt.RowPtr, ColIdx: dt.ColIdx, Val: make([]float64, dt.NNZ())}
	if _, ok := ratio(p, dt, v, u, rt.Val); !ok {
		return nil, engine.Status{}, fmt.Errorf("nmfi: the start has (UVᵀ)_mn = 0 where D_mn > 0")
	}

	// The candidate (un, vn) with D/(unvnᵀ) in rtNext, the data part of its
	// divergence and Σ_n vn_nk; (u, v, rt) stay until accepted.
	var part float64
	var sv []float64
	step := func(context.Context, int) error {
		// V_nk ← V_nk · Σ_m U_mk D_mn/(UVᵀ)_mn / Σ_m U_mk
		sparse.MulDense(p, numV, rt, u)
		muKL(p, vn, v, numV, colSums(p, u))
		if err := engine.CheckFinite(p, vn, "V update", "V"); err != nil {
			return err
		}
		// U_mk ← U_mk · Σ_n V_nk D_mn/(UVᵀ)_mn / Σ_n V_nk, with the new V.
		if _, ok := ratio(p, c.D, u, vn, r.Val); !ok {
			return engine.NonFinite("U update", "(UVᵀ)_mn = 0 where D_mn > 0 (the divergence is +Inf)")
		}
		sparse.MulDense(p, numU, r, vn)
		sv = colSums(p, vn)
		muKL(p, un, u, numU, sv)
		if err := engine.CheckFinite(p, un, "U update", "U"); err != nil {
			return err
		}
		// D/(UVᵀ) at the candidate, for the divergence and the next V update.
		var ok bool
		if part, ok = ratio(p, dt, vn, un, rtNext.Val); !ok {
			return engine.NonFinite("divergence", "(UVᵀ)_mn = 0 where D_mn > 0 (the divergence is +Inf)")
		}
		return nil
	}
	objective := func() (float64, []engine.Term) {
		su := colSums(p, un)
		var total dense.Sum
		total.Add(part)
		for a := range su {
			total.Add(su[a] * sv[a])
		}
		div := total.Value()
		return div, []engine.Term{{Name: TermDivergence, Value: div}}
	}
	accept := func() {
		u, un = un, u
		v, vn = vn, v
		rt, rtNext = rtNext, rt
	}
	st := engine.Iterate(ctx, set.stop, rec, engine.Steps{Step: step, Objective: objective, Accept: accept,
		Sparsity: func() []engine.Term { return sparsity(p, u, v) }})
	return &IModel{factors: factors{set: set, u: u, v: v}, colSum: colSums(p, u)}, st, nil
}

// ratio sets out[q] = a_q / ⟨left_i, right_j⟩ for every stored entry a_q =
// A[i,j] of A and returns Σ_q (a_q·log(a_q/y_q) − a_q), y_q = ⟨left_i,
// right_j⟩ (the data part of the I-divergence; compensated in fixed blocks),
// and ok = false when some y_q ≤ 0 with a_q > 0. Zero stored values give
// out = 0 and add nothing.
func ratio(p *parallel.Pool, a *sparse.CSR, left, right *mat.Dense, out []float64) (float64, bool) {
	_, k := left.Dims()
	lr, rr := left.RawMatrix(), right.RawMatrix()
	nb := parallel.Blocks(a.Rows, sparse.RowBlock)
	part := make([]dense.Sum, nb)
	bad := make([]bool, nb)
	p.For(a.Rows, sparse.RowBlock, func(b, lo, hi int) {
		var s dense.Sum
		for i := lo; i < hi; i++ {
			li := lr.Data[i*lr.Stride : i*lr.Stride+k]
			for q := a.RowPtr[i]; q < a.RowPtr[i+1]; q++ {
				x := a.Val[q]
				if x == 0 {
					out[q] = 0
					continue
				}
				j := int(a.ColIdx[q])
				rj := rr.Data[j*rr.Stride : j*rr.Stride+k]
				rj = rj[:len(li)]
				y := 0.0
				for c, w := range li {
					y += w * rj[c]
				}
				if !(y > 0) {
					bad[b] = true
					out[q] = 0
					continue
				}
				out[q] = x / y
				s.Add(x*math.Log(x/y) - x)
			}
		}
		part[b] = s
	})
	var tot dense.Sum
	for b, s := range part {
		if bad[b] {
			return math.Inf(1), false
		}
		tot.AddSum(s)
	}
	return tot.Value(), true
}

// muKL sets dst = cur ∘ num ⊘ sums (sums per column); a column whose sum is
// 0 (a vanished factor column, whose numerator is then 0 too) gives 0.
func muKL(p *parallel.Pool, dst, cur, num *mat.Dense, sums []float64) {
	r, k := cur.Dims()
	d, c, nu := dst.RawMatrix(), cur.RawMatrix(), num.RawMatrix()
	p.For(r, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := d.Data[i*d.Stride : i*d.Stride+k]
			x := c.Data[i*c.Stride : i*c.Stride+k]
			a := nu.Data[i*nu.Stride : i*nu.Stride+k]
			for j := range out {
				if sums[j] > 0 {
					out[j] = x[j] * (a[j] / sums[j])
				} else {
					out[j] = 0
				}
			}
		}
	})
}

// IModel is a fitted NMF_I model. It implements engine.Model.
type IModel struct {
	factors           // U, V and their accessors
	colSum  []float64 // Σ_m U_mk
}

// FoldIn solves, for each row x of X (n×M), the V subproblem of the fit
// with U fixed, min_{v≥0} D(x ‖ Uv), by the fit's V update
// v_k ← v_k · Σ_i u_ik x_i/(Uv)_i / Σ_i u_ik, from the constant v with
// Σ_i (Uv)_i = Σ_i x_i, with the fit's Stopping applied to each document's
// own divergence. Terms whose row of U is zero are left out (they make the
// divergence +∞ for every v); an empty row gives v = 0. Documents run in
// parallel blocks.
func (m *IModel) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	mt, k := m.u.Dims()
	if err := engine.CheckFoldIn(ctx, "nmfi", x, mt, nil); err != nil {
		return nil, err
	}
	ur := m.u.RawMatrix()
	mass := 0.0
	for _, s := range m.colSum {
		mass += s
	}
	return solve.FoldRows(ctx, m.set.pool, x, k, docBlock, func() solve.RowFolder {
		var xs, rows, y []float64
		num := make([]float64, k)
		return func(_ int, v []float64, idx []int32, xv []float64) {
			xs, rows = xs[:0], rows[:0]
			total := 0.0
			for q, i := range idx {
				row := ur.Data[int(i)*ur.Stride : int(i)*ur.Stride+k]
				if xv[q] == 0 || allZero(row) {
					continue
				}
				xs = append(xs, xv[q])
				rows = append(rows, row...)
				total += xv[q]
			}
			if len(xs) == 0 || mass <= 0 {
				return
			}
			for a := range v {
				v[a] = total / mass
			}
			y = append(y[:0], make([]float64, len(xs))...)
			div := func() float64 {
				s := 0.0
				for l, xl := range xs {
					yl := 0.0
					for a, w := range rows[l*k : l*k+k] {
						yl += w * v[a]
					}
					y[l] = yl
					s += xl*math.Log(xl/yl) - xl
				}
				for a, c := range m.colSum {
					s += c * v[a]
				}
				return s
			}
			f := div() // fills y = Uv
			m.set.stop.Loop(ctx, func(int) {
				clear(num)
				for l, xl := range xs {
					r := xl / y[l]
					for a, w := range rows[l*k : l*k+k] {
						num[a] += w * r
					}
				}
				for a := range v {
					if m.colSum[a] > 0 {
						v[a] *= num[a] / m.colSum[a]
					} else {
						v[a] = 0
					}
				}
				f = div() // and Uv for the next update
			}, func() float64 { return f })
		}
	})
}

func allZero(a []float64) bool {
	for _, x := range a {
		if x != 0 {
			return false
		}
	}
	return true
}
