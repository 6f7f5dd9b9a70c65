package realdata

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/plsi"
	"gonum.org/v1/gonum/mat"
)

func TestPLSIMED(t *testing.T) {
	// On MED's raw term counts with K = 20: the likelihood never decreases
	// and a training document folds in to a distribution.
	c := med(t, "tf")
	iters := itersFor(30, 8)
	m, its := fitToLimit(t, plsi.Options{K: 20, Stopping: engine.Stopping{MaxIter: iters, RelTol: -1}, Seed: 1, FoldInTol: plsi.DefaultFoldInTol}, c, iters)
	factortest.NonIncreasing(t, "MED −L", its, 1e-13)
	t.Logf("MED %d×%d, K=20: −L %.6g after 1, %.6g after %d iterations; P(w|z) sparsity %.4f",
		c.Terms(), c.Docs(), its[0].Objective, its[iters-1].Objective, iters, its[iters-1].Sparsity[0].Value)
	got, err := m.FoldIn(context.Background(), c.DT.SelectRows([]int{0, 1032}))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if s := mat.Sum(got.RowView(i)); math.Abs(s-1) > 1e-12 {
			t.Errorf("fold-in row %d sums to %v", i, s)
		}
	}
}
