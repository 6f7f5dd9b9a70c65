package graphnmf

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

func rows(t *testing.T, m int, docs [][]float64) *sparse.CSR {
	var ts []sparse.Triplet
	for i, d := range docs {
		for j, x := range d {
			if x != 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: x})
			}
		}
	}
	a, err := sparse.FromTriplets(len(docs), m, ts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Five documents over three terms (rows of X):
//
//	x0 = (1, 0, 0), x1 = (1, 1, 0), x2 = (0, 1, 0), x3 = (0, 0, 1), x4 = (0, 1, 1)
//
// Cosines by hand: c01 = 1/√2, c12 = 1/√2, c14 = 1/2, c24 = 1/√2, c34 = 1/√2,
// c02 = c03 = c13 = c23 = 0. Nearest neighbour (p = 1, ties to the smaller
// index): 0→1; 1→0 (c10 = c12 = 1/√2); 2→1 (c21 = c24); 3→4; 4→2 (c42 =
// c43 = 1/√2). Union: edges 0–1, 1–2, 3–4, 2–4. Degrees (1, 2, 2, 1, 2).
func TestGraphByHand(t *testing.T) {
	x := rows(t, 3, [][]float64{{1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 1}})
	r2 := 1 / math.Sqrt2
	idx, cos := Neighbors(nil, x, 1)
	wantIdx := []int32{1, 0, 1, 4, 2}
	for i := range wantIdx {
		if len(idx[i]) != 1 || idx[i][0] != wantIdx[i] || math.Abs(cos[i][0]-r2) > 1e-15 {
			t.Errorf("neighbour of %d: %v %v, want %d (cos 1/√2)", i, idx[i], cos[i], wantIdx[i])
		}
	}
	wantEdges := map[[2]int]bool{{0, 1}: true, {1, 2}: true, {3, 4}: true, {2, 4}: true}
	for _, w := range []Weighting{Binary, Heat, Cosine} {
		g := Graph(nil, x, 1, w, 0.5)
		for i := 0; i < 5; i++ {
			for j := 0; j < 5; j++ {
				want := 0.0
				if wantEdges[[2]int{min(i, j), max(i, j)}] {
					switch w {
					case Binary:
						want = 1
					case Heat: // exp(−(2 − 2·(1/√2))/0.5)
						want = math.Exp(-(2 - math.Sqrt2) / 0.5)
					case Cosine:
						want = r2
					}
				}
				if got := g.At(i, j); math.Abs(got-want) > 1e-15 {
					t.Errorf("%v: W[%d,%d] = %v, want %v", w, i, j, got, want)
				}
			}
		}
	}
	// p = 2: 0 has one positive neighbour only (1); 1→{0, 2}; 4→{2, 3}.
	idx, _ = Neighbors(nil, x, 2)
	if len(idx[0]) != 1 || len(idx[1]) != 2 || idx[1][1] != 2 || idx[4][0] != 2 || idx[4][1] != 3 {
		t.Errorf("p = 2 neighbours %v", idx)
	}
	// Bits do not depend on the number of workers.
	g1, g2 := Graph(parallel.NewPool(1), x, 2, Cosine, 1), Graph(parallel.NewPool(2), x, 2, Cosine, 1)
	for q := range g1.Val {
		if g1.Val[q] != g2.Val[q] || g1.ColIdx[q] != g2.ColIdx[q] {
			t.Fatal("graph differs across pools")
		}
	}
}

// One iteration against eq. 13–14 written with gonum dense products, and
// the objective against ‖D − UVᵀ‖² + λ·Tr(VᵀLV) with a dense L.
func TestOneIterationLiteral(t *testing.T) {
	c := factortest.Corpus(t, 40, 30, 3, 4)
	const k, lambda = 3, 7.5
	r := engine.NewRand(3)
	u0, v0 := mat.NewDense(40, k, nil), mat.NewDense(30, k, nil)
	for _, f := range []*mat.Dense{u0, v0} {
		raw := f.RawMatrix().Data
		for i := range raw {
			raw[i] = 0.1 + r.Float64()
		}
	}
	rec := engine.NewRecorder()
	m, _, err := Options{K: k, Lambda: lambda, Neighbors: 3, Weighting: Heat, U0: u0, V0: v0, NoNormalize: true,
		Stopping: engine.Stopping{MaxIter: 1, RelTol: engine.DefaultRelTol}}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	w := testcorpus.DenseOf(m.(*Model).Graph())
	d := testcorpus.DenseOf(c.D)
	deg := mat.NewDense(30, 30, nil)
	for i := 0; i < 30; i++ {
		s := 0.0
		for j := 0; j < 30; j++ {
			s += w.At(i, j)
			if w.At(i, j) != w.At(j, i) {
				t.Fatalf("W not symmetric at %d,%d", i, j)
			}
		}
		deg.Set(i, i, s)
	}
	var num, den, wv, dv, gu mat.Dense
	num.Mul(d.T(), u0)
	wv.Mul(w, v0)
	wv.Scale(lambda, &wv)
	num.Add(&num, &wv)
	gu.Mul(u0.T(), u0)
	den.Mul(v0, &gu)
	dv.Mul(deg, v0)
	dv.Scale(lambda, &dv)
	den.Add(&den, &dv)
	v1 := mat.NewDense(30, k, nil)
	v1.Apply(func(i, j int, x float64) float64 { return x * (num.At(i, j) + Eps) / (den.At(i, j) + Eps) }, v0)
	var numU, gv, denU mat.Dense
	numU.Mul(d, v1)
	gv.Mul(v1.T(), v1)
	denU.Mul(u0, &gv)
	u1 := mat.NewDense(40, k, nil)
	u1.Apply(func(i, j int, x float64) float64 { return x * (numU.At(i, j) + Eps) / (denU.At(i, j) + Eps) }, u0)
	for _, pair := range []struct {
		name      string
		got, want *mat.Dense
	}{{"V", m.DocTopics(), v1}, {"U", m.TermTopics(), u1}} {
		var diff mat.Dense
		diff.Sub(pair.got, pair.want)
		if e := mat.Norm(&diff, math.Inf(1)) / mat.Norm(pair.want, math.Inf(1)); e > 1e-12 {
			t.Errorf("%s differs from the literal update by %g", pair.name, e)
		}
	}
	var res, lap, lv, vlv mat.Dense
	res.Mul(u1, v1.T())
	res.Sub(d, &res)
	lap.Sub(deg, w)
	lv.Mul(&lap, v1)
	vlv.Mul(v1.T(), &lv)
	want := mat.Norm(&res, 2)*mat.Norm(&res, 2) + lambda*mat.Trace(&vlv)
	if got := rec.Iterations()[0].Objective; math.Abs(got-want) > 1e-10*want {
		t.Errorf("objective %v, want %v", got, want)
	}
}

// Monotone with a strong graph term (λ = 1000, cosine weights, p = 10),
// and normalization keeps UVᵀ with unit columns of U.
func TestStrongGraphAndNormalize(t *testing.T) {
	c := factortest.Corpus(t, 200, 400, 5, 8)
	rec := engine.NewRecorder()
	o := Options{K: 5, Lambda: 1000, Neighbors: 10, Weighting: Cosine, Stopping: engine.Stopping{MaxIter: 60, RelTol: -1}}
	m, _, err := o.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	factortest.NonIncreasing(t, "λ = 1000", rec.Iterations(), factortest.MonotoneSlack)
	o.NoNormalize = true
	raw, _, err := o.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	var a, b mat.Dense
	a.Mul(m.TermTopics(), m.DocTopics().T())
	b.Mul(raw.TermTopics(), raw.DocTopics().T())
	var diff mat.Dense
	diff.Sub(&a, &b)
	if e := mat.Norm(&diff, math.Inf(1)) / mat.Norm(&b, math.Inf(1)); e > 1e-12 {
		t.Errorf("normalization changed UVᵀ by %g", e)
	}
	for k := 0; k < 5; k++ {
		if n := mat.Norm(m.TermTopics().ColView(k), 2); math.Abs(n-1) > 1e-12 {
			t.Errorf("column %d of U has norm %v", k, n)
		}
	}
}

// TestFitsShareTheGraphOfEqualCorpora: a second fit on a corpus of the
// same content (another copy) and graph parameters uses the graph the
// first built, and computes the same bits; a corpus with one value changed
// gets its own graph.
func TestFitsShareTheGraphOfEqualCorpora(t *testing.T) {
	fit := func(c *engine.Corpus, k int) *Model {
		t.Helper()
		m, _, err := Options{K: k, Seed: 3, Stopping: engine.Stopping{MaxIter: 5}}.Fit(context.Background(), c, engine.NewRecorder())
		if err != nil {
			t.Fatal(err)
		}
		return m.(*Model)
	}
	a := fit(factortest.Corpus(t, 60, 80, 3, 8), 2)
	b := fit(factortest.Corpus(t, 60, 80, 3, 8), 3)
	if a.Graph() != b.Graph() {
		t.Fatal("the second fit on an equal corpus built its own graph")
	}
	a2 := fit(factortest.Corpus(t, 60, 80, 3, 8), 2)
	if !mat.Equal(a.TermTopics(), a2.TermTopics()) || !mat.Equal(a.DocTopics(), a2.DocTopics()) {
		t.Fatal("a fit with the shared graph differs from the one that built it")
	}
	changed := factortest.Corpus(t, 60, 80, 3, 8)
	changed.D.Val[0] *= 2
	changed.DT = changed.D.T()
	if c := fit(changed, 2); c.Graph() == a.Graph() {
		t.Fatal("a corpus with a changed value was served the old graph")
	}
}
