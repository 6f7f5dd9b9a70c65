package symmetric

import (
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// rowBlock is the number of rows per block of the sparse-product loops; a
// constant, so that block boundaries never depend on the number of workers.
const rowBlock = 64

// rowNNZ returns, for every row i of C = A·B, the number of entries
// that the product stores: the columns reached by some A_ik·B_kj with both
// factors stored (Gustavson's symbolic pass), optionally not counting the
// diagonal. Stored zeros of A or B are not expected (sparse.FromTriplets and
// the corpus builders drop them).
func rowNNZ(p *parallel.Pool, a, b *sparse.CSR, dropDiag bool) []int {
	counts := make([]int, a.Rows)
	p.For(a.Rows, rowBlock, func(_, lo, hi int) {
		mark := make([]int32, b.Cols)
		for i := range mark {
			mark[i] = -1
		}
		for i := lo; i < hi; i++ {
			n := 0
			aidx, _ := a.Row(i)
			for _, k := range aidx {
				bidx, _ := b.Row(int(k))
				for _, j := range bidx {
					if mark[j] != int32(i) {
						mark[j] = int32(i)
						if !dropDiag || int(j) != i {
							n++
						}
					}
				}
			}
			counts[i] = n
		}
	})
	return counts
}

// Product returns C = A·B as a CSR matrix; with B = Aᵀ it is the symmetric
// A·Aᵀ of this package's uses (TNMF's co-occurrence counts, the cosine
// matrix ÃÃᵀ of Cosine). C is computed row by row
// (Gustavson): row i of C is Σ_k A_ik·B[k,:] with the k in increasing order
// and, for each k, the stored entries of B's row k in increasing column
// order; so every entry C_ij is the sum, over increasing k, of A_ik·B_kj.
// Rows are computed in fixed blocks, each into its own arrays, and the
// blocks are concatenated in block order: the result is the same for any
// number of workers. With dropDiag the diagonal entries are not stored.
// Entries that sum to exactly zero are still stored (they cannot arise for
// non-negative factors, the only use here). Column indices of each row come
// out sorted.
func Product(p *parallel.Pool, a, b *sparse.CSR, dropDiag bool) *sparse.CSR {
	counts := rowNNZ(p, a, b, dropDiag)
	rowPtr := make([]int, a.Rows+1)
	for i, c := range counts {
		rowPtr[i+1] = rowPtr[i] + c
	}
	nnz := rowPtr[a.Rows]
	colIdx := make([]int32, nnz)
	val := make([]float64, nnz)
	p.For(a.Rows, rowBlock, func(_, lo, hi int) {
		acc := make([]float64, b.Cols)
		mark := make([]bool, b.Cols)
		for i := lo; i < hi; i++ {
			addRow(acc, mark, a, b, i)
			// Gather in increasing column order: scanning the marks of the
			// whole row costs b.Cols per row; for the short rows of a
			// co-occurrence product a sorted list of the touched columns
			// would be cheaper, but the dense scan keeps the code simple and
			// costs M² overall, small beside the products themselves.
			pos := rowPtr[i]
			for j := range b.Cols {
				if !mark[j] {
					continue
				}
				mark[j] = false
				v := acc[j]
				acc[j] = 0
				if dropDiag && j == i {
					continue
				}
				colIdx[pos] = int32(j)
				val[pos] = v
				pos++
			}
		}
	})
	return &sparse.CSR{Rows: a.Rows, Cols: b.Cols, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
}

// mulDenseOut sets dst = A·B (dst dense, A.Rows × B.Cols) with the same
// order of additions as Product, so that the two storages of a product
// hold the same bits.
func mulDenseOut(p *parallel.Pool, dst *mat.Dense, a, b *sparse.CSR) {
	raw := dst.RawMatrix()
	p.For(a.Rows, rowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := raw.Data[i*raw.Stride : i*raw.Stride+b.Cols]
			clear(out)
			addRow(out, nil, a, b, i)
		}
	})
}

// addRow adds row i of A·B into acc (len B.Cols): Σ_k A_ik·B[k,:] over the
// stored k in increasing order and, for each k, B's row k in increasing
// column order, the order of additions that gives Product and mulDenseOut
// the same bits. mark, when not nil, flags the columns touched.
func addRow(acc []float64, mark []bool, a, b *sparse.CSR, i int) {
	aidx, aval := a.Row(i)
	for q, k := range aidx {
		av := aval[q]
		bidx, bval := b.Row(int(k))
		for r, j := range bidx {
			acc[j] += av * bval[r]
		}
		if mark != nil {
			for _, j := range bidx {
				mark[j] = true
			}
		}
	}
}
