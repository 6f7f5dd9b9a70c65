package retrieval

import (
	"math"
	"reflect"
	"testing"
)

// TestCrossValidateAlpha checks the choice by hand on 4 queries in 2
// folds. values[i][q] for α = 0, 0.5, 1:
//
//	α=0:   0.5 0.5 0.5 0.5
//	α=0.5: 0.9 0.1 0.9 0.1
//	α=1:   0.0 0.6 0.0 0.6
//
// With folds {0, 1} / {2, 3} (whatever the permutation, each fold's mean
// is read off the table), each α is chosen on the other fold.
func TestCrossValidateAlpha(t *testing.T) {
	alphas := []float64{0, 0.5, 1}
	values := [][]float64{{0.5, 0.5, 0.5, 0.5}, {0.9, 0.1, 0.9, 0.1}, {0, 0.6, 0, 0.6}}
	cv, err := CrossValidateAlpha(values, alphas, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	folds, _ := SplitQueries(4, 2, 1)
	mean := func(row []float64, idx []int) float64 {
		s := 0.0
		for _, q := range idx {
			s += row[q]
		}
		return s / float64(len(idx))
	}
	heldOut := make([]float64, 4)
	for f, fold := range cv.Folds {
		other := folds[1-f]
		// The α with the highest mean on the other fold (first on ties).
		best := 0
		for i := range alphas {
			if mean(values[i], other) > mean(values[best], other) {
				best = i
			}
		}
		if !reflect.DeepEqual(fold.Test, folds[f]) || fold.Alpha != alphas[best] ||
			fold.TrainMean != mean(values[best], other) || fold.TestMean != mean(values[best], folds[f]) {
			t.Errorf("fold %d: %+v; want test %v, α %g", f, fold, folds[f], alphas[best])
		}
		for _, q := range folds[f] {
			heldOut[q] = values[best][q]
		}
	}
	if !reflect.DeepEqual(cv.HeldOut, heldOut) || math.Abs(cv.HeldOutMean-mean(heldOut, []int{0, 1, 2, 3})) > 1e-15 {
		t.Errorf("held out %v (mean %g), want %v", cv.HeldOut, cv.HeldOutMean, heldOut)
	}
	// On all queries: α=0.5 and α=0 both average 0.5; α=1 0.3: the tie
	// goes to the smaller α, 0.
	if cv.Alpha != 0 || cv.AllMean != 0.5 {
		t.Errorf("all queries: α = %g (mean %g), want 0 (0.5)", cv.Alpha, cv.AllMean)
	}
	// Deterministic.
	again, _ := CrossValidateAlpha(values, alphas, 2, 1)
	if !reflect.DeepEqual(cv, again) {
		t.Error("two runs with the same seed differ")
	}
	if _, err := CrossValidateAlpha(values, alphas, 1, 1); err == nil {
		t.Error("1 fold: no error")
	}
	if _, err := CrossValidateAlpha(values[:2], alphas, 2, 1); err == nil {
		t.Error("rows and α differ: no error")
	}
}
