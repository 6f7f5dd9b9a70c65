package testcorpus

import (
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Split returns the corpus of the documents with n%every != 0 (training)
// and the rows of the others (held out) with their labels.
func Split(t testing.TB, c *engine.Corpus, every int) (*engine.Corpus, *sparse.CSR, []int) {
	t.Helper()
	var train, test []int
	for n := 0; n < c.Docs(); n++ {
		if n%every == 0 {
			test = append(test, n)
		} else {
			train = append(train, n)
		}
	}
	labels := func(idx []int) []int {
		out := make([]int, len(idx))
		for i, n := range idx {
			out[i] = c.Labels[n]
		}
		return out
	}
	tr, err := engine.NewCorpus(c.Name+"-train", c.Vocab, c.DT.SelectRows(train).T(), nil, labels(train), c.ClassNames)
	if err != nil {
		t.Fatal(err)
	}
	return tr, c.DT.SelectRows(test), labels(test)
}
