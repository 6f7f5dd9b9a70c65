package testcorpus

import (
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/synthetic"
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

// PlantedClassSplit is the held-out class-prediction corpus of the group
// families: a planted engine/synthetic corpus of 5 classes of unequal
// sizes (CV 0.8), Ks = 4 shared and Kc = 3 class topics, 800 terms, 1,500
// documents of mean length 80, split by Split(c, 5).
func PlantedClassSplit(t testing.TB) (*engine.Corpus, *sparse.CSR, []int) {
	t.Helper()
	cfg := synthetic.Config{M: 800, N: 1500, P: 5, Ks: 4, Kc: 3, Length: synthetic.LengthSpec{Mean: 80},
		Classes: synthetic.ClassSpec{Kind: synthetic.ClassCV, CV: 0.8}, Seed: 3}
	c, _, err := synthetic.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return Split(t, c, 5)
}

// UnevenClasses is the corpus of the per-class baselines' tests:
// Grouped(21, 3, 20, 2, 2, 4) relabelled over 4 classes so that class 2
// keeps 3 documents (the others go to class 0) and class 3 is empty.
func UnevenClasses(t testing.TB) *engine.Corpus {
	t.Helper()
	base := Grouped(t, 21, 3, 20, 2, 2, 4)
	labels := append([]int(nil), base.Labels...)
	n2 := 0
	for i, y := range labels {
		if y == 2 {
			if n2 >= 3 {
				labels[i] = 0
			}
			n2++
		}
	}
	return Labelled(t, base.D, labels, 4)
}
