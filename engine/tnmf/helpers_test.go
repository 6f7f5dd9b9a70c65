package tnmf

import (
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
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

// randomNonNeg is an r×c matrix with Uniform[0,1) entries, a fraction zero
// of them set to 0.
func randomNonNeg(r, c int, zero float64, seed uint64) *mat.Dense {
	g := engine.NewRand(seed)
	a := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if g.Float64() >= zero {
				a.Set(i, j, g.Float64())
			}
		}
	}
	return a
}
