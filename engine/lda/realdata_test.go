package lda

import (
	"context"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
	"os"
	"path/filepath"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
)

// medCorpus reads MED (MEDLINE 1033) through the registered reader and the
// text pipeline (SMART stop list, terms in at least 2 documents, the given
// weighting), or skips the test when $TOPICMF_DATA or the collection is
// absent.
func medCorpus(t testing.TB, weighting string) *engine.Corpus {
	t.Helper()
	dir := os.Getenv("TOPICMF_DATA")
	if dir == "" {
		t.Skip("TOPICMF_DATA is not set: need the MED collection (medline/med.tar.gz)")
	}
	src, err := datasets.Lookup("med")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range src.Files {
		if _, err := os.Stat(filepath.Join(dir, f.Path)); err != nil {
			t.Skipf("MED collection absent: %v", err)
		}
	}
	col, err := src.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := text.Build(col, text.Options{StopList: "smart", MinDF: 2, Weighting: weighting, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if c.Docs() != 1033 {
		t.Fatalf("MED: %d documents, want 1033 (SOURCE.md)", c.Docs())
	}
	return c
}

func TestMED(t *testing.T) {
	// On MED's raw term counts with K = 20 (α = 2.5, β = 0.1): log p(w|z)
	// rises well above its value after the first 10 sweeps, φ and θ are
	// distributions, and tf-idf weights are refused with a clear error.
	c := medCorpus(t, "tf")
	iters := 60
	if testing.Short() {
		iters = 20
	}
	rec := engine.NewRecorder()
	m, st, err := Options{K: 20, Iters: iters, Seed: 1}.Fit(context.Background(), c, rec)
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
	tfidf := medCorpus(t, "tfidf")
	if _, _, err := (Options{K: 20, Iters: 2}).Fit(context.Background(), tfidf, nil); err == nil || !strings.Contains(err.Error(), "not an integer") {
		t.Errorf("tf-idf corpus: %v", err)
	}
}
