package symnmf

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/sparse"
)

// TestFitScaleFree is the regression test of issue 11 item 6: on a corpus
// with entries of 1e308 the document norms overflowed, the cosine matrix A
// came out all zero and the fit reported "converged, objective 0". A is
// scale-free (cosines), so the fit on 1e308·D must be the fit on D, to
// rounding; and with K = 1 on these four documents (A has rank 4) the
// objective is far from 0.
func TestFitScaleFree(t *testing.T) {
	// Four terms × four documents: d0 = t0+t1, d1 = t0+t2, d2 = t2+t3,
	// d3 = t1+t3 (columns of D).
	pattern := [][2]int{{0, 0}, {1, 0}, {0, 1}, {2, 1}, {2, 2}, {3, 2}, {1, 3}, {3, 3}}
	corpus := func(v float64) *engine.Corpus {
		var tr []sparse.Triplet
		for _, p := range pattern {
			tr = append(tr, sparse.Triplet{Row: p[0], Col: p[1], Val: v})
		}
		d, err := sparse.FromTriplets(4, 4, tr)
		if err != nil {
			t.Fatal(err)
		}
		return testcorpus.CorpusOf(t, d)
	}
	fit := func(c *engine.Corpus) (float64, engine.Status) {
		m, st, err := Options{K: 1, Seed: 3, Stopping: engine.Stopping{MaxIter: 50}}.Fit(context.Background(), c, engine.NewRecorder())
		if err != nil || m == nil {
			t.Fatalf("Fit: %v", err)
		}
		return st.Objective, st
	}
	want, _ := fit(corpus(1))
	got, st := fit(corpus(1e308))
	if !(want > 1) {
		t.Fatalf("unscaled objective %v: test not discriminating", want)
	}
	if math.Abs(got-want) > 1e-12*want {
		t.Errorf("objective on 1e308·D = %v (%v), on D = %v: want equal to rounding", got, st, want)
	}
}
