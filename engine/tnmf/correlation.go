package tnmf

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/symmetric"
)

// rowBlock is the number of rows per block of the row loops here and in
// fit.go; a constant, so that block boundaries never depend on the number
// of workers.
const rowBlock = 64

// CountMode says how co-occurrences n(t_i, t_m) are counted.
type CountMode int

const (
	// PerDocument counts a pair once for every document that contains both
	// terms: n(t_i, t_m) = |{d : x_id > 0, x_md > 0}|. The default: the
	// paper's "the times of terms t_i and t_m co-occurred" (Section 3.1)
	// read as the number of short texts in which they co-occur. It depends
	// only on which terms a document contains, so it is the same for any
	// weighting of D (tf, tf-idf, boolean).
	PerDocument CountMode = iota
	// Multiplicity counts a pair by the product of the two terms' weights
	// in each document, n(t_i, t_m) = Σ_d x_id·x_md: the number of
	// (occurrence, occurrence) pairs when D holds raw counts (fit a "tf"
	// corpus for that reading).
	Multiplicity
)

var countModes = param.Enum[CountMode]{Pkg: "tnmf", Type: "CountMode", Noun: "co-occurrence count",
	Names: []string{PerDocument: "document", Multiplicity: "multiplicity"}}

func (c CountMode) String() string { return countModes.String(c) }

// ParseCountMode reads "document" (or "") or "multiplicity".
func ParseCountMode(s string) (CountMode, error) { return countModes.Parse(s) }

// CoOccurrence returns the M×M matrix of co-occurrence counts n(t_i, t_m)
// of the terms (rows) of D (M×N) given DT = Dᵀ, counted as mode says. The
// diagonal is zero: a term is not counted as co-occurring with itself (the
// paper's context vectors are over the other terms of a text). It is
// B·Bᵀ without its diagonal, B the 0/1 pattern of D (PerDocument) or D
// itself (Multiplicity), computed row-parallel in fixed blocks.
func CoOccurrence(p *parallel.Pool, d, dt *sparse.CSR, mode CountMode) *sparse.CSR {
	if mode == PerDocument {
		d, dt = pattern(d), pattern(dt)
	}
	return symmetric.Product(p, d, dt, true)
}

// pattern is a copy of a with every stored value set to 1.
func pattern(a *sparse.CSR) *sparse.CSR {
	val := make([]float64, len(a.Val))
	for i := range val {
		val[i] = 1
	}
	return &sparse.CSR{Rows: a.Rows, Cols: a.Cols, RowPtr: a.RowPtr, ColIdx: a.ColIdx, Val: val}
}

// PPMI returns the positive pointwise mutual information of a symmetric
// co-occurrence matrix n (Section 3.1):
//
//	w_im = PPMI(t_i, t_m) = max( log( P(t_i, t_m) / (P(t_i)·P(t_m)) ), 0 ),
//	P(t_i, t_m) = n(t_i, t_m) / T,   P(t_i) = r_i / T,
//	T = Σ_{j,l} n(t_j, t_l),          r_i = Σ_m n(t_i, t_m),
//
// so that w_im = max(ln(n_im·T / (r_i·r_m)), 0), with the natural logarithm
// (the base scales every w by the same factor, which the cosine of Section
// 3.1 ignores). T sums the whole matrix, each unordered pair twice, as the
// formula's Σ_{j,l} over ordered pairs says. Only positive values are
// stored; a pair that never co-occurs has P(t_i, t_m) = 0 and weight 0.
// T and the r_i are compensated sums in fixed blocks. It returns an error
// when T is not finite (counts that overflow float64, possible only for
// Multiplicity counts of huge weights): every weight would then be NaN, and
// dropping them would leave a silent all-zero S.
func PPMI(p *parallel.Pool, n *sparse.CSR) (*sparse.CSR, error) {
	if n.Rows != n.Cols {
		panic(fmt.Sprintf("tnmf.PPMI: %d×%d co-occurrence matrix is not square", n.Rows, n.Cols))
	}
	m := n.Rows
	r := make([]float64, m)
	nb := parallel.Blocks(m, rowBlock)
	part := make([]dense.Sum, nb)
	p.For(m, rowBlock, func(b, lo, hi int) {
		var t dense.Sum
		for i := lo; i < hi; i++ {
			var s dense.Sum
			_, val := n.Row(i)
			s.AddAll(val)
			r[i] = s.Value()
			t.AddSum(s)
		}
		part[b] = t
	})
	var total dense.Sum
	for _, s := range part {
		total.AddSum(s)
	}
	tt := total.Value()
	if math.IsInf(tt, 0) || math.IsNaN(tt) {
		return nil, fmt.Errorf("tnmf: PPMI: the co-occurrence counts sum to %v (float64 overflow), so no weight is defined", tt)
	}
	// Keep the positive values: count per row, then fill.
	keep := func(i int, j int32, v float64) (float64, bool) {
		if v <= 0 {
			return 0, false
		}
		w := math.Log((v / r[i]) * (tt / r[j]))
		return w, w > 0
	}
	counts := make([]int, m)
	p.For(m, rowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			idx, val := n.Row(i)
			c := 0
			for q, j := range idx {
				if _, ok := keep(i, j, val[q]); ok {
					c++
				}
			}
			counts[i] = c
		}
	})
	rowPtr := make([]int, m+1)
	for i, c := range counts {
		rowPtr[i+1] = rowPtr[i] + c
	}
	colIdx := make([]int32, rowPtr[m])
	val := make([]float64, rowPtr[m])
	p.For(m, rowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			idx, nv := n.Row(i)
			pos := rowPtr[i]
			for q, j := range idx {
				if w, ok := keep(i, j, nv[q]); ok {
					colIdx[pos], val[pos] = j, w
					pos++
				}
			}
		}
	})
	return &sparse.CSR{Rows: m, Cols: m, RowPtr: rowPtr, ColIdx: colIdx, Val: val}, nil
}

