package symmetric

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
)

// rows returns the CSR matrix of the given dense rows (zeros not stored).
func rows(t *testing.T, r [][]float64) *sparse.CSR {
	t.Helper()
	var tr []sparse.Triplet
	cols := 0
	for i, row := range r {
		cols = max(cols, len(row))
		for j, v := range row {
			if v != 0 {
				tr = append(tr, sparse.Triplet{Row: i, Col: j, Val: v})
			}
		}
	}
	a, err := sparse.FromTriplets(len(r), cols, tr)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// scaled is a with every entry multiplied by s.
func scaled(a *sparse.CSR, s float64) *sparse.CSR {
	val := make([]float64, len(a.Val))
	for i, v := range a.Val {
		val[i] = v * s
	}
	return &sparse.CSR{Rows: a.Rows, Cols: a.Cols, RowPtr: a.RowPtr, ColIdx: a.ColIdx, Val: val}
}

// TestCosineScaleFree: the cosines of rows do not depend on their scale.
// Rows (3,4,0), (4,3,0), (0,0,1), (0,0,0) have, by hand,
// cos(r0,r1) = 24/25, cos(r0,r2) = cos(r1,r2) = 0, unit diagonal except
// for the zero row r3 (its row and column are zero). Scaled by 2^1000 the
// squares overflow (the unscaled norm was +Inf and every cosine came out
// 0); scaled by 2^-1060 they underflow to 0 (the rows were taken for zero
// rows). Both scalings are exact, so the cosines are those of the
// unscaled rows, to rounding.
func TestCosineScaleFree(t *testing.T) {
	a := rows(t, [][]float64{{3, 4, 0}, {4, 3, 0}, {0, 0, 1}, {0, 0, 0}})
	want := [][]float64{
		{1, 24.0 / 25, 0, 0},
		{24.0 / 25, 1, 0, 0},
		{0, 0, 1, 0},
		{0, 0, 0, 0},
	}
	for _, s := range []float64{1, 0x1p1000, 0x1p-1060, math.MaxFloat64 / 4} {
		for _, st := range []Storage{StorageSparse, StorageDense} {
			c := Cosine(parallel.NewPool(2), scaled(a, s), st)
			for i := range want {
				for j, w := range want[i] {
					if got := c.At(i, j); math.Abs(got-w) > 1e-15 {
						t.Errorf("scale %g, %v: S[%d,%d] = %v, want %v", s, st, i, j, got, w)
					}
				}
			}
		}
	}
}

// TestCosineNearMaxFloat: the matrix of issue 11 item 6, every entry
// 1e308: every pair of rows is parallel, so S is all ones (it was all
// zeros, ‖a_i‖² = +Inf).
func TestCosineNearMaxFloat(t *testing.T) {
	a := rows(t, [][]float64{{1e308, 1e308, 1e308}, {1e308, 1e308, 1e308}, {1e308, 1e308, 1e308}})
	c := Cosine(nil, a, StorageAuto)
	for i := range 3 {
		for j := range 3 {
			if got := c.At(i, j); math.Abs(got-1) > 1e-15 {
				t.Errorf("S[%d,%d] = %v, want 1", i, j, got)
			}
		}
	}
	if f := c.FrobeniusSq(nil); math.Abs(f-9) > 1e-13 {
		t.Errorf("‖S‖² = %v, want 9", f)
	}
}

// TestNormalizeRowsPlainBits: rows of ordinary magnitude are normalized by
// the plain formula a_j·(1/√Σa²) bit for bit, so the fallback never moves
// the numbers of real corpora; sizes 0 and 1 included.
func TestNormalizeRowsPlainBits(t *testing.T) {
	a := rows(t, [][]float64{{0.1, 0.2, 0.3}, {7}, {0, 1e-140, 1e140}, {}})
	got := NormalizeRows(nil, a)
	for i := range a.Rows {
		s, e := a.RowPtr[i], a.RowPtr[i+1]
		ss := 0.0
		for _, v := range a.Val[s:e] {
			ss += v * v
		}
		inv := 1 / math.Sqrt(ss)
		for q := s; q < e; q++ {
			if w := a.Val[q] * inv; got.Val[q] != w {
				t.Errorf("row %d entry %d: %v, want %v bit for bit", i, q-s, got.Val[q], w)
			}
		}
	}
	if e := NormalizeRows(nil, rows(t, nil)); e.Rows != 0 || len(e.Val) != 0 {
		t.Errorf("empty matrix: %d rows, %d values", e.Rows, len(e.Val))
	}
}
