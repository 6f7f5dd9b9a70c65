package classify

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Features is a set of example rows: one row per example, one column per
// feature. Make one with Dense or Sparse.
type Features interface {
	// Rows is the number of examples.
	Rows() int
	// Cols is the number of features.
	Cols() int

	// dot is x_iᵀw summed left to right from 0: s ← 0, s ← s + x_ij·w_j for
	// j = 1, 2, ... (the stored entries of a sparse row in column order).
	dot(i int, w []float64) float64
	// dots sets out[k] = dot(i[k], w[k]) for k < len(i) ≤ lanes.
	dots(i []int, w [][]float64, out []float64)
	axpy(i int, a float64, w []float64)
	sqNorm(i int) float64
	subset(idx []int) Features
	check() error
}

// Dense wraps a dense matrix, one example per row (e.g. the N×K document
// representation of a topic model). The matrix is not copied.
func Dense(x *mat.Dense) Features {
	r, c := 0, 0
	if x != nil && !x.IsEmpty() {
		r, c = x.Dims()
	}
	return &denseRows{x: x, rows: r, cols: c}
}

// Sparse wraps a CSR matrix, one example per row. It is not copied.
func Sparse(x *sparse.CSR) Features {
	if x == nil {
		return &sparseRows{x: &sparse.CSR{RowPtr: []int{0}}}
	}
	return &sparseRows{x: x}
}

type denseRows struct {
	x          *mat.Dense
	idx        []int // nil: all rows in order
	rows, cols int
}

func (d *denseRows) Rows() int {
	if d.idx != nil {
		return len(d.idx)
	}
	return d.rows
}
func (d *denseRows) Cols() int { return d.cols }

func (d *denseRows) row(i int) []float64 {
	if d.idx != nil {
		i = d.idx[i]
	}
	return d.x.RawRowView(i)
}

func (d *denseRows) dot(i int, w []float64) float64 {
	r := d.row(i)
	w = w[:len(r)]
	s := 0.0
	for j, v := range r {
		s += v * w[j]
	}
	return s
}

// dots computes up to eight dot products in one loop over the columns
// (dense.Dot4 for up to four, dense.Dot8 for more): independent chains of
// additions in flight instead of one, each still the sum of dot, term by
// term in the same order. Missing lanes repeat the first.
func (d *denseRows) dots(i []int, w [][]float64, out []float64) {
	if len(i) == 1 {
		out[0] = d.dot(i[0], w[0])
		return
	}
	var r, v [8][]float64
	for k := range r {
		kk := k
		if kk >= len(i) {
			kk = 0
		}
		r[k], v[k] = d.row(i[kk]), w[kk]
	}
	if len(i) <= 4 {
		s := dense.Dot4(r[0], r[1], r[2], r[3], v[0], v[1], v[2], v[3])
		copy(out, s[:len(i)])
		return
	}
	s := dense.Dot8(&r, &v)
	copy(out, s[:len(i)])
}

// axpy is w[j] += a·x_ij (dense.Axpy: the same expression, four columns at
// a time where the CPU has AVX2).
func (d *denseRows) axpy(i int, a float64, w []float64) {
	dense.Axpy(a, d.row(i), w)
}

func (d *denseRows) sqNorm(i int) float64 {
	s := 0.0
	for _, v := range d.row(i) {
		s += v * v
	}
	return s
}

func (d *denseRows) subset(idx []int) Features {
	return &denseRows{x: d.x, idx: composeIdx(d.idx, idx), rows: d.rows, cols: d.cols}
}

func (d *denseRows) check() error {
	for i := range d.Rows() {
		for j, v := range d.row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("classify: feature %d of example %d is %v, want a finite number", j, i, v)
			}
		}
	}
	return nil
}

type sparseRows struct {
	x   *sparse.CSR
	idx []int
}

func (s *sparseRows) Rows() int {
	if s.idx != nil {
		return len(s.idx)
	}
	return s.x.Rows
}
func (s *sparseRows) Cols() int { return s.x.Cols }

func (s *sparseRows) row(i int) ([]int32, []float64) {
	if s.idx != nil {
		i = s.idx[i]
	}
	return s.x.Row(i)
}

func (s *sparseRows) dot(i int, w []float64) float64 {
	cols, vals := s.row(i)
	sum := 0.0
	for k, c := range cols {
		sum += vals[k] * w[c]
	}
	return sum
}

func (s *sparseRows) dots(i []int, w [][]float64, out []float64) {
	for k := range i {
		out[k] = s.dot(i[k], w[k])
	}
}

func (s *sparseRows) axpy(i int, a float64, w []float64) {
	cols, vals := s.row(i)
	for k, c := range cols {
		w[c] += a * vals[k]
	}
}

func (s *sparseRows) sqNorm(i int) float64 {
	_, vals := s.row(i)
	sum := 0.0
	for _, v := range vals {
		sum += v * v
	}
	return sum
}

func (s *sparseRows) subset(idx []int) Features {
	return &sparseRows{x: s.x, idx: composeIdx(s.idx, idx)}
}

func (s *sparseRows) check() error {
	for i := range s.Rows() {
		cols, vals := s.row(i)
		for k, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("classify: feature %d of example %d is %v, want a finite number", cols[k], i, v)
			}
		}
	}
	return nil
}

func composeIdx(base, idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		if base != nil {
			out[k] = base[i]
		} else {
			out[k] = i
		}
	}
	return out
}
