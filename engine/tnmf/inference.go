package tnmf

import (
	"context"
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// docBlock is the number of documents per parallel block of inference.
const docBlock = 256

// feasTol is the smallest factor 1 + u_la·step/y_l by which a Newton step
// may shrink a fitted value y_l (see newtonWork.change).
const feasTol = 1e-12

// maxHalvings bounds the step halvings of a safeguarded Newton step.
const maxHalvings = 60

// inferE sets dst (n×K) to Eq. 4.6 for the documents that are the rows of
// x (n×M): row j of dst is max(xⱼᵀ·U·(UᵀU)⁻¹, 0), i.e. V = max((UᵀU)⁻¹UᵀX, 0)
// transposed. ginv is (UᵀU)⁻¹ (symmetric).
func inferE(p *parallel.Pool, dst *mat.Dense, x *sparse.CSR, u, ginv *mat.Dense) {
	_, k := u.Dims()
	phi := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(p, phi, x, u)
	dense.MulSmall(p, dst, phi, ginv)
	clampNonNegative(p, dst)
}

// inferENNLS refines the Eq. 4.6 rows already in dst into the exact
// solutions of min_{v≥0} ½vᵀGv − bᵀv (b = Uᵀx, G = UᵀU), which is Eq. 3.2
// per document, by cyclic coordinate descent: for k = 1..K,
// v_k ← max(v_k − ((Gv)_k − b_k)/G_kk, 0), an exact minimization along
// coordinate k, so the objective never increases. Sweeps stop when one
// lowers ½‖x − Uv‖² by at most tol times its value, or after sweeps.
func inferENNLS(ctx context.Context, p *parallel.Pool, dst *mat.Dense, x *sparse.CSR, u, g *mat.Dense, sweeps int, tol float64) {
	_, k := u.Dims()
	phi := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(p, phi, x, u)
	graw := g.RawMatrix()
	p.For(x.Rows, docBlock, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		gv := make([]float64, k)
		for j := lo; j < hi; j++ {
			v := dst.RawRowView(j)
			b := phi.RawRowView(j)
			_, xv := x.Row(j)
			xx := 0.0
			for _, w := range xv {
				xx += w * w
			}
			nnlsCD(v, gv, b, graw.Data, graw.Stride, xx, sweeps, tol)
		}
	})
}

// nnlsCD minimizes f(v) = ½vᵀGv − bᵀv over v ≥ 0 in place by cyclic
// coordinate descent (see inferENNLS); half = ½‖x‖² makes f + half the
// residual ½‖x − Uv‖² used in the relative stopping test. gv is scratch.
func nnlsCD(v, gv, b, gd []float64, gs int, xx float64, sweeps int, tol float64) {
	k := len(v)
	for a := range gv {
		s := 0.0
		row := gd[a*gs : a*gs+k]
		for c, w := range row {
			s += w * v[c]
		}
		gv[a] = s
	}
	f := func() float64 {
		s := 0.5 * xx
		for a := range v {
			s += v[a] * (0.5*gv[a] - b[a])
		}
		return s
	}
	prev := f()
	for sw := 0; sw < sweeps; sw++ {
		solve.NonNegSweep(v, gv, b, gd, gs)
		cur := f()
		if tol >= 0 && prev-cur <= tol*math.Abs(prev) {
			break
		}
		prev = cur
	}
}

// inferI sets dst (n×K) to the TNMF_I representation of the rows of x: for
// each document x_j, v_j minimizes the generalized I-divergence of Eq. 3.3,
//
//	l(v_j) = Σ_i ( x_ij log(x_ij / (Uv_j)_i) − x_ij + (Uv_j)_i ),
//
// by cyclic coordinate-wise Newton steps (Section 4.2); see newtonDoc.
// colSum[k] = Σ_i u_ik. Documents are independent and solved in parallel
// blocks.
func inferI(ctx context.Context, p *parallel.Pool, dst *mat.Dense, x *sparse.CSR, u *mat.Dense, colSum []float64, sweeps int, tol float64) {
	_, k := u.Dims()
	uraw := u.RawMatrix()
	p.For(x.Rows, docBlock, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		var w newtonWork
		for j := lo; j < hi; j++ {
			idx, xv := x.Row(j)
			w.load(idx, xv, uraw.Data, uraw.Stride, k)
			v := dst.RawRowView(j)
			w.solve(v, colSum, sweeps, tol)
		}
	})
}

// newtonWork holds one document for TNMF_I: its terms that some topic
// covers (rows of U not all zero), their weights x_l, their rows of U
// (ur[l·K + k] = u_{i_l k}) and the current fit y_l = (Uv)_{i_l}.
type newtonWork struct {
	x, ur, y []float64
	k        int
}

// load gathers document (idx, xv): terms whose row of U is zero are left
// out, since (Uv)_i = 0 for every v makes x_i·log(x_i/(Uv)_i) = +∞ whatever
// v is — they cannot be explained and do not depend on v.
func (w *newtonWork) load(idx []int32, xv []float64, ud []float64, us, k int) {
	w.k = k
	w.x, w.ur = w.x[:0], w.ur[:0]
	for q, i := range idx {
		if xv[q] == 0 {
			continue
		}
		row := ud[int(i)*us : int(i)*us+k]
		zero := true
		for _, a := range row {
			if a != 0 {
				zero = false
				break
			}
		}
		if zero {
			continue
		}
		w.x = append(w.x, xv[q])
		w.ur = append(w.ur, row...)
	}
	if cap(w.y) < len(w.x) {
		w.y = make([]float64, len(w.x))
	}
	w.y = w.y[:len(w.x)]
}

