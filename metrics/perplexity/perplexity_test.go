package perplexity

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine/sparse"
)

func csr(t *testing.T, rows, cols int, ts ...sparse.Triplet) *sparse.CSR {
	t.Helper()
	x, err := sparse.FromTriplets(rows, cols, ts)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestSplitAlternates: document 0 has term 0 ×3, term 2 ×2: tokens
// 0 0 0 2 2 go observed, held, observed, held, observed.
func TestSplitAlternates(t *testing.T) {
	x := csr(t, 2, 3, sparse.Triplet{Row: 0, Col: 0, Val: 3}, sparse.Triplet{Row: 0, Col: 2, Val: 2}, sparse.Triplet{Row: 1, Col: 1, Val: 1})
	o, h, err := Split(x)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int][2]float64{{0, 0}: {2, 1}, {0, 2}: {1, 1}, {1, 1}: {1, 0}}
	for key, w := range want {
		if got := [2]float64{o.At(key[0], key[1]), h.At(key[0], key[1])}; got != w {
			t.Errorf("document %d term %d: observed, held out = %v, want %v", key[0], key[1], got, w)
		}
	}
	if _, _, err := Split(csr(t, 1, 1, sparse.Triplet{Row: 0, Col: 0, Val: 1.5})); err == nil {
		t.Error("a count of 1.5 was accepted")
	}
}

// TestScoreByHand: two topics over three terms, one document with θ =
// (0.25, 0.75) holding out terms 0 and 2 once each.
func TestScoreByHand(t *testing.T) {
	phi := mat.NewDense(3, 2, []float64{
		0.5, 0.1,
		0.5, 0.1,
		0, 0.8,
	})
	theta := mat.NewDense(1, 2, []float64{1, 3}) // normalized to 0.25, 0.75
	h := csr(t, 1, 3, sparse.Triplet{Row: 0, Col: 0, Val: 1}, sparse.Triplet{Row: 0, Col: 2, Val: 1})
	p0 := 0.25*0.5 + 0.75*0.1
	p2 := 0.25*0 + 0.75*0.8
	want := math.Exp(-(math.Log(p0) + math.Log(p2)) / 2)
	got, err := Score(phi, theta, h)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("perplexity %v, want %v", got, want)
	}
}

// fixedModel folds every document in to the same θ.
type fixedModel struct{ phi, theta *mat.Dense }

func (m fixedModel) TermTopics() *mat.Dense { return m.phi }
func (m fixedModel) DocTopics() *mat.Dense  { return m.theta }
func (m fixedModel) FoldIn(_ context.Context, x *sparse.CSR) (*mat.Dense, error) {
	_, k := m.phi.Dims()
	out := mat.NewDense(x.Rows, k, nil)
	for d := range x.Rows {
		out.SetRow(d, m.theta.RawRowView(0))
	}
	return out, nil
}

// TestCompletionUniform: a model whose every topic is uniform over M terms
// has perplexity M on any held-out tokens.
func TestCompletionUniform(t *testing.T) {
	const m = 7
	phi := mat.NewDense(m, 2, nil)
	for w := range m {
		phi.Set(w, 0, 1)
		phi.Set(w, 1, 2) // normalized per column: 1/7 either way
	}
	model := fixedModel{phi: phi, theta: mat.NewDense(1, 2, []float64{0.3, 0.7})}
	x := csr(t, 2, m, sparse.Triplet{Row: 0, Col: 3, Val: 4}, sparse.Triplet{Row: 1, Col: 6, Val: 3}, sparse.Triplet{Row: 1, Col: 0, Val: 2})
	got, err := Completion(context.Background(), model, x)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-m) > 1e-12 {
		t.Errorf("uniform model: perplexity %v, want %d", got, m)
	}
}
