package graphnmf

import (
	"math"
	"sort"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Weighting is how an edge of the p-nearest-neighbour graph is weighted
// (Cai et al. 2011, Section 3: 0-1, heat kernel, dot product).
type Weighting int

const (
	// Binary: W_ij = 1 for an edge (Cai et al.'s 0-1 weighting, the one
	// used in their experiments). The default.
	Binary Weighting = iota
	// Heat: W_ij = exp(−‖x̃_i − x̃_j‖²/σ) on the unit-normalized document
	// vectors x̃, i.e. exp(−(2 − 2cos(x_i, x_j))/σ).
	Heat
	// Cosine: W_ij = x̃_iᵀx̃_j = cos(x_i, x_j) (Cai et al.'s dot-product
	// weighting on unit-normalized vectors).
	Cosine
)

var weightings = param.Enum[Weighting]{Pkg: "graphnmf", Type: "Weighting", Noun: "weighting",
	Names: []string{Binary: "binary", Heat: "heat", Cosine: "cosine"}}

func (w Weighting) String() string { return weightings.String(w) }

// ParseWeighting reads "binary" (or ""), "heat" or "cosine".
func ParseWeighting(s string) (Weighting, error) { return weightings.Parse(s) }

// graphBlock is the number of documents per block of the neighbour search.
const graphBlock = 256

// Neighbors returns, for every row of X (documents, N×M), the indices of
// its p nearest neighbours by cosine similarity among the other rows with
// positive similarity (fewer when fewer share a term with it), most similar
// first, ties broken by the smaller index, with their cosines. Rows are
// handled in fixed blocks, each with its own accumulator; the cosine of a
// pair adds the products of their shared terms in increasing term order,
// so cos(i, j) and cos(j, i) are the same bits.
func Neighbors(pool *parallel.Pool, x *sparse.CSR, p int) (idx [][]int32, cos [][]float64) {
	xn := normalizeRows(x)
	xt := xn.T()
	n := x.Rows
	idx, cos = make([][]int32, n), make([][]float64, n)
	pool.For(n, graphBlock, func(_, lo, hi int) {
		acc := make([]float64, n)
		seen := make([]bool, n)
		var touched []int32
		for i := lo; i < hi; i++ {
			touched = touched[:0]
			terms, vals := xn.Row(i)
			for q, m := range terms {
				docs, dv := xt.Row(int(m))
				for r, j := range docs {
					if int(j) == i {
						continue
					}
					if !seen[j] {
						seen[j] = true
						touched = append(touched, j)
					}
					acc[j] += vals[q] * dv[r]
				}
			}
			sort.Slice(touched, func(a, b int) bool {
				ja, jb := touched[a], touched[b]
				if acc[ja] != acc[jb] {
					return acc[ja] > acc[jb]
				}
				return ja < jb
			})
			for _, j := range touched {
				if len(idx[i]) < p && acc[j] > 0 {
					idx[i] = append(idx[i], j)
					cos[i] = append(cos[i], acc[j])
				}
				acc[j], seen[j] = 0, false
			}
		}
	})
	return idx, cos
}

// normalizeRows scales every non-zero row of a to unit Euclidean norm.
func normalizeRows(a *sparse.CSR) *sparse.CSR {
	val := make([]float64, len(a.Val))
	for i := 0; i < a.Rows; i++ {
		s, e := a.RowPtr[i], a.RowPtr[i+1]
		ss := 0.0
		for _, v := range a.Val[s:e] {
			ss += v * v
		}
		if ss == 0 {
			continue
		}
		inv := 1 / math.Sqrt(ss)
		for q := s; q < e; q++ {
			val[q] = a.Val[q] * inv
		}
	}
	return &sparse.CSR{Rows: a.Rows, Cols: a.Cols, RowPtr: a.RowPtr, ColIdx: a.ColIdx, Val: val}
}

// Graph returns the symmetric weight matrix W (N×N, zero diagonal) of the
// p-nearest-neighbour graph of the rows of X (Cai et al. 2011, Section 3):
// W_ij > 0 iff j is among the p nearest neighbours of i or i among those
// of j (by cosine; see Neighbors), weighted as w says (sigma is the heat
// kernel's σ).
func Graph(pool *parallel.Pool, x *sparse.CSR, p int, w Weighting, sigma float64) *sparse.CSR {
	idx, cos := Neighbors(pool, x, p)
	type edge struct {
		i, j int32
		c    float64
	}
	var edges []edge
	for i := range idx {
		for q, j := range idx[i] {
			edges = append(edges, edge{int32(i), j, cos[i][q]}, edge{j, int32(i), cos[i][q]})
		}
	}
	sort.Slice(edges, func(a, b int) bool {
		if edges[a].i != edges[b].i {
			return edges[a].i < edges[b].i
		}
		return edges[a].j < edges[b].j
	})
	n := x.Rows
	g := &sparse.CSR{Rows: n, Cols: n, RowPtr: make([]int, n+1)}
	for q, e := range edges {
		if q > 0 && edges[q-1].i == e.i && edges[q-1].j == e.j {
			continue // the pair chose each other: one edge
		}
		var v float64
		switch w {
		case Binary:
			v = 1
		case Heat:
			v = math.Exp(-(2 - 2*e.c) / sigma)
		case Cosine:
			v = e.c
		}
		g.ColIdx = append(g.ColIdx, e.j)
		g.Val = append(g.Val, v)
		g.RowPtr[e.i+1]++
	}
	for i := 0; i < n; i++ {
		g.RowPtr[i+1] += g.RowPtr[i]
	}
	return g
}
