package symmetric

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// Sum is Σ_ij S_ij for both storages: the entries i + j/8 of a 5×5 matrix
// sum to 5·(0+1+2+3+4) + 5·(0+1+2+3+4)/8 = 56.25, exactly; and pools of 1
// and 2 workers give the same bits on a matrix of several blocks.
func TestSum(t *testing.T) {
	dense := func(n int) *mat.Dense {
		a := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				a.Set(i, j, float64(i)+float64(j)/8)
			}
		}
		return a
	}
	both := func(a *mat.Dense) []*Matrix {
		return []*Matrix{NewDenseMatrix(a), NewSparseMatrix(testcorpus.CSROf(a))}
	}
	for _, s := range both(dense(5)) {
		if got := s.Sum(nil, 2); got != 56.25 {
			t.Errorf("dense %v: Sum = %v, want 56.25", s.IsDense(), got)
		}
	}
	for _, s := range both(dense(300)) {
		one, two := s.Sum(parallel.NewPool(1), 64), s.Sum(parallel.NewPool(2), 64)
		if math.Float64bits(one) != math.Float64bits(two) {
			t.Errorf("dense %v: 1 worker %v, 2 workers %v", s.IsDense(), one, two)
		}
	}
}
