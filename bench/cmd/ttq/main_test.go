package main

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

func csr(t *testing.T, rows, cols int, ts []sparse.Triplet) *sparse.CSR {
	t.Helper()
	m, err := sparse.FromTriplets(rows, cols, ts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Hand-computed document completion. One topic: θ = 1, so the perplexity
// of held counts (2, 1, 0) under β = (1/2, 1/4, 1/4) is
// exp(−(2 log ½ + log ¼)/3) = 2^(4/3). Two topics with disjoint words
// (β = I) and observed counts (3, 1): the fixed point is
// θ = ((½ + 3)/(4 + 1), (½ + 1)/(4 + 1)) = (0.7, 0.3), so one held count of
// word 0 has perplexity 1/0.7.
func TestCompletionPerplexity(t *testing.T) {
	one := mat.NewDense(3, 1, []float64{0.5, 0.25, 0.25})
	obs := csr(t, 1, 3, []sparse.Triplet{{Row: 0, Col: 2, Val: 4}})
	held := csr(t, 1, 3, []sparse.Triplet{{Row: 0, Col: 0, Val: 2}, {Row: 0, Col: 1, Val: 1}})
	if got, want := completionPerplexity(one, obs, held), math.Pow(2, 4.0/3); math.Abs(got-want) > 1e-12*want {
		t.Errorf("one topic: perplexity %v, want %v", got, want)
	}
	two := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	obs = csr(t, 1, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 3}, {Row: 0, Col: 1, Val: 1}})
	held = csr(t, 1, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}})
	if got, want := completionPerplexity(two, obs, held), 1/0.7; math.Abs(got-want) > 1e-12*want {
		t.Errorf("two topics: perplexity %v, want %v", got, want)
	}
}
