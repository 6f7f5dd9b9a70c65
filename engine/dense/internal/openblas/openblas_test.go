//go:build cblas

package openblas

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// TestSingleThreadedOpenBLAS checks that the cblas build uses OpenBLAS as
// gonum's BLAS with one thread, and that a product through it is right
// (2×2 by hand: [1 2; 3 4]·[5 6; 7 8] = [19 22; 43 50]).
func TestSingleThreadedOpenBLAS(t *testing.T) {
	if n := Threads(); n != 1 {
		t.Errorf("OpenBLAS runs %d threads, want 1", n)
	}
	if _, ok := blas64.Implementation().(netlib.Implementation); !ok {
		t.Errorf("gonum's BLAS is %T, want netlib.Implementation", blas64.Implementation())
	}
	a := blas64.General{Rows: 2, Cols: 2, Stride: 2, Data: []float64{1, 2, 3, 4}}
	b := blas64.General{Rows: 2, Cols: 2, Stride: 2, Data: []float64{5, 6, 7, 8}}
	c := blas64.General{Rows: 2, Cols: 2, Stride: 2, Data: make([]float64, 4)}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c)
	for i, want := range []float64{19, 22, 43, 50} {
		if c.Data[i] != want {
			t.Fatalf("Gemm: c = %v, want [19 22 43 50]", c.Data)
		}
	}
}
