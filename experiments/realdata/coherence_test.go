package realdata

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/metrics/coherence"
	"github.com/topicmf/topicmf/metrics/coherence/gensimref"
	"github.com/topicmf/topicmf/metrics/topics"
)

// coherenceReference builds collection name through the default pipeline
// with tf weights (so that LDA and PLSI take it) and returns the corpus
// with its token streams.
func coherenceReference(t *testing.T, name string) (*engine.Corpus, coherence.Reference) {
	t.Helper()
	col, _ := collection(t, name)
	c, vec, _, err := text.Fit(col, text.Options{Weighting: text.WeightTF, Norm: text.NormNone})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := quality.Reference(col, c.DocIDs, vec)
	if err != nil {
		t.Fatal(err)
	}
	return c, ref
}

// TestStreamsAreTheCounts checks that the re-tokenized streams hold
// exactly the term counts of the corpus they were built for.
func TestStreamsAreTheCounts(t *testing.T) {
	c, ref := coherenceReference(t, "cranfield")
	if len(ref.Docs) != c.Docs() {
		t.Fatalf("%d streams for %d documents", len(ref.Docs), c.Docs())
	}
	for n, doc := range ref.Docs {
		counts := map[int]float64{}
		for _, m := range doc {
			counts[int(m)]++
		}
		idx, val := c.DT.Row(n)
		if len(idx) != len(counts) {
			t.Fatalf("document %s: %d distinct terms in its stream, %d in the corpus", c.DocIDs[n], len(counts), len(idx))
		}
		for i, m32 := range idx {
			m, w := int(m32), val[i]
			if counts[m] != w {
				t.Fatalf("document %s term %q: %v in the stream, %v in the corpus", c.DocIDs[n], c.Vocab[m], counts[m], w)
			}
		}
	}
}

// TestCoherenceAgreesWithGensim fits three families (NMF, LDA by Gibbs
// sampling, PLSI) with K = 10 on a long-text collection (Cranfield) and a
// short-text one (STTM SearchSnippets) and checks every coherence measure
// of their top-10 topics against gensim's CoherenceModel on the same
// token streams, to 1e-9 per topic.
func TestCoherenceAgreesWithGensim(t *testing.T) {
	gensimref.Require(t)
	families := []struct {
		name   string
		params catalog.Params
	}{
		{"nmf", catalog.Params{"k": "10", "iters": "50"}},
		{"lda", catalog.Params{"k": "10", "iters": "40", "burnin": "20"}},
		{"plsi", catalog.Params{"k": "10", "iters": "30"}},
	}
	for _, data := range []string{"cranfield", "sttm-searchsnippets"} {
		c, ref := coherenceReference(t, data)
		var all [][]int32
		for _, f := range families {
			m, err := catalog.New(f.name, f.params)
			if err != nil {
				t.Fatal(err)
			}
			model, _, err := m.Fit(context.Background(), c, nil)
			if err != nil {
				t.Fatalf("%s on %s: %v", f.name, data, err)
			}
			for _, topic := range topics.TopTerms(model.TermTopics(), c.Vocab, coherence.DefaultTopN) {
				ids := make([]int32, len(topic))
				for i, term := range topic {
					ids[i] = int32(term.Index)
				}
				all = append(all, ids)
			}
		}
		dir := t.TempDir()
		if err := gensimref.Write(dir, ref, all); err != nil {
			t.Fatal(err)
		}
		want, err := gensimref.Scores(dir, coherence.All)
		if err != nil {
			t.Fatal(err)
		}
		got, err := coherence.Score(ref, all, coherence.All, coherence.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range coherence.All {
			if len(got[m]) != len(all) || len(want[m]) != len(all) {
				t.Fatalf("%s %s: %d and %d scores for %d topics", data, m, len(got[m]), len(want[m]), len(all))
			}
			worst := 0.0
			for k := range all {
				d := math.Abs(got[m][k] - want[m][k])
				worst = max(worst, d)
				if !(d <= 1e-9) {
					t.Errorf("%s %s topic %d (%s): %v, gensim %v", data, m, k, families[k/10].name, got[m][k], want[m][k])
				}
			}
			mean, _ := coherence.Mean(got[m])
			t.Logf("%s %s: mean %.6f over %d topics, largest difference from gensim %.3g", data, m, mean, len(all), worst)
		}
	}
}
