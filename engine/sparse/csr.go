package sparse

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/topicmf/topicmf/engine/parallel"
)

// CSR is a Rows×Cols matrix in compressed sparse row form: the non-zeros of
// row i are ColIdx[RowPtr[i]:RowPtr[i+1]] (strictly increasing) with values
// Val[RowPtr[i]:RowPtr[i+1]].
type CSR struct {
	Rows, Cols int
	RowPtr     []int // len Rows+1
	ColIdx     []int32
	Val        []float64
}

// Triplet is one entry (Row, Col, Val) for building a matrix.
type Triplet struct {
	Row, Col int
	Val      float64
}

// New checks the arrays and returns them as a CSR matrix (not copied).
func New(rows, cols int, rowPtr []int, colIdx []int32, val []float64) (*CSR, error) {
	if rows < 0 || cols < 0 || cols > math.MaxInt32 {
		return nil, fmt.Errorf("sparse: bad shape %d×%d", rows, cols)
	}
	if len(rowPtr) != rows+1 || rowPtr[0] != 0 {
		return nil, fmt.Errorf("sparse: RowPtr has length %d, want %d starting at 0", len(rowPtr), rows+1)
	}
	nnz := rowPtr[rows]
	if len(colIdx) != nnz || len(val) != nnz {
		return nil, fmt.Errorf("sparse: RowPtr says %d non-zeros but ColIdx has %d and Val %d", nnz, len(colIdx), len(val))
	}
	for i := 0; i < rows; i++ {
		if rowPtr[i+1] < rowPtr[i] {
			return nil, fmt.Errorf("sparse: RowPtr decreases at row %d", i)
		}
		for k := rowPtr[i]; k < rowPtr[i+1]; k++ {
			c := colIdx[k]
			if c < 0 || int(c) >= cols {
				return nil, fmt.Errorf("sparse: row %d has column %d outside 0..%d", i, c, cols-1)
			}
			if k > rowPtr[i] && colIdx[k-1] >= c {
				return nil, fmt.Errorf("sparse: row %d columns not strictly increasing at %d", i, c)
			}
		}
	}
	return &CSR{Rows: rows, Cols: cols, RowPtr: rowPtr, ColIdx: colIdx, Val: val}, nil
}

// FromTriplets builds a rows×cols matrix, summing duplicate entries and
// dropping entries that sum to zero. It returns an error for an entry
// outside the shape.
func FromTriplets(rows, cols int, ts []Triplet) (*CSR, error) {
	if rows < 0 || cols < 0 || cols > math.MaxInt32 {
		return nil, fmt.Errorf("sparse: bad shape %d×%d", rows, cols)
	}
	for _, t := range ts {
		if t.Row < 0 || t.Row >= rows || t.Col < 0 || t.Col >= cols {
			return nil, fmt.Errorf("sparse: entry (%d,%d) outside %d×%d", t.Row, t.Col, rows, cols)
		}
	}
	s := slices.Clone(ts)
	sort.Slice(s, func(a, b int) bool {
		if s[a].Row != s[b].Row {
			return s[a].Row < s[b].Row
		}
		return s[a].Col < s[b].Col
	})
	m := &CSR{Rows: rows, Cols: cols, RowPtr: make([]int, rows+1)}
	for i := 0; i < len(s); {
		j, sum := i, 0.0
		for ; j < len(s) && s[j].Row == s[i].Row && s[j].Col == s[i].Col; j++ {
			sum += s[j].Val
		}
		if sum != 0 {
			m.ColIdx = append(m.ColIdx, int32(s[i].Col))
			m.Val = append(m.Val, sum)
			m.RowPtr[s[i].Row+1]++
		}
		i = j
	}
	for i := 0; i < rows; i++ {
		m.RowPtr[i+1] += m.RowPtr[i]
	}
	return m, nil
}

// FromRows stacks rows into a len(idx)×cols matrix: row i holds the
// column indices idx[i] (sorted, distinct, in [0, cols)) and the values
// val[i]. The slices are copied; nothing is checked (the caller built
// them sorted, e.g. a vectorizer or a generator).
func FromRows(cols int, idx [][]int32, val [][]float64) *CSR {
	m := &CSR{Rows: len(idx), Cols: cols, RowPtr: make([]int, len(idx)+1)}
	nnz := 0
	for i := range idx {
		nnz += len(idx[i])
		m.RowPtr[i+1] = nnz
	}
	m.ColIdx = make([]int32, nnz)
	m.Val = make([]float64, nnz)
	// The rows are copied in blocks of rows on the default pool once the
	// matrix is large enough for the copy to take noticeable time.
	block := len(idx)
	if nnz >= transposeParallelNNZ {
		block = 4096
	}
	parallel.Default().For(len(idx), block, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			copy(m.ColIdx[m.RowPtr[i]:m.RowPtr[i+1]], idx[i])
			copy(m.Val[m.RowPtr[i]:m.RowPtr[i+1]], val[i])
		}
	})
	return m
}

// NNZ is the number of stored entries.
func (m *CSR) NNZ() int { return m.RowPtr[m.Rows] }

// Density is NNZ / (Rows·Cols), 0 for an empty shape.
func (m *CSR) Density() float64 {
	if m.Rows == 0 || m.Cols == 0 {
		return 0
	}
	return float64(m.NNZ()) / (float64(m.Rows) * float64(m.Cols))
}

// Row returns the column indices and values of row i (views, not copies).
func (m *CSR) Row(i int) ([]int32, []float64) {
	lo, hi := m.RowPtr[i], m.RowPtr[i+1]
	return m.ColIdx[lo:hi], m.Val[lo:hi]
}

