package symnmf

import (
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/symmetric"
	"gonum.org/v1/gonum/mat"
)

// multiplier computes dst = A·U in fixed row blocks: *symmetric.Matrix (A
// stored) or *factored (A = ÃÃᵀ applied as two thin products).
type multiplier interface {
	MulDense(p *parallel.Pool, dst, u *mat.Dense)
}

// factored is the cosine matrix A = ÃÃᵀ held as its factor Ã (N×M, the
// row-normalized document-term matrix, so A_ij = ⟨x̃_i, x̃_j⟩ = cos(x_i, x_j)
// exactly as symmetric.Cosine defines it) and Ãᵀ. A·U = Ã·(ÃᵀU) costs
// 2·nnz(Ã)·K multiply-adds against nnz(A)·K for the stored A: on short
// texts nnz(Ã) is a few per document while nnz(A) is ~6% of N² (on
// StackOverflow, 74,898 against 15.8 million), so the product is ~100×
// cheaper. The product equals the stored A's to rounding (the
// same sums of products, associated differently), not bit for bit.
type factored struct {
	x, xt *sparse.CSR
	tmp   *mat.Dense // ÃᵀU, M×K
}

// newFactored returns the factored A of the rows of dt (N×M), or nil when
// it would not be cheaper than the stored A with nnz entries (or M = 0).
func newFactored(dt *sparse.CSR, nnzA, k int) *factored {
	x := symmetric.NormalizeRows(nil, dt)
	if x.Cols == 0 || 2*len(x.Val) >= nnzA {
		return nil
	}
	return &factored{x: x, xt: x.T(), tmp: mat.NewDense(x.Cols, k, nil)}
}

// MulDense sets dst = Ã·(Ãᵀ·U); the same bits for any number of workers.
func (f *factored) MulDense(p *parallel.Pool, dst, u *mat.Dense) {
	sparse.MulDense(p, f.tmp, f.xt, u)
	sparse.MulDense(p, dst, f.x, f.tmp)
}

// state is H with the products f and ∇f need: AH = A·H, G = HᵀH, and
// f(H) = ‖A‖² − 2⟨H, AH⟩ + ‖G‖²_F.
type state struct {
	h, ah, g *mat.Dense
	f        float64
}

func newState(n, k int) *state {
	return &state{h: mat.NewDense(n, k, nil), ah: mat.NewDense(n, k, nil), g: mat.NewDense(k, k, nil)}
}

// eval fills AH, G and f for the H in s.
func (s *state) eval(p *parallel.Pool, a multiplier, normA2 float64) {
	a.MulDense(p, s.ah, s.h)
	dense.Gram(p, s.g, s.h)
	s.f = symmetric.Objective(p, normA2, s.h, s.ah, s.g)
}

// gradient sets grad = ∇f(H) = 4·(H·HᵀH − AH) (Kuang et al. 2012, eq. 4.2
// with their factor 4).
func gradient(p *parallel.Pool, grad *mat.Dense, s *state) {
	dense.MulSmall(p, grad, s.h, s.g)
	n, k := grad.Dims()
	gr, ar := grad.RawMatrix(), s.ah.RawMatrix()
	p.For(n, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			row := gr.Data[i*gr.Stride : i*gr.Stride+k]
			ah := ar.Data[i*ar.Stride : i*ar.Stride+k]
			for j := range row {
				row[j] = 4 * (row[j] - ah[j])
			}
		}
	})
}

// project sets dst = max(H − α·grad, 0).
func project(p *parallel.Pool, dst, h, grad *mat.Dense, alpha float64) {
	n, k := h.Dims()
	d, hr, gr := dst.RawMatrix(), h.RawMatrix(), grad.RawMatrix()
	p.For(n, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := d.Data[i*d.Stride : i*d.Stride+k]
			x := hr.Data[i*hr.Stride : i*hr.Stride+k]
			g := gr.Data[i*gr.Stride : i*gr.Stride+k]
			for j := range out {
				v := x[j] - alpha*g[j]
				if v > 0 {
					out[j] = v
				} else {
					out[j] = 0
				}
			}
		}
	})
}

// directional returns ⟨grad, next − h⟩ (compensated, fixed blocks).
func directional(p *parallel.Pool, grad, next, h *mat.Dense) float64 {
	n, k := h.Dims()
	gr, nr, hr := grad.RawMatrix(), next.RawMatrix(), h.RawMatrix()
	part := make([]dense.Sum, parallel.Blocks(n, dense.RowBlock))
	p.For(n, dense.RowBlock, func(b, lo, hi int) {
		var s dense.Sum
		d := make([]float64, k) // next − h of one row
		for i := lo; i < hi; i++ {
			x := nr.Data[i*nr.Stride : i*nr.Stride+k]
			y := hr.Data[i*hr.Stride : i*hr.Stride+k]
			for j := range d {
				d[j] = x[j] - y[j]
			}
			// the terms g_j·(x_j − y_j), added in order
			s.AddProducts(gr.Data[i*gr.Stride:i*gr.Stride+k], d)
		}
		part[b] = s
	})
	var tot dense.Sum
	for _, s := range part {
		tot.AddSum(s)
	}
	return tot.Value()
}