// Correlation is the term correlation of Section 3.1 with its
// intermediate matrices.
type Correlation struct {
	Mode CountMode
	// CoOccurrence is n(t_i, t_m) (M×M, zero diagonal).
	CoOccurrence *sparse.CSR
	// PPMI is the matrix of context vectors: row i is term t_i's vector
	// (w_i1, ..., w_iM) of positive PMI weights.
	PPMI *sparse.CSR
	// S is the term correlation matrix, the cosines of the PPMI vectors.
	S *symmetric.Matrix
}

// TermCorrelation builds the term correlation matrix S of Section 3.1 from
// D (M×N, terms × documents) and DT = Dᵀ: co-occurrence counts (mode),
// PPMI context vectors, then their cosines (stored as storage says).
func TermCorrelation(p *parallel.Pool, d, dt *sparse.CSR, mode CountMode, storage symmetric.Storage) (*Correlation, error) {
	if d == nil || dt == nil {
		return nil, fmt.Errorf("tnmf: nil term-document matrix")
	}
	if dt.Rows != d.Cols || dt.Cols != d.Rows {
		return nil, fmt.Errorf("tnmf: DT is %d×%d, want the transpose of the %d×%d D", dt.Rows, dt.Cols, d.Rows, d.Cols)
	}
	if mode != PerDocument && mode != Multiplicity {
		return nil, fmt.Errorf("tnmf: co-occurrence count %v, want PerDocument or Multiplicity", mode)
	}
	if storage < symmetric.StorageAuto || storage > symmetric.StorageDense {
		return nil, fmt.Errorf("tnmf: storage %v, want auto, sparse or dense", storage)
	}
	for i, v := range d.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			r, c := d.Locate(i)
			return nil, fmt.Errorf("tnmf: D[%d,%d] = %v, want finite and non-negative", r, c, v)
		}
	}
	n := CoOccurrence(p, d, dt, mode)
	w, err := PPMI(p, n)
	if err != nil {
		return nil, err
	}
	return &Correlation{Mode: mode, CoOccurrence: n, PPMI: w, S: symmetric.Cosine(p, w, storage)}, nil
}

// DocumentVectorCorrelation is the correlation the paper contrasts with
// (Section 3.1, Figure 3(a)): the cosine of the terms' document vectors
// (x_i1, ..., x_iN), the rows of D as weighted. Its density on short texts
// is what motivates the co-occurrence vectors.
func DocumentVectorCorrelation(p *parallel.Pool, d *sparse.CSR, storage symmetric.Storage) *symmetric.Matrix {
	return symmetric.Cosine(p, d, storage)
}
