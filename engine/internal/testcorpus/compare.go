package testcorpus

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// DenseOf returns the CSR matrix as a gonum Dense.
func DenseOf(a *sparse.CSR) *mat.Dense {
	out := mat.NewDense(a.Rows, a.Cols, nil)
	for i := 0; i < a.Rows; i++ {
		idx, val := a.Row(i)
		for q, j := range idx {
			out.Set(i, int(j), val[q])
		}
	}
	return out
}

// MaxAbsDiff is max |a_ij − b_ij|; it panics when the shapes differ.
func MaxAbsDiff(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	if br, bc := b.Dims(); br != r || bc != c {
		panic(fmt.Sprintf("MaxAbsDiff: %d×%d vs %d×%d", r, c, br, bc))
	}
	m := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// BitsEqual reports whether a and b have the same shape and the same bits.
func BitsEqual(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	for i := 0; i < ar; i++ {
		for j := 0; j < ac; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}
