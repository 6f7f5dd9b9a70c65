package symmetric

import (
	"math"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Cosine returns the cosine similarities of the rows of A (r×c):
//
//	S_ij = ⟨a_i, a_j⟩ / (‖a_i‖·‖a_j‖),
//
// an r×r symmetric matrix, stored as storage says (StorageAuto: dense from
// DenseThreshold on). A zero row has no direction: its row and column of S
// are zero (its diagonal entry included); every other diagonal entry is 1
// to rounding. S = ÃÃᵀ with Ã = NormalizeRows(A), computed row by row with
// the additions in a fixed order (see Product), so S is exactly symmetric
// (S_ij and S_ji add the same products in the same order) and the same for
// any number of workers. For non-negative A every stored entry is positive.
// The rows are normalized without overflow or underflow (NormalizeRows), so
// S does not depend on the scale of A: the rows of 1e308·A give the S of A.
func Cosine(p *parallel.Pool, a *sparse.CSR, storage Storage) *Matrix {
	an := NormalizeRows(p, a)
	at := an.T()
	switch storage {
	case StorageSparse:
		return NewSparseMatrix(Product(p, an, at, false))
	case StorageDense:
		return cosineDense(p, an, at, -1)
	}
	counts := rowNNZ(p, an, at, false)
	nnz := 0
	for _, c := range counts {
		nnz += c
	}
	if a.Rows > 0 && float64(nnz) >= DenseThreshold*float64(a.Rows)*float64(a.Rows) {
		return cosineDense(p, an, at, nnz)
	}
	return NewSparseMatrix(Product(p, an, at, false))
}

func cosineDense(p *parallel.Pool, an, at *sparse.CSR, nnz int) *Matrix {
	if an.Rows == 0 {
		return &Matrix{}
	}
	s := mat.NewDense(an.Rows, an.Rows, nil)
	mulDenseOut(p, s, an, at)
	if nnz < 0 {
		return NewDenseMatrix(s)
	}
	return &Matrix{n: an.Rows, nnz: nnz, de: s}
}

// normBlock is the number of rows per block of NormalizeRows; a constant,
// so that block boundaries never depend on the number of workers.
const normBlock = 64

// Bounds of the plain sum of squares in NormalizeRows: a sum ss of squares
// in [safeMin, +Inf) lost nothing to overflow, and the squares that
// underflowed (each below 2⁻¹⁰²², rounded by at most 2⁻¹⁰⁷⁵) change it by
// a relative n·2⁻¹⁰⁷ at most.
const safeMin = 0x1p-968

// NormalizeRows returns A with every non-zero row scaled to unit Euclidean
// norm (zero rows stay empty; A is not changed). The norm of a row is
// first its plain sum of squares ss = Σ a_j² in storage order, and the row
// is a_j·(1/√ss). When ss overflows (+Inf, entries beyond ~1e154) or is
// too small to be accurate (below 2⁻⁹⁶⁸, entries below ~1e-146, where the
// squares underflow to zero), the row is scaled first as LAPACK's dnrm2 and
// dlassq do: with s = max_j |a_j|, ŝs = Σ (a_j/s)² ∈ [1, n] and the
// normalized entries are (a_j/s)·(1/√ŝs), with no overflow or underflow for
// any finite row. Rows of ordinary magnitude take the plain path, so their
// bits do not depend on the fallback.
func NormalizeRows(p *parallel.Pool, a *sparse.CSR) *sparse.CSR {
	val := make([]float64, len(a.Val))
	p.For(a.Rows, normBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			s, e := a.RowPtr[i], a.RowPtr[i+1]
			normalize(val[s:e], a.Val[s:e])
		}
	})
	return &sparse.CSR{Rows: a.Rows, Cols: a.Cols, RowPtr: a.RowPtr, ColIdx: a.ColIdx, Val: val}
}

// normalize sets dst = x/‖x‖₂ (dst untouched when x is zero), scale-safely
// (see NormalizeRows).
func normalize(dst, x []float64) {
	ss := 0.0
	for _, v := range x {
		ss += v * v
	}
	if ss >= safeMin && !math.IsInf(ss, 1) {
		inv := 1 / math.Sqrt(ss)
		for q, v := range x {
			dst[q] = v * inv
		}
		return
	}
	scale := 0.0
	for _, v := range x {
		scale = math.Max(scale, math.Abs(v))
	}
	if scale == 0 {
		return
	}
	ss = 0
	for _, v := range x {
		t := v / scale
		ss += t * t
	}
	inv := 1 / math.Sqrt(ss)
	for q, v := range x {
		dst[q] = (v / scale) * inv
	}
}
