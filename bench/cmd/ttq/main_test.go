package main

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/plotter"
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

// Hand-computed LSI residual: D = [[3, 0], [0, 4], [1, 0]] (terms ×
// documents) and U = e_1 keep only the first term's row, so the residual is
// ‖D‖² − 3² = 16 + 1 = 17; U = (e_1 + e_3)/√2 keeps the projection of each
// column on it: column 1 (3, 0, 1) → (2, 0, 2), residual 1 + 0 + 1 = 2 plus
// column 2's 16, so 18.
func TestProjectionResidual(t *testing.T) {
	d := csr(t, 3, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 3}, {Row: 1, Col: 1, Val: 4}, {Row: 2, Col: 0, Val: 1}})
	for _, c := range []struct {
		u    []float64
		want float64
	}{{[]float64{1, 0, 0}, 17}, {[]float64{1 / math.Sqrt2, 0, 1 / math.Sqrt2}, 18}} {
		if got := projectionResidual(d, mat.NewDense(3, 1, c.u)); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("U = %v: residual %v, want %v", c.u, got, c.want)
		}
	}
}

// secondsTo takes a curve's fastest fit at or below the target, not its
// first: on a loaded machine a longer fit can take less time.
func TestSecondsTo(t *testing.T) {
	c := &curve{pts: []plotter.XY{{X: 3, Y: 10}, {X: 2, Y: 9}, {X: 5, Y: 8}}}
	for _, x := range []struct{ target, want float64 }{{10, 2}, {9, 2}, {8.5, 5}, {7, math.Inf(1)}} {
		if got := secondsTo(c, x.target); got != x.want {
			t.Errorf("secondsTo(%v) = %v, want %v", x.target, got, x.want)
		}
	}
}

func TestFamilyOf(t *testing.T) {
	for label, want := range map[string]*family{"topicmf-nmf-mu": nmfFamily, "sklearn-nmf-cd": nmfFamily,
		"topicmf-lsi": lsiFamily, "sklearn-tsvd": lsiFamily, "gensim-lda": ldaFamily, "topicmf-gibbs": ldaFamily} {
		if got := familyOf(label); got != want {
			t.Errorf("familyOf(%q) = %s, want %s", label, got.name, want.name)
		}
	}
}
