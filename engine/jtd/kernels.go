package jtd

import (
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// docBlock is the number of documents (rows of the N×M parts) per parallel
// block: fixed, so that sums and bits do not depend on the worker count.
const docBlock = 64

// splitParts computes, for every document row of X (dt, one sparse row per
// document), the E and N steps of one iteration and X⁽³⁾:
//
//	R = X − BS + Y/μ,  E = 𝒮_{λ/μ}(R − N),  N' = μ/(τ+μ)(R − E),  X⁽³⁾ = X + Y/μ − E − N'
//
// (Eq. 7–10; transposed, one row per document). eOut and nOut may be e's
// and nz's own buffers: every entry is read before it is written.
func splitParts(p *parallel.Pool, set settings, mu float64, dt *sparse.CSR, bs, y, nz, eOut, nOut, x3 *mat.Dense) {
	inv, nu, c := 1/mu, set.lambda/mu, mu/(set.tau+mu)
	p.For(dt.Rows, docBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			xr, yr := x3.RawRowView(i), y.RawRowView(i)
			for j, yv := range yr {
				xr[j] = yv * inv
			}
			idx, val := dt.Row(i)
			for a, j := range idx {
				xr[j] += val[a]
			}
			br, nr, er, no := bs.RawRowView(i), nz.RawRowView(i), eOut.RawRowView(i), nOut.RawRowView(i)
			for j, dy := range xr {
				r := dy - br[j]
				e := solve.SoftThreshold(r-nr[j], nu) // 𝒮_ν(x) = sgn(x)·max(|x| − ν, 0), Eq. 8
				n := c * (r - e)
				er[j], no[j] = e, n
				xr[j] = dy - e - n
			}
		}
	})
}

// partSums are the sums one multiplier update computes, for the objective
// and the residual.
type partSums struct {
	z2, yz, y2, absE, n2 float64 // ‖Z‖², ⟨Y, Z⟩ (Y before the update), ‖Y'‖², ‖E‖₁, ‖N‖²
}

func (s partSums) finite() bool {
	for _, v := range []float64{s.z2, s.yz, s.y2, s.absE, s.n2} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// updateMultiplier sets Y' = Y + μZ with Z = X − BS − E − N (transposed, one
// row per document) and returns the sums of the iterate, compensated within
// fixed blocks and added in block order. yOut may be y.
func updateMultiplier(p *parallel.Pool, mu float64, dt *sparse.CSR, bs, e, nz, y, yOut *mat.Dense) partSums {
	_, m := bs.Dims()
	type acc struct{ z2, yz, y2, absE, n2 dense.Sum }
	parts := make([]acc, parallel.Blocks(dt.Rows, docBlock))
	p.For(dt.Rows, docBlock, func(b, lo, hi int) {
		z := make([]float64, m)
		var a acc
		for i := lo; i < hi; i++ {
			br, er, nr, yr, yo := bs.RawRowView(i), e.RawRowView(i), nz.RawRowView(i), y.RawRowView(i), yOut.RawRowView(i)
			for j := range z {
				z[j] = -br[j] - er[j] - nr[j]
			}
			idx, val := dt.Row(i)
			for k, j := range idx {
				z[j] += val[k]
			}
			for j, zj := range z {
				a.z2.Add(zj * zj)
				a.yz.Add(yr[j] * zj)
				a.absE.Add(math.Abs(er[j]))
				a.n2.Add(nr[j] * nr[j])
				yn := yr[j] + mu*zj
				yo[j] = yn
				a.y2.Add(yn * yn)
			}
		}
		parts[b] = a
	})
	var t acc
	for _, a := range parts {
		t.z2.AddSum(a.z2)
		t.yz.AddSum(a.yz)
		t.y2.AddSum(a.y2)
		t.absE.AddSum(a.absE)
		t.n2.AddSum(a.n2)
	}
	return partSums{z2: t.z2.Value(), yz: t.yz.Value(), y2: t.y2.Value(), absE: t.absE.Value(), n2: t.n2.Value()}
}

// transpose sets dst (M×N) = srcᵀ for src N×M.
func transpose(p *parallel.Pool, dst, src *mat.Dense) {
	m, n := dst.Dims()
	p.For(m, docBlock, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			row := dst.RawRowView(j)
			for i := range n {
				row[i] = src.At(i, j)
			}
		}
	})
}

// lowRank sets dst (N×M) = V Bᵀ, i.e. (BS)ᵀ, using bt (K×M) as scratch.
func lowRank(p *parallel.Pool, dst, v, b, bt *mat.Dense) {
	bt.Copy(b.T())
	dense.MulSmall(p, dst, v, bt)
}

// normalizeColumns applies T of Eq. 12: every column of B is divided by its
// sum ‖B_k‖₁ (B ≥ 0) and, when v is not nil, column k of V = Sᵀ is
// multiplied by it, so that BS is unchanged. A zero column of B stays zero
// and its column of V is set to zero (T is undefined there).
func normalizeColumns(b, v *mat.Dense) {
	m, k := b.Dims()
	sums := make([]float64, k)
	for i := range m {
		for c, x := range b.RawRowView(i) {
			sums[c] += x
		}
	}
	for i := range m {
		row := b.RawRowView(i)
		for c, t := range sums {
			if t > 0 {
				row[c] /= t
			}
		}
	}
	if v == nil {
		return
	}
	n, _ := v.Dims()
	for i := range n {
		row := v.RawRowView(i)
		for c, t := range sums {
			row[c] *= t
		}
	}
}
