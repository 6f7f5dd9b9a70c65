package tnmf

import (
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// randomShortCorpus draws n documents of 1..2·meanLen−1 distinct terms
// (uniform length) over m terms with Zipf-like term popularity and tf
// weights 1..3.
func randomShortCorpus(m, n, meanLen int, seed uint64) (d, dt *sparse.CSR) {
	r := engine.NewRand(seed)
	var ts []sparse.Triplet
	for j := 0; j < n; j++ {
		l := 1 + r.IntN(2*meanLen-1)
		seen := map[int]bool{}
		for len(seen) < min(l, m) {
			// term index ~ squared uniform: popular low indices
			u := r.Float64()
			seen[int(u*u*float64(m))] = true
		}
		for term := range seen {
			ts = append(ts, sparse.Triplet{Row: term, Col: j, Val: float64(1 + r.IntN(3))})
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		panic(err)
	}
	return d, d.T()
}
