package realdata

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/lda"
	"gonum.org/v1/gonum/mat"
)

func TestLDAMED(t *testing.T) {
	// On MED's raw term counts with K = 20 (α = 2.5, β = 0.1): log p(w|z)
	// rises well above its value after the first 10 sweeps, φ and θ are
	// distributions, and tf-idf weights are refused with a clear error.
	c := med(t, "tf")
	iters := itersFor(60, 20)
	m, its := fitToLimit(t, lda.Options{K: 20, Iters: iters, Seed: 1, BurnIn: lda.AutoBurnIn, FoldInBurnIn: lda.AutoBurnIn}, c, iters)
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
	tfidf := med(t, "tfidf")
	if _, _, err := (lda.Options{K: 20, Iters: 2, BurnIn: lda.AutoBurnIn, FoldInBurnIn: lda.AutoBurnIn}).Fit(context.Background(), tfidf, nil); err == nil || !strings.Contains(err.Error(), "not an integer") {
		t.Errorf("tf-idf corpus: %v", err)
	}
}
