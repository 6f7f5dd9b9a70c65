package sparse

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// RowBlock is the number of rows per block in row-parallel kernels. It is a
// constant so that block boundaries never depend on the number of workers.
const RowBlock = 256

// MulDense sets dst = A·B for A (r×c, sparse) and B (c×k, dense), in
// parallel over fixed blocks of rows of A. Each output row depends on one
// row of A only, so the result is the same for any number of workers.
// dst must be r×k and must not alias B.
//
// Row i of dst is Σ_q A[i,c_q]·B[c_q,:] over the stored entries of row i,
// added eight entries at a time (then four, then one) in storage order:
// the order of the additions is fixed by A alone. 2·NNZ(A)·k flops.
//
// # Which product to use
//
// With D (M×N) and its transpose DT = Dᵀ (N×M) both stored, as
// engine.Corpus does, every product of the factorization models is a
// MulDense:
//
//	D·V      (M×K, e.g. the numerator of the NMF U-update)  = MulDense(D, V)
//	(UᵀD)ᵀ = Dᵀ·U  (N×K, UᵀD in the V-stored-transposed layout) = MulDense(DT, U)
//
// A dense-transposed × sparse product AᵀS is therefore computed as
// (AᵀS)ᵀ = SᵀA with MulDense on the stored transpose of S (see MulTDense),
// which keeps every output row owned by one block, with no reduction across
// blocks and no scatter.
func MulDense(p *parallel.Pool, dst *mat.Dense, a *CSR, b *mat.Dense) {
	if dst.IsEmpty() && (a.Rows == 0 || b.IsEmpty()) {
		return // an empty product (gonum cannot hold an r×0 or 0×k matrix)
	}
	br, k := b.Dims()
	dr, dc := dst.Dims()
	if br != a.Cols || dr != a.Rows || dc != k {
		panic(fmt.Sprintf("sparse.MulDense: shapes %d×%d · %d×%d → %d×%d", a.Rows, a.Cols, br, k, dr, dc))
	}
	braw, draw := b.RawMatrix(), dst.RawMatrix()
	p.For(a.Rows, RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := draw.Data[i*draw.Stride : i*draw.Stride+k]
			s, e := a.RowPtr[i], a.RowPtr[i+1]
			mulRow(out, a.ColIdx[s:e], a.Val[s:e], braw.Data, braw.Stride)
		}
	})
}

// mulRow sets out = Σ_q val[q]·B[idx[q], :len(out)] where row c of B starts
// at bd[c·bs], by the dense.Axpy8/Axpy4/Axpy kernels (AVX2 where available,
// the same bits as their Go loops): unrolling over eight stored entries
// loads and stores out once per eight rows of B.
func mulRow(out []float64, idx []int32, val []float64, bd []float64, bs int) {
	clear(out)
	k := len(out)
	val = val[:len(idx)]
	q := 0
	for ; q+8 <= len(idx); q += 8 {
		v0, v1, v2, v3 := val[q], val[q+1], val[q+2], val[q+3]
		v4, v5, v6, v7 := val[q+4], val[q+5], val[q+6], val[q+7]
		c0, c1, c2, c3 := int(idx[q])*bs, int(idx[q+1])*bs, int(idx[q+2])*bs, int(idx[q+3])*bs
		c4, c5, c6, c7 := int(idx[q+4])*bs, int(idx[q+5])*bs, int(idx[q+6])*bs, int(idx[q+7])*bs
		// out[j] += (v0·r0[j] + … + v3·r3[j]) + (v4·r4[j] + … + v7·r7[j])
		dense.Axpy8(out, &[8]float64{v0, v1, v2, v3, v4, v5, v6, v7},
			&[8][]float64{bd[c0 : c0+k], bd[c1 : c1+k], bd[c2 : c2+k], bd[c3 : c3+k], bd[c4 : c4+k], bd[c5 : c5+k], bd[c6 : c6+k], bd[c7 : c7+k]})
	}
	if q+4 <= len(idx) {
		c0, c1, c2, c3 := int(idx[q])*bs, int(idx[q+1])*bs, int(idx[q+2])*bs, int(idx[q+3])*bs
		dense.Axpy4(out, val[q], val[q+1], val[q+2], val[q+3], bd[c0:c0+k], bd[c1:c1+k], bd[c2:c2+k], bd[c3:c3+k])
		q += 4
	}
	for ; q < len(idx); q++ {
		c := int(idx[q]) * bs
		dense.Axpy(val[q], bd[c:c+k], out)
	}
}

// MulTDense sets dst = (Aᵀ·S)ᵀ = Sᵀ·A for a dense A (r×k) and a sparse S
// (r×c), given st = Sᵀ (c×r) as stored: dst is c×k. It is MulDense(st, A);
// the separate name documents the identity (AᵀS)ᵀ = SᵀA. For the factor
// layout of engine (V stored N×K), UᵀD in that layout is
// MulTDense(dst, DT, U).
func MulTDense(p *parallel.Pool, dst *mat.Dense, st *CSR, a *mat.Dense) {
	MulDense(p, dst, st, a)
}