// Step is one iteration of projected gradient descent with the Armijo
// rule (Kuang, Ding, Park 2012, Algorithm 1 with the scaling matrix S = I,
// their "PGD"): with g = ∇f(H), try α = 1, β, β², … and accept the first
// H_new = max(H − αg, 0) with
//
//	f(H_new) − f(H) ≤ σ·⟨g, H_new − H⟩,
//
// which makes f non-increasing. cur holds H, AH, HᵀH and f(H); next
// receives the accepted iterate (its AH, G and f too) and grad ∇f(H). It
// returns the accepted α, or ok = false when no α ≥ β^MaxBacktracks
// qualified, and next is then a copy of cur (H unchanged). Near a
// stationary point the test compares values of f that differ by rounding
// only (f is evaluated as ‖A‖² − 2⟨H, AH⟩ + ‖HᵀH‖²), so the search may
// fail there: a planted H* with A = H*H*ᵀ has ∇f(H*) = 0 up to rounding
// and the step leaves it in place either way.
func Step(p *parallel.Pool, a *symmetric.Matrix, normA2 float64, cur, next *state, grad *mat.Dense, sigma, beta float64) (alpha float64, ok bool) {
	return step(p, a, normA2, cur, next, grad, sigma, beta)
}

// step is Step with A·U computed by a (stored or factored A).
func step(p *parallel.Pool, a multiplier, normA2 float64, cur, next *state, grad *mat.Dense, sigma, beta float64) (alpha float64, ok bool) {
	gradient(p, grad, cur)
	alpha = 1
	for m := 0; m <= MaxBacktracks; m++ {
		project(p, next.h, cur.h, grad, alpha)
		a.MulDense(p, next.ah, next.h)
		t := dense.Dot(p, next.h, next.ah)
		rhs := sigma * directional(p, grad, next.h, cur.h)
		if surelyRejected(p, normA2, t, cur.f, rhs, next.h) {
			alpha *= beta
			continue
		}
		dense.Gram(p, next.g, next.h)
		// f as symmetric.Objective (sparse.ResidualSqParts) computes it, bit
		// for bit, reusing t = ⟨H, AH⟩.
		next.f = (normA2 - 2*t) + dense.Dot(p, next.g, next.g)
		if next.f < 0 {
			next.f = 0
		}
		if next.f-cur.f <= rhs {
			return alpha, true
		}
		alpha *= beta
	}
	next.h.Copy(cur.h)
	next.ah.Copy(cur.ah)
	next.g.Copy(cur.g)
	next.f = cur.f
	return alpha, false
}

// screenTol is the relative margin of surelyRejected: far above the
// rounding of the quantities it compares (relative ≲ N·u ≈ 1e-11 at
// N = 10⁵), far below the gaps it is meant to catch.
const screenTol = 1e-8

// surelyRejected reports whether the Armijo test f(H_new) − f(H) ≤ rhs
// must fail, decided without the Gram matrix G = H_newᵀH_new (N·K²
// multiply-adds, the bulk of a trial once A·H is cheap). With t =
// ⟨H_new, AH_new⟩ exactly as f uses it, f(H_new) = ‖A‖² − 2t + ‖G‖²_F and
// ‖G‖²_F ≥ Σ_k G_kk² = Σ_k ‖h_k‖⁴ (h_k column k of H_new), so
//
//	lb = ‖A‖² − 2t + Σ_k ‖h_k‖⁴ ≤ f(H_new),
//
// and lb − f(H) > rhs by more than screenTol times the magnitudes involved
// means the computed test fails too. Only then is the trial skipped, so the
// accepted step (and every iterate) is the same, bit for bit, as with the
// full evaluation of every trial.
func surelyRejected(p *parallel.Pool, normA2, t, f, rhs float64, h *mat.Dense) bool {
	n, k := h.Dims()
	hr := h.RawMatrix()
	nb := parallel.Blocks(n, dense.RowBlock)
	part := make([]float64, nb*k)
	p.For(n, dense.RowBlock, func(b, lo, hi int) {
		acc := part[b*k : b*k+k]
		for i := lo; i < hi; i++ {
			row := hr.Data[i*hr.Stride : i*hr.Stride+k]
			for j, x := range row {
				acc[j] += x * x
			}
		}
	})
	d := 0.0
	for j := 0; j < k; j++ {
		c := 0.0
		for b := 0; b < nb; b++ {
			c += part[b*k+j]
		}
		d += c * c
	}
	lb := (normA2 - 2*t) + d
	scale := math.Abs(normA2) + 2*math.Abs(t) + d + math.Abs(f) + math.Abs(rhs)
	return lb-f-rhs > screenTol*scale
}
