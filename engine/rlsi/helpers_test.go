package rlsi

import (
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/sparse"
)

// randomSparse returns a deterministic m×n matrix with about density·m·n
// non-negative entries: each entry is present with that probability and
// then drawn from Uniform[0, 1) (engine.NewRand(seed), row by row).
func randomSparse(seed uint64, m, n int, density float64) *sparse.CSR {
	rnd := engine.NewRand(seed)
	a := &sparse.CSR{Rows: m, Cols: n, RowPtr: make([]int, m+1)}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if rnd.Float64() < density {
				if v := rnd.Float64(); v > 0 {
					a.ColIdx = append(a.ColIdx, int32(j))
					a.Val = append(a.Val, v)
				}
			}
		}
		a.RowPtr[i+1] = len(a.Val)
	}
	return a
}

// topicCorpus is a small corpus with planted sparse structure: D = U*V* +
// noise with K* sparse non-negative topics, so that the RLSI variants have
// something to find.
func topicCorpus(t testing.TB, seed uint64, m, n, k int) *engine.Corpus {
	t.Helper()
	rnd := engine.NewRand(seed)
	var ts []sparse.Triplet
	for j := 0; j < n; j++ {
		// Each document mixes two topics; topic z owns terms z, z+k, z+2k, …
		z1, z2 := rnd.IntN(k), rnd.IntN(k)
		for i := 0; i < m; i++ {
			w := 0.0
			if i%k == z1 {
				w += 1 + rnd.Float64()
			}
			if i%k == z2 {
				w += 0.5 * rnd.Float64()
			}
			if rnd.Float64() < 0.05 {
				w += 0.3 * rnd.Float64()
			}
			if w > 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: w})
			}
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	return testcorpus.CorpusOf(t, d)
}