// fit recomputes y = U_doc·v from scratch.
func (w *newtonWork) fit(v []float64) {
	k := w.k
	for l := range w.y {
		row := w.ur[l*k : l*k+k]
		s := 0.0
		for a, b := range row {
			s += b * v[a]
		}
		w.y[l] = s
	}
}

// divergence is l(v) of Eq. 3.3 for the loaded terms, from y:
// Σ_l (x_l log(x_l/y_l) − x_l) + Σ_k s_k v_k, where Σ_k s_k v_k = Σ_i (Uv)_i
// over all M terms. It is +∞ when some y_l ≤ 0.
func (w *newtonWork) divergence(v, colSum []float64) float64 {
	s := 0.0
	for l, x := range w.x {
		if w.y[l] <= 0 {
			return math.Inf(1)
		}
		s += x*math.Log(x/w.y[l]) - x
	}
	for a, c := range colSum {
		s += c * v[a]
	}
	return s
}

// solve minimizes l(v) over v ≥ 0 in place. Start: v_k = Σ_l x_l / Σ_k s_k
// for every k, the constant vector at which Σ_i (Uv)_i = Σ_i x_i (the
// optimality condition of the I-divergence along the scale of v) — the
// paper does not say how v is initialized; when that start overflows, v is
// left +Inf for the caller to report. Then sweeps of coordinate steps
// (newtonStep) until a sweep lowers l by at most tol·l, or after sweeps.
func (w *newtonWork) solve(v, colSum []float64, sweeps int, tol float64) {
	total, mass := 0.0, 0.0
	for _, x := range w.x {
		total += x
	}
	for _, c := range colSum {
		mass += c
	}
	clear(v)
	if len(w.x) == 0 || mass <= 0 {
		return // l(v) = Σ_k s_k v_k (+ const): minimized at v = 0
	}
	for a := range v {
		v[a] = total / mass
	}
	if math.IsInf(v[0], 0) {
		return // the document's mass overflows float64: v stays +Inf, which the caller reports
	}
	w.fit(v)
	prev := w.divergence(v, colSum)
	for sw := 0; sw < sweeps; sw++ {
		for a := range v {
			w.newtonStep(v, colSum, a)
		}
		w.fit(v) // drop the rounding the incremental updates accumulated
		cur := w.divergence(v, colSum)
		if tol >= 0 && prev-cur <= tol*math.Abs(prev) {
			break
		}
		prev = cur
	}
}

// newtonStep updates coordinate a of v by the Newton step of Section 4.2,
//
//	g = Σ_i u_ia (1 − x_i/(Uv)_i),   h = Σ_i x_i u_ia² / (Uv)_i²,
//	v_a ← max(v_a − g/h, 0),
//
// (the sum in g runs over all M terms: Σ_i u_ia = s_a minus the document's
// terms' x_i u_ia/(Uv)_i), safeguarded: the paper's step can overshoot —
// e.g. past 2·v* for a single topic, where the projection to 0 leaves
// (Uv)_i = 0 and l = +∞ — so when the step would raise l it is halved
// until it does not (at most maxHalvings times, else v_a is left as is).
// l is convex in v_a and −g is a descent direction, so a short enough step
// lowers it. When h = 0 no term of the document involves topic a and l
// grows linearly with v_a at rate s_a ≥ 0, so v_a ← 0. It keeps w.y equal
// to U_doc·v up to rounding and returns the change of l it computed.
func (w *newtonWork) newtonStep(v, colSum []float64, a int) float64 {
	k := w.k
	g, h := colSum[a], 0.0
	for l, x := range w.x {
		ua := w.ur[l*k+a]
		if ua == 0 {
			continue
		}
		r := x / w.y[l]
		g -= ua * r
		h += r * ua * ua / w.y[l]
	}
	if h == 0 {
		d := -colSum[a] * v[a]
		v[a] = 0
		return d
	}
	step := math.Max(v[a]-g/h, 0) - v[a]
	for t := 0; t <= maxHalvings && step != 0; t++ {
		if d, ok := w.change(colSum[a], a, step); ok && d <= 0 {
			for l := range w.y {
				w.y[l] += w.ur[l*k+a] * step
			}
			v[a] += step
			if v[a] < 0 { // rounding of v + (max(v − g/h, 0) − v)
				v[a] = 0
			}
			return d
		}
		step *= 0.5
	}
	return 0
}

// change is l(v + step·e_a) − l(v) = s_a·step − Σ_l x_l log(1 + u_la·step/y_l),
// ok = false when some y_l would become ≤ 0 (l = +∞ there) — or ≤ feasTol·y_l,
// which rounding cannot tell from 0: y_l + u_la·step is computed with an
// error of a few ε·y_l, so a true 0 (the step removes the only topic that
// covers term l) can come out as 1e-17 and make l look finite.
func (w *newtonWork) change(sa float64, a int, step float64) (float64, bool) {
	k := w.k
	d := sa * step
	for l, x := range w.x {
		ua := w.ur[l*k+a]
		if ua == 0 {
			continue
		}
		r := ua * step / w.y[l]
		if 1+r <= feasTol {
			return 0, false
		}
		d -= x * math.Log1p(r)
	}
	return d, true
}
