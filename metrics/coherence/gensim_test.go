package coherence_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/topicmf/topicmf/metrics/coherence"
	"github.com/topicmf/topicmf/metrics/coherence/gensimref"
)

// tolerance is the largest difference allowed from gensim, per topic.
const tolerance = 1e-9

// syntheticReference draws documents of 1 to 150 tokens over a Zipf-like
// vocabulary, so that windows hold repeated words (where gensim's window
// rule differs from the exact one), documents are shorter than both
// windows.
func syntheticReference() (coherence.Reference, [][]int32) {
	rng := rand.New(rand.NewPCG(7, 8))
	const m = 60
	vocab := make([]string, m)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%02d", i)
	}
	zipf := rand.NewZipf(rng, 1.2, 2, m-1)
	docs := make([][]int32, 400)
	for i := range docs {
		L := 1 + rng.IntN(150)
		for range L {
			docs[i] = append(docs[i], int32(zipf.Uint64()))
		}
	}
	// Topics: 8 topics of 10 words drawn from the 40 most frequent...
	var topics [][]int32
	for range 8 {
		perm := rng.Perm(40)[:10]
		topic := make([]int32, len(perm))
		for i, p := range perm {
			topic[i] = int32(p)
		}
		topics = append(topics, topic)
	}
	// And one of rare words, some pairs of which never co-occur (where ε
	// matters).
	topics = append(topics, []int32{50, 51, 52, 53, 54, 55, 56, 57, 58, 1})
	return coherence.Reference{Vocab: vocab, Docs: docs}, topics
}

// maxDiff is the largest per-topic difference between got and want, and
// the topic where it is.
func maxDiff(got, want []float64) (float64, int) {
	worst, at := 0.0, -1
	if len(got) != len(want) {
		return math.Inf(1), -1
	}
	for k := range got {
		if d := math.Abs(got[k] - want[k]); d > worst || math.IsNaN(d) {
			worst, at = d, k
		}
	}
	return worst, at
}

// gensim 4.2 fails on an empty document with a sliding window, so none
// is drawn (documents of 1 token stand for the shortest).
//
// TestGensimSynthetic checks every measure against gensim's
// CoherenceModel on a synthetic reference corpus, and that the check
// notices a window or a smoothing constant changed (by one window
// position, by a factor of ten in ε).
func TestGensimSynthetic(t *testing.T) {
	gensimref.Require(t)
	ref, topics := syntheticReference()
	dir := t.TempDir()
	if err := gensimref.Write(dir, ref, topics); err != nil {
		t.Fatal(err)
	}
	want, err := gensimref.Scores(dir, coherence.All)
	if err != nil {
		t.Fatal(err)
	}
	got, err := coherence.Score(ref, topics, coherence.All, coherence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range coherence.All {
		if d, k := maxDiff(got[m], want[m]); d > tolerance {
			t.Errorf("%s: topic %d differs from gensim by %.3g (ours %v, gensim %v)", m, k, d, got[m][k], want[m][k])
		}
	}
	// Changed parameters must be noticed.
	for _, c := range []struct {
		name string
		opt  coherence.Options
		ms   []coherence.Measure
	}{
		{"window 11", coherence.Options{Window: 11}, []coherence.Measure{coherence.UCI, coherence.NPMI}},
		{"C_V window 111", coherence.Options{CVWindow: 111}, []coherence.Measure{coherence.CV}},
		{"ε 1e-11", coherence.Options{Epsilon: 1e-11}, []coherence.Measure{coherence.UCI, coherence.NPMI}},
		{"paper windows and ε", coherence.Options{Paper: true}, coherence.All},
	} {
		other, err := coherence.Score(ref, topics, c.ms, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range c.ms {
			if d, _ := maxDiff(other[m], want[m]); d <= tolerance {
				t.Errorf("%s: %s still agrees with gensim (max difference %.3g): the check cannot see the change", c.name, m, d)
			}
		}
	}
}
