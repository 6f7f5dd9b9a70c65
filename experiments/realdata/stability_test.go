package realdata

import (
	"context"
	"math"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/metrics/stability"
)

// TestNMFStabilityAcrossSeeds fits NMF (K = 10, 100 iterations) on
// Cranfield with three seeds and pins the stability of its topics: the
// mean Hungarian-matched cosine over the three pairs of fits.
func TestNMFStabilityAcrossSeeds(t *testing.T) {
	col, _ := collection(t, "cranfield")
	c, _, err := text.Build(col, text.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var fits []*mat.Dense
	for seed := 1; seed <= 3; seed++ {
		m, err := catalog.New("nmf", catalog.Params{"k": "10", "iters": "100", "tol": "0", "seed": strconv.Itoa(seed)})
		if err != nil {
			t.Fatal(err)
		}
		model, _, err := m.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		fits = append(fits, model.TermTopics())
	}
	r, err := stability.Stability(fits)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("NMF K=10 on Cranfield, seeds 1-3: pairs %.6f, mean %.6f, sd %.6f", r.Pairs, r.Mean, r.SD)
	// Pinned 2026-11-27 (the fits are deterministic for their seeds).
	want := []float64{0.922739, 0.863562, 0.865221}
	for i, p := range r.Pairs {
		if math.Abs(p-want[i]) > 1e-6 {
			t.Errorf("pair %d: matched cosine %.6f, pinned %.6f", i, p, want[i])
		}
	}
	if math.Abs(r.Mean-0.883841) > 1e-6 || math.Abs(r.SD-0.033697) > 1e-6 || r.Min != r.Pairs[1] {
		t.Errorf("stability %+v: pinned mean 0.883841, sd 0.033697, min the second pair", r)
	}
}
