package rlsi

import (
	"bufio"
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// medCorpus builds a tf-idf term-document matrix of MED (MEDLINE 1033) from
// $TOPICMF_DATA/medline/med.tar.gz, or skips the test when it is absent.
//
// Test-only fallback until the collection readers and text pipeline are
// registered: documents are the ".W" text of MED.ALL, tokens are maximal
// runs of letters lower-cased, of length ≥ 3; terms in fewer than 2
// documents are dropped; weights are (1 + ln tf)·ln(N/df).
func medCorpus(t testing.TB) *engine.Corpus {
	t.Helper()
	dir := os.Getenv("TOPICMF_DATA")
	if dir == "" {
		t.Skip("TOPICMF_DATA is not set: need medline/med.tar.gz for the MED test")
	}
	path := filepath.Join(dir, "medline", "med.tar.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("MED collection absent: %v", err)
	}
	var docs []map[string]int
	err := datasets.EachTarGzMember(path, func(name string, r io.Reader) error {
		if filepath.Base(name) != "MED.ALL" {
			return nil
		}
		sc := bufio.NewScanner(r)
		inText := false
		for sc.Scan() {
			line := strings.TrimRight(sc.Text(), "\r")
			switch {
			case strings.HasPrefix(line, ".I"):
				docs = append(docs, map[string]int{})
				inText = false
			case strings.HasPrefix(line, ".W"):
				inText = true
			case inText && len(docs) > 0:
				for _, tok := range strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return !unicode.IsLetter(r) }) {
					if len(tok) >= 3 {
						docs[len(docs)-1][tok]++
					}
				}
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1033 {
		t.Fatalf("MED.ALL: %d documents, want 1033 (SOURCE.md)", len(docs))
	}
	df := map[string]int{}
	for _, d := range docs {
		for w := range d {
			df[w]++
		}
	}
	var vocab []string
	for w, c := range df {
		if c >= 2 {
			vocab = append(vocab, w)
		}
	}
	sort.Strings(vocab)
	index := map[string]int{}
	for i, w := range vocab {
		index[w] = i
	}
	var ts []sparse.Triplet
	n := float64(len(docs))
	for j, d := range docs {
		for w, tf := range d {
			if i, ok := index[w]; ok {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: (1 + math.Log(float64(tf))) * math.Log(n/float64(df[w]))})
			}
		}
	}
	d, err := sparse.FromTriplets(len(vocab), len(docs), ts)
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.NewCorpus("med", vocab, d, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
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
