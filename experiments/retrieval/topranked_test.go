package retrieval

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopRankedIsTheSortedPrefix: the selection returns exactly the
// first k documents of the full sort, in the same order, with many tied
// scores (broken by the document order), for k below, at and above half
// the documents and beyond their number.
func TestTopRankedIsTheSortedPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + r.IntN(400)
		score := make([]float64, n)
		for i := range score {
			score[i] = float64(r.IntN(7)) / 3 // few distinct values: many ties
			if trial%3 == 0 {
				score[i] = r.NormFloat64()
			}
		}
		order := r.Perm(n)
		for _, k := range []int{0, 1, r.IntN(n) + 1, n / 3, n / 2, n - 1, n, n + 5} {
			want := identity(n)
			sortRanked(want, score, order)
			want = want[:max(0, min(k, n))]
			got := topRanked(identity(n), score, order, k)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, n = %d, k = %d: topRanked = %v, the sorted prefix %v", trial, n, k, got, want)
			}
		}
	}
}
