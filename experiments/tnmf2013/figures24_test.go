package tnmf2013

import (
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
)

// documentFrequencies counts a term present in every document (idf 0, an
// empty row of the tf-idf D) as df = N.
func TestDocumentFrequencies(t *testing.T) {
	col := &datasets.Collection{Name: "toy", Docs: []datasets.Document{
		{ID: "1", Text: "apple banana"}, {ID: "2", Text: "apple cherry cherry"}, {ID: "3", Text: "apple banana"},
	}}
	c, _, err := text.Build(col, corpusOptions(1, "tfidf"))
	if err != nil {
		t.Fatal(err)
	}
	got := documentFrequencies(c)
	want := map[string]int{"apple": 3, "banana": 2, "cherry": 1}
	for i, term := range c.Vocab {
		if got[i] != want[term] {
			t.Errorf("df(%s) = %d, want %d", term, got[i], want[term])
		}
	}
}

func TestFigures24Quick(t *testing.T) {
	exptest.NeedData(t, Tweet, SearchSnippets)
	res := exptest.RunQuickJobs(t, Figures24(), 6, "")
	for _, jr := range res.Select(map[string]string{"fraction": "1", experiments.ColDataset: Tweet}) {
		// Whole-collection vocabulary sizes agree with Table 1's (the
		// python count there: 5097 terms, 408 with df ≥ 10).
		if v, _ := jr.Run.Metric("vocab_all"); v != 5097 {
			t.Errorf("Tweet vocab_all %v, want 5097", v)
		}
		if v, _ := jr.Run.Metric("vocab_df10"); v != 408 {
			t.Errorf("Tweet vocab_df10 %v, want 408", v)
		}
	}
	for _, jr := range res.Jobs {
		a, _ := jr.Run.Metric("vocab_all")
		b, _ := jr.Run.Metric("vocab_df4")
		c, _ := jr.Run.Metric("vocab_df10")
		if !(a >= b && b >= c && c > 0) {
			t.Errorf("%s: vocabularies %v ≥ %v ≥ %v > 0 violated", jr.Job.Label(), a, b, c)
		}
	}
	if v := res.Verdicts(); len(v) != 4 {
		t.Errorf("%d verdicts, want 4", len(v))
	}
}