// At returns entry (i, j).
func (m *CSR) At(i, j int) float64 {
	idx, val := m.Row(i)
	k, ok := slices.BinarySearch(idx, int32(j))
	if !ok {
		return 0
	}
	return val[k]
}

// Locate returns the row and column of the k-th stored entry.
func (m *CSR) Locate(k int) (row, col int) {
	row = sort.Search(m.Rows, func(i int) bool { return m.RowPtr[i+1] > k })
	return row, int(m.ColIdx[k])
}

// T returns the transpose as a new CSR matrix (a CSC view of m): row j of
// the result holds column j of m, its entries in increasing row order.
//
// The transpose scatters every entry to its column, a pass bound by memory
// that a corpus of millions of documents repeats several times while it is
// built. From transposeParallelNNZ stored entries on, the default pool's
// workers each scatter a contiguous range of rows (transposeRows) to the
// positions that the counts of the ranges before it leave free, so the
// result is the same, entry for entry, for any number of workers.
func (m *CSR) T() *CSR {
	nnz := m.NNZ()
	t := &CSR{Rows: m.Cols, Cols: m.Rows, RowPtr: make([]int, m.Cols+1),
		ColIdx: make([]int32, nnz), Val: make([]float64, nnz)}
	pool := parallel.Default()
	parts := 1
	if nnz >= transposeParallelNNZ {
		parts = pool.Workers()
	}
	// Part q covers rows lo[q]..lo[q+1]−1, about nnz/parts entries each.
	lo := make([]int, parts+1)
	for q := 1; q < parts; q++ {
		lo[q] = sort.Search(m.Rows, func(i int) bool { return m.RowPtr[i] >= nnz/parts*q })
	}
	lo[parts] = m.Rows
	// next[q][c]: first the entries of part q in column c, then the
	// position in t where part q's first entry of column c goes.
	next := make([][]int, parts)
	pool.For(parts, 1, func(q, _, _ int) {
		count := make([]int, m.Cols)
		for _, c := range m.ColIdx[m.RowPtr[lo[q]]:m.RowPtr[lo[q+1]]] {
			count[c]++
		}
		next[q] = count
	})
	pos := 0
	for c := 0; c < m.Cols; c++ {
		t.RowPtr[c] = pos
		for q := range parts {
			n := next[q][c]
			next[q][c] = pos
			pos += n
		}
	}
	t.RowPtr[m.Cols] = pos
	pool.For(parts, 1, func(q, _, _ int) { m.transposeRows(t, lo[q], lo[q+1], next[q]) })
	return t
}

// transposeParallelNNZ is the number of stored entries from which T and
// FromRows use more than one worker: below it their passes take well under
// a millisecond.
const transposeParallelNNZ = 1 << 20

// transposeRows writes the entries of rows lo..hi−1 of m into t, the entry
// of column c to next[c] (then advanced).
func (m *CSR) transposeRows(t *CSR, lo, hi int, next []int) {
	for i := lo; i < hi; i++ {
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			c := m.ColIdx[k]
			p := next[c]
			t.ColIdx[p] = int32(i)
			t.Val[p] = m.Val[k]
			next[c]++
		}
	}
}

// Clone returns a deep copy.
func (m *CSR) Clone() *CSR {
	return &CSR{Rows: m.Rows, Cols: m.Cols, RowPtr: slices.Clone(m.RowPtr),
		ColIdx: slices.Clone(m.ColIdx), Val: slices.Clone(m.Val)}
}

// SelectRows returns the matrix made of the given rows of m, in that order.
func (m *CSR) SelectRows(rows []int) *CSR {
	out := &CSR{Rows: len(rows), Cols: m.Cols, RowPtr: make([]int, len(rows)+1)}
	for i, r := range rows {
		idx, val := m.Row(r)
		out.ColIdx = append(out.ColIdx, idx...)
		out.Val = append(out.Val, val...)
		out.RowPtr[i+1] = len(out.Val)
	}
	return out
}

// RowDense writes row i into dst (len Cols; zeros where nothing is stored)
// and returns it; dst == nil allocates.
func (m *CSR) RowDense(i int, dst []float64) []float64 {
	idx, val := m.Row(i)
	return scatter("RowDense", dst, m.Cols, idx, val)
}

// scatter writes the entries (idx, val) into dst (length n, allocated when
// nil, zeros elsewhere) and returns it; who names the caller in a panic.
func scatter(who string, dst []float64, n int, idx []int32, val []float64) []float64 {
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("sparse.%s: dst has length %d, want %d", who, len(dst), n))
	}
	clear(dst)
	for q, c := range idx {
		dst[c] = val[q]
	}
	return dst
}

// Col returns the row indices and values of the stored entries of column j,
// in increasing row order (new slices). It binary-searches every row, so it
// costs O(Rows·log(NNZ/Rows)): code that reads many columns should read rows
// of the stored transpose instead (column j of D is row j of Corpus.DT).
func (m *CSR) Col(j int) ([]int32, []float64) {
	if j < 0 || j >= m.Cols {
		panic(fmt.Sprintf("sparse.Col: column %d outside 0..%d", j, m.Cols-1))
	}
	var rows []int32
	var vals []float64
	for i := 0; i < m.Rows; i++ {
		idx, val := m.Row(i)
		if k, ok := slices.BinarySearch(idx, int32(j)); ok {
			rows = append(rows, int32(i))
			vals = append(vals, val[k])
		}
	}
	return rows, vals
}

// ColDense writes column j into dst (len Rows) and returns it; dst == nil
// allocates. Same cost as Col.
func (m *CSR) ColDense(j int, dst []float64) []float64 {
	rows, vals := m.Col(j)
	return scatter("ColDense", dst, m.Rows, rows, vals)
}
