package rlsi

import (
	"context"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
)

func TestObjectiveNeverIncreasesMED(t *testing.T) {
	c := testcorpus.MED(t, "")
	iters := 10
	if testing.Short() {
		iters = 4
	}
	checkMonotone(t, c, 10, iters, DefaultLambda1, DefaultLambda2)
}

func TestMEDDefaultFit(t *testing.T) {
	// The paper's setting (Uℓ1-Vℓ2, λ1 = 0.5, λ2 = 1.0) gives topics with
	// some zero weights (AvgComp < 1; Section 6.3 reports 0.0075 on AP, whose
	// scale differs) but not empty ones, and a training document folds in to
	// exactly its fitted representation.
	c := testcorpus.MED(t, "")
	rec := engine.NewRecorder()
	m, st, err := Options{K: 20, Stopping: engine.Stopping{MaxIter: 5, RelTol: -1}, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != engine.IterationLimit || st.Iterations != 5 {
		t.Fatalf("status %v", st)
	}
	last := rec.Iterations()[4]
	avgComp := 1 - last.Sparsity[0].Value
	if avgComp <= 0 || avgComp >= 1 {
		t.Errorf("AvgComp = %v, want sparse but non-empty topics", avgComp)
	}
	t.Logf("MED %d×%d, K=20: objective %.6g (loss %.6g), AvgComp %.4f, V sparsity %.4f",
		c.Terms(), c.Docs(), last.Objective, last.Terms[0].Value, avgComp, last.Sparsity[1].Value)
	got, err := m.FoldIn(context.Background(), c.DT.SelectRows([]int{0, 500, 1032}))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []int{0, 500, 1032} {
		for k := 0; k < 20; k++ {
			if got.At(i, k) != m.DocTopics().At(n, k) {
				t.Fatalf("fold-in of document %d differs at topic %d: %v vs %v", n, k, got.At(i, k), m.DocTopics().At(n, k))
			}
		}
	}
}