// FrobeniusSq returns ‖A‖²_F = Σ A_ij², summed with compensation in fixed
// row blocks whose partial sums are added in block order: the result is the
// same for any number of workers and its relative error is a few units of
// roundoff (each square is rounded once; the compensated sums add O(u)).
func FrobeniusSq(p *parallel.Pool, a *CSR) float64 {
	nb := parallel.Blocks(a.Rows, RowBlock)
	part := make([]dense.Sum, nb)
	p.For(a.Rows, RowBlock, func(b, lo, hi int) {
		var s dense.Sum
		v := a.Val[a.RowPtr[lo]:a.RowPtr[hi]]
		s.AddProducts(v, v)
		part[b] = s
	})
	var total dense.Sum
	for _, s := range part {
		total.AddSum(s)
	}
	return total.Value()
}

// Mean returns the mean of all Rows·Cols entries of A (zeros included),
// its stored values summed with compensation in storage order.
func Mean(a *CSR) float64 {
	var s dense.Sum
	s.AddAll(a.Val)
	return s.Value() / (float64(a.Rows) * float64(a.Cols))
}

// Frobenius returns ‖A‖_F.
func Frobenius(p *parallel.Pool, a *CSR) float64 { return math.Sqrt(FrobeniusSq(p, a)) }

// ResidualSq returns ‖A − U·Vᵀ‖²_F for a sparse A (r×c), U (r×k) and V
// (c×k) without forming U·Vᵀ (which would be dense r×c), by
//
//	‖A − UVᵀ‖²_F = ‖A‖²_F − 2·tr(Uᵀ A V) + tr((UᵀU)(VᵀV)).
//
// It costs one MulDense and two Grams; a fit that already has A·V, UᵀU and
// VᵀV should call ResidualSqParts instead. See ResidualSqParts for the
// accuracy.
func ResidualSq(p *parallel.Pool, a *CSR, u, v *mat.Dense) float64 {
	if u.IsEmpty() && v.IsEmpty() {
		return FrobeniusSq(p, a) // k = 0: UVᵀ = 0
	}
	r, k := u.Dims()
	c, kv := v.Dims()
	if r != a.Rows || c != a.Cols || k != kv {
		panic(fmt.Sprintf("sparse.ResidualSq: A %d×%d, U %d×%d, V %d×%d", a.Rows, a.Cols, r, k, c, kv))
	}
	av := mat.NewDense(r, k, nil)
	MulDense(p, av, a, v)
	uu := mat.NewDense(k, k, nil)
	vv := mat.NewDense(k, k, nil)
	dense.Gram(p, uu, u)
	dense.Gram(p, vv, v)
	return ResidualSqParts(p, FrobeniusSq(p, a), u, av, uu, vv)
}

// ResidualSqParts returns ‖A − U·Vᵀ‖²_F from its parts: normA2 = ‖A‖²_F,
// U (r×k), AV = A·V (r×k), UU = UᵀU and VV = VᵀV (k×k), as
//
//	f = (‖A‖²_F − 2·⟨U, AV⟩) + ⟨UU, VV⟩,   ⟨X, Y⟩ = Σ_ij X_ij Y_ij,
//
// using tr(UᵀAV) = ⟨U, AV⟩ and, UU and VV being symmetric,
// tr(UU·VV) = ⟨UU, VV⟩. The inner products are compensated sums over fixed
// blocks (dense.Dot), so the result is the same for any number of workers.
// The result is clamped at 0.
//
// # Accuracy
//
// The three terms are each accurate to a small relative error: the inner
// products add O(u) (u = 2⁻⁵³ ≈ 1.1e-16) on top of the errors of their
// inputs, and the inputs carry the errors of their own sums: a row of A·V
// sums at most max-row-NNZ products (relative error ≤ γ_nnz, γ_n ≈ n·u) and
// the Grams sum dense.RowBlock rows per block plus one term per block.
// For non-negative A, U and V the absolute error of f is therefore at most
// about
//
//	|f̂ − f| ≲ u·(2‖A‖² + 2·(nnz_row+2)·⟨U,AV⟩ + (RowBlock + r/RowBlock + c/RowBlock + k)·⟨UU,VV⟩),
//
// and rounding errors being random in practice, typically ~10·u·‖A‖². What
// matters is cancellation: when the model fits well the three terms are all
// ≈ ‖A‖² and f ≪ ‖A‖², so the relative error of f is that bound divided by
// f. For topic models the residual stays a large fraction of ‖A‖²
// (f/‖A‖² ≳ 0.1), giving a relative error ≲ 1e-14; a nearly exact fit
// (f/‖A‖² < 1e-10) cannot be resolved by this formula and reads as noise of
// order 1e-15·‖A‖², which is where a monotonicity check must stop.
func ResidualSqParts(p *parallel.Pool, normA2 float64, u, av, uu, vv *mat.Dense) float64 {
	t := dense.Dot(p, u, av)
	g := dense.Dot(p, uu, vv)
	f := (normA2 - 2*t) + g
	if f < 0 {
		// Only rounding can make it negative (see Accuracy).
		return 0
	}
	return f
}
