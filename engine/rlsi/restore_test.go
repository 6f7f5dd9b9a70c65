package rlsi

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"gonum.org/v1/gonum/mat"
)

// TestRestoreFoldsInAsFit: a model restored from a fit's factors and its λs
// as used folds in to the same bits as the fitted model, for every variant
// and for relative λs (restored with Lambdas, absolute).
func TestRestoreFoldsInAsFit(t *testing.T) {
	c := topicCorpus(t, 61, 70, 50, 4)
	x := randomSparse(7, 9, 70, 0.3)
	for _, variant := range allVariants {
		for _, relative := range []bool{false, true} {
			o := Options{K: 4, Lambda1: 0.2, Lambda2: 0.3, Variant: variant, RelativeLambda: relative,
				Stopping: engine.Stopping{MaxIter: 3, RelTol: -1}, InnerSweeps: 50, InnerTol: 1e-8, Seed: 2}
			fitted, _, err := o.Fit(context.Background(), c, nil)
			if err != nil {
				t.Fatal(err)
			}
			m := fitted.(*Model)
			r := o
			r.RelativeLambda = false
			r.Lambda1, r.Lambda2 = m.Lambdas()
			restored, err := r.Restore(m.TermTopics(), m.DocTopics())
			if err != nil {
				t.Fatal(err)
			}
			enginetest.SameFoldIn(t, fmt.Sprintf("%v relative=%v: restored fold-in", variant, relative), restored, m, x)
		}
	}
}

func TestRestoreErrors(t *testing.T) {
	u, v := mat.NewDense(5, 2, nil), mat.NewDense(4, 2, nil)
	nan := mat.NewDense(4, 2, nil)
	nan.Set(3, 1, math.NaN())
	for _, tc := range []struct {
		name string
		o    Options
		u, v *mat.Dense
		want string
	}{
		{"nil", Options{}, nil, v, "nil factor"},
		{"relative", Options{RelativeLambda: true}, u, v, "RelativeLambda"},
		{"columns", Options{}, u, mat.NewDense(4, 3, nil), "U is 5×2 and V is 4×3"},
		{"K", Options{K: 3}, u, v, "K = 3"},
		{"NaN", Options{}, u, nan, "V[3,1] = NaN"},
		{"lambda", Options{Lambda2: -1}, u, v, "Lambda2 = -1"},
	} {
		_, err := tc.o.Restore(tc.u, tc.v)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}
