package lda

import (
	"context"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
)

func TestMED(t *testing.T) {
	// On MED's raw term counts with K = 20 (α = 2.5, β = 0.1): log p(w|z)
	// rises well above its value after the first 10 sweeps, φ and θ are
	// distributions, and tf-idf weights are refused with a clear error.
	c := testcorpus.MED(t, "tf")
	iters := 60
	if testing.Short() {
		iters = 20
	}
	rec := engine.NewRecorder()
	m, st, err := Options{K: 20, Iters: iters, Seed: 1, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	its := rec.Iterations()
	if st.Reason != engine.IterationLimit || len(its) != iters {
		t.Fatalf("status %v, %d records", st, len(its))
	}
	first, last := its[9].Objective, its[iters-1].Objective
	if !(last < first) {
		t.Errorf("−log p(w|z) %v after 10 sweeps, %v after %d", first, last, iters)
	}
	sec := 0.0
	for _, it := range its {
		sec += it.Seconds
	}
	t.Logf("MED %d×%d, K=20: −log p(w|z) %.6g after 10, %.6g after %d sweeps (%.3f s/sweep)",
		c.Terms(), c.Docs(), first, last, iters, sec/float64(iters))
	for z := 0; z < 20; z++ {
		if s := mat.Sum(m.TermTopics().ColView(z)); math.Abs(s-1) > 1e-12 {
			t.Errorf("φ column %d sums to %v", z, s)
		}
	}
	tfidf := testcorpus.MED(t, "tfidf")
	if _, _, err := (Options{K: 20, Iters: 2, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}).Fit(context.Background(), tfidf, nil); err == nil || !strings.Contains(err.Error(), "not an integer") {
		t.Errorf("tf-idf corpus: %v", err)
	}
}
