package solve

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// TestMultiplicativeRows: with U = [I; 0] (orthonormal columns) the
// minimizer of ‖x − Uv‖² over v ≥ 0 is v = (x_1, x_2), which the update
// reaches (to ε) in one step from any positive start; row 1 is empty
// (v = 0), so sizes 0 and 1 of a row's support are both covered.
func TestMultiplicativeRows(t *testing.T) {
	u := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 0})
	x, err := sparse.FromTriplets(2, 3, []sparse.Triplet{{Row: 0, Col: 0, Val: 3}, {Row: 0, Col: 1, Val: 0.5}, {Row: 0, Col: 2, Val: 7}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := MultiplicativeRows(context.Background(), nil, "m", u, x, engine.Stopping{MaxIter: 50, RelTol: 1e-14}, 1e-16)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{3, 0.5}, {0, 0}}
	for i, row := range want {
		for j, w := range row {
			if got := v.At(i, j); math.Abs(got-w) > 1e-12 {
				t.Errorf("v[%d,%d] = %v, want %v", i, j, got, w)
			}
		}
	}
	bad, _ := sparse.FromTriplets(1, 3, []sparse.Triplet{{Row: 0, Col: 1, Val: -1}})
	if _, err := MultiplicativeRows(context.Background(), nil, "m", u, bad, engine.Stopping{}, 1e-16); err == nil || !strings.Contains(err.Error(), "m: FoldIn: X[0,1] = -1") {
		t.Errorf("negative entry: error %v, want one naming X[0,1]", err)
	}
	empty, _ := sparse.FromTriplets(0, 3, nil)
	if v, err := MultiplicativeRows(context.Background(), nil, "m", u, empty, engine.Stopping{}, 1e-16); err != nil || !v.IsEmpty() {
		t.Errorf("no rows: %v, %v", v, err)
	}
}

// TestMultiplicativeLoss: the returned loss is ‖x − Uv‖² at the returned v,
// computed directly here (U 3×2, x = (1, 2, 3)).
func TestMultiplicativeLoss(t *testing.T) {
	u := []float64{1, 0.5, 0, 1, 2, 1} // rows (1, 0.5), (0, 1), (2, 1)
	x := []float64{1, 2, 3}
	g := make([]float64, 4)
	xu := make([]float64, 2)
	for i := 0; i < 3; i++ {
		for a := 0; a < 2; a++ {
			xu[a] += u[i*2+a] * x[i]
			for b := 0; b < 2; b++ {
				g[a*2+b] += u[i*2+a] * u[i*2+b]
			}
		}
	}
	v := make([]float64, 2)
	f := Multiplicative(context.Background(), v, xu, g, make([]float64, 2), 14, 1, 1e-16, engine.Stopping{MaxIter: 7, RelTol: -1})
	want := 0.0
	for i := 0; i < 3; i++ {
		r := x[i] - u[i*2]*v[0] - u[i*2+1]*v[1]
		want += r * r
	}
	if math.Abs(f-want) > 1e-12 {
		t.Errorf("loss %v, want ‖x − Uv‖² = %v", f, want)
	}
}
