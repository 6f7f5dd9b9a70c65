package testcorpus

import (
	"fmt"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Grouped is a small labelled corpus with group structure: ks shared
// term blocks used by every class and kc blocks per class, documents in a
// shuffled class order so that the class-major layout is not the identity.
// Terms [0, ks·w) belong to shared topics (w terms each), then each class
// has kc blocks of w terms; every document mixes one shared and one class
// block plus sparse noise.
func Grouped(t testing.TB, seed uint64, np, perClass, ks, kc, w int) *engine.Corpus {
	t.Helper()
	rnd := engine.NewRand(seed)
	m := (ks + np*kc) * w
	n := np * perClass
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % np
	}
	rnd.Shuffle(n, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	var ts []sparse.Triplet
	for j := 0; j < n; j++ {
		p := labels[j]
		blocks := []int{}
		if ks > 0 {
			blocks = append(blocks, rnd.IntN(ks))
		}
		if kc > 0 {
			blocks = append(blocks, ks+p*kc+rnd.IntN(kc))
		}
		for i := 0; i < m; i++ {
			x := 0.0
			for _, b := range blocks {
				if i/w == b {
					x += 1 + rnd.Float64()
				}
			}
			if rnd.Float64() < 0.03 {
				x += 0.2 * rnd.Float64()
			}
			if x > 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: x})
			}
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	return Labelled(t, d, labels, np)
}

// Labelled wraps a term×document matrix as a labelled corpus named
// "group" with terms t0, t1, … and classes class0 … class(np−1).
func Labelled(t testing.TB, d *sparse.CSR, labels []int, np int) *engine.Corpus {
	t.Helper()
	names := make([]string, np)
	for p := range names {
		names[p] = fmt.Sprint("class", p)
	}
	return newCorpus(t, "group", d, labels, names)
}

// ClassLabels returns sizes[p] labels p for every class p, in an order
// shuffled by engine.NewRand(seed): classes of very different sizes
// (possibly empty) spread over the corpus.
func ClassLabels(seed uint64, sizes ...int) []int {
	var labels []int
	for p, size := range sizes {
		for i := 0; i < size; i++ {
			labels = append(labels, p)
		}
	}
	rnd := engine.NewRand(seed)
	rnd.Shuffle(len(labels), func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	return labels
}

// UnevenGroups is the corpus of the group models' worker-determinism
// tests: Grouped(9, 1, 1543, 3, 4, 3) (21 terms) relabelled by
// ClassLabels(9, 1200, 300, 40, 3) over 5 classes, class 4 empty, so that
// the classes are cut into different numbers of work units.
func UnevenGroups(t testing.TB) *engine.Corpus {
	t.Helper()
	labels := ClassLabels(9, 1200, 300, 40, 3)
	base := Grouped(t, 9, 1, len(labels), 3, 4, 3)
	return Labelled(t, base.D, labels, 5)
}
