package testcorpus

import (
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
