package plsi

import (
	"context"
	"math"

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
	// On MED's raw term counts with K = 20: the likelihood never decreases
	// and a training document folds in to a distribution.
	c := medCorpus(t, "tf")
	iters := 30
	if testing.Short() {
		iters = 8
	}
	rec := engine.NewRecorder()
	m, st, err := Options{K: 20, Stopping: engine.Stopping{MaxIter: iters, RelTol: -1}, Seed: 1}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	its := rec.Iterations()
	if st.Reason != engine.IterationLimit || len(its) != iters {
		t.Fatalf("status %v, %d records", st, len(its))
	}
	for i := 1; i < len(its); i++ {
		if its[i].Objective > its[i-1].Objective*(1+1e-13) {
			t.Errorf("iteration %d: −L rose from %.17g to %.17g", i+1, its[i-1].Objective, its[i].Objective)
		}
	}
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
