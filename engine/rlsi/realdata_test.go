package rlsi

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
)

// medCorpus reads MED (MEDLINE 1033) through the registered reader and the
// text pipeline (SMART stop list, terms in at least 2 documents, tf-idf
// weights), or skips the test when $TOPICMF_DATA or the collection is
// absent.
func medCorpus(t testing.TB) *engine.Corpus {
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
	c, _, err := text.Build(col, text.Options{StopList: "smart", MinDF: 2, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if c.Docs() != 1033 {
		t.Fatalf("MED: %d documents, want 1033 (SOURCE.md)", c.Docs())
	}
	return c
}

func TestObjectiveNeverIncreasesMED(t *testing.T) {
	c := medCorpus(t)
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
	c := medCorpus(t)
	rec := engine.NewRecorder()
	m, st, err := Options{K: 20, Stopping: engine.Stopping{MaxIter: 5, RelTol: -1}}.Fit(context.Background(), c, rec)
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
