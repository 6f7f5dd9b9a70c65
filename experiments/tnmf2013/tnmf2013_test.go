package tnmf2013

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
)

// TestTable1Quick runs the quick Table 1 (Tweet, SearchSnippets). The Tweet
// numbers were computed independently with python3 (re.findall(r'[^\W_]+')
// on the lower-cased lines of Tweet.txt.gz, digit-only and 1-rune tokens
// dropped, then terms with df < 10 removed and emptied documents dropped):
// 2472 documents, 5097 terms, 8.554612 tokens per document; after pruning
// 2438 documents, 408 terms, 4.682527 tokens per document.
func TestTable1Quick(t *testing.T) {
	exptest.NeedData(t, Tweet, SearchSnippets)
	res := exptest.RunQuickJobs(t, Table1(), 2, "")
	want := map[string]float64{
		"documents": 2472, "words": 5097, "avg_words": 8.554612,
		"documents_df10": 2438, "words_df10": 408, "avg_words_df10": 4.682527,
		"classes": 89, "docs_per_word_df10": 2438.0 / 408,
	}
	for _, jr := range res.Jobs {
		if jr.Job.Dataset != Tweet {
			if v, _ := jr.Run.Metric("classes"); v != 8 {
				t.Errorf("%s: %v classes, want 8", jr.Job.Dataset, v)
			}
			continue
		}
		for m, w := range want {
			v, ok := jr.Run.Metric(m)
			if !ok || math.Abs(v-w) > 1e-6 {
				t.Errorf("Tweet %s = %v (stored %v), want %v", m, v, ok, w)
			}
		}
	}
	if v := res.Verdicts(); len(v) != 1 || v[0].Outcome != experiments.Held {
		t.Errorf("verdicts %+v", v)
	}
}
