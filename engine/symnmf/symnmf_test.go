package symnmf

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/symmetric"
	"gonum.org/v1/gonum/mat"
)

func toMatrix(a *mat.Dense, asSparse bool) *symmetric.Matrix {
	if !asSparse {
		return symmetric.NewDenseMatrix(a)
	}
	return symmetric.NewSparseMatrix(testcorpus.CSROf(a))
}

// A planted factorization A = H*H*ᵀ (H* ≥ 0, full column rank) is a fixed
// point of the PGD step: ∇f(H*) = 0, so α = 1 is accepted and H_new = H*.
// A perturbed H* moves and f decreases.
func TestStepFixedPoint(t *testing.T) {
	for _, k := range []int{1, 4} {
		hs := testcorpus.RandomNonNeg(50, k, 0.4, uint64(k))
		var a mat.Dense
		a.Mul(hs, hs.T())
		for _, sp := range []bool{false, true} {
			am := toMatrix(&a, sp)
			norm2 := am.FrobeniusSq(nil)
			cur, next := newState(50, k), newState(50, k)
			cur.h.Copy(hs)
			cur.eval(nil, am, norm2)
			grad := mat.NewDense(50, k, nil)
			// ∇f(H*) is 0 up to rounding, so any accepted α leaves H*; the
			// Armijo test itself compares f values that are rounding noise
			// here (f(H*) = 0 evaluated as ‖A‖² − 2⟨H, AH⟩ + ‖G‖²), so the
			// search may also fail, which leaves H unchanged.
			alpha, ok := Step(nil, am, norm2, cur, next, grad, DefaultSigma, DefaultBeta)
			t.Logf("k=%d sparse=%v: accepted %v, α = %g", k, sp, ok, alpha)
			var d mat.Dense
			d.Sub(next.h, hs)
			if e := mat.Norm(&d, math.Inf(1)); e > 1e-10 {
				t.Errorf("k=%d sparse=%v: ‖Step(H*) − H*‖ = %g, want ≤ 1e-10", k, sp, e)
			}
			pert := mat.DenseCopyOf(hs)
			pert.Set(3, 0, pert.At(3, 0)+1)
			cur.h.Copy(pert)
			cur.eval(nil, am, norm2)
			if _, ok := Step(nil, am, norm2, cur, next, grad, DefaultSigma, DefaultBeta); !ok {
				t.Fatal("no step from the perturbed point")
			}
			d.Sub(next.h, pert)
			if mat.Norm(&d, math.Inf(1)) < 1e-6 || !(next.f < cur.f) {
				t.Errorf("k=%d: perturbed point did not move down: f %v → %v", k, cur.f, next.f)
			}
		}
	}
}

// ∇f = 4(H·HᵀH − AH) against central differences of f = ‖A − HHᵀ‖²_F
// computed densely.
func TestGradientFiniteDifferences(t *testing.T) {
	h := testcorpus.RandomNonNeg(12, 3, 0, 5)
	araw := testcorpus.RandomNonNeg(12, 12, 0.5, 6)
	var a mat.Dense
	a.Add(araw, araw.T())
	f := func(h *mat.Dense) float64 {
		var r mat.Dense
		r.Mul(h, h.T())
		r.Sub(&a, &r)
		n := mat.Norm(&r, 2)
		return n * n
	}
	am := toMatrix(&a, true)
	s := newState(12, 3)
	s.h.Copy(h)
	s.eval(nil, am, am.FrobeniusSq(nil))
	if math.Abs(s.f-f(h)) > 1e-12*f(h) {
		t.Errorf("f = %v, dense %v", s.f, f(h))
	}
	grad := mat.NewDense(12, 3, nil)
	gradient(nil, grad, s)
	const e = 1e-6
	for i := 0; i < 12; i++ {
		for j := 0; j < 3; j++ {
			hp, hm := mat.DenseCopyOf(h), mat.DenseCopyOf(h)
			hp.Set(i, j, h.At(i, j)+e)
			hm.Set(i, j, h.At(i, j)-e)
			fd := (f(hp) - f(hm)) / (2 * e)
			if math.Abs(fd-grad.At(i, j)) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("∂f/∂H[%d,%d] = %v, finite difference %v", i, j, grad.At(i, j), fd)
			}
		}
	}
}

func TestAssign(t *testing.T) {
	h := mat.NewDense(4, 3, []float64{
		0.1, 0.5, 0.2,
		0.3, 0.3, 0.1, // tie → smallest index
		0, 0, 0, // unassigned
		0, 0, 2,
	})
	got := Assign(h)
	want := []int{1, 0, -1, 2}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Assign row %d = %d, want %d", i, got[i], want[i])
		}
	}
}

// On two groups of documents with disjoint vocabularies A is block
// diagonal, and SymNMF with K = 2 separates the groups exactly. Fold-in of
// a training document reaches the KKT point of its NNLS problem.
func TestTwoBlocksAndFoldIn(t *testing.T) {
	r := engine.NewRand(9)
	var ts []sparse.Triplet
	for j := 0; j < 60; j++ {
		base := 0
		if j >= 30 {
			base = 20
		}
		for q := 0; q < 4; q++ {
			ts = append(ts, sparse.Triplet{Row: base + r.IntN(20), Col: j, Val: 1})
		}
	}
	d, err := sparse.FromTriplets(40, 60, ts)
	if err != nil {
		t.Fatal(err)
	}
	c := testcorpus.CorpusOf(t, d)
	m, st, err := Options{K: 2, Stopping: engine.Stopping{MaxIter: 300, RelTol: engine.DefaultRelTol}, Pool: parallel.NewPool(2)}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl := m.(*Model).Clusters()
	for j := 1; j < 60; j++ {
		same := (j < 30) == (0 < 30)
		if (cl[j] == cl[0]) != same {
			t.Fatalf("%v: clusters %v do not separate the blocks", st, cl)
		}
	}
	x := c.DT.SelectRows([]int{0, 45})
	f, err := m.FoldIn(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	// KKT of min ‖a − Hh‖²: gradient 2(HᵀHh − Hᵀa) ≥ 0, = 0 where h > 0,
	// with a computed directly as cosines.
	a := symmetric.Cosine(nil, c.DT, symmetric.StorageDense).Dense()
	h := m.DocTopics()
	for r, doc := range []int{0, 45} {
		for k := 0; k < 2; k++ {
			g := 0.0
			for n := 0; n < 60; n++ {
				hn := 0.0
				for l := 0; l < 2; l++ {
					hn += h.At(n, l) * f.At(r, l)
				}
				g += 2 * h.At(n, k) * (hn - a.At(doc, n))
			}
			if g < -1e-6 || (f.At(r, k) > 0 && math.Abs(g) > 1e-6) {
				t.Errorf("fold-in of document %d: KKT fails at %d: h=%g g=%g", doc, k, f.At(r, k), g)
			}
		}
	}
	if got := Assign(f); got[0] != cl[0] || got[1] != cl[45] {
		t.Errorf("fold-in clusters %v, training %d %d", got, cl[0], cl[45])
	}
}

// The factored A = ÃÃᵀ multiplies like the stored cosine matrix
// (symmetric.Cosine) to rounding, with an empty document (zero row and column
// of A) included, and gives the same bits for 1 and 2 workers.
func TestFactoredMatchesStored(t *testing.T) {
	x := testcorpus.RandomNonNeg(30, 200, 0.97, 11) // documents × terms, ~6 terms each
	for j := 0; j < 200; j++ {
		x.Set(7, j, 0)
	}
	dt := testcorpus.CSROf(x)
	a := symmetric.Cosine(nil, dt, symmetric.StorageSparse)
	f := newFactored(dt, 1<<30, 4)
	if f == nil {
		t.Fatal("newFactored returned nil")
	}
	if newFactored(dt, 2*len(dt.Val), 4) != nil {
		t.Error("newFactored chose the factor at equal cost")
	}
	h := testcorpus.RandomNonNeg(30, 4, 0, 12)
	want, got, got2 := mat.NewDense(30, 4, nil), mat.NewDense(30, 4, nil), mat.NewDense(30, 4, nil)
	a.MulDense(nil, want, h)
	f.MulDense(parallel.NewPool(1), got, h)
	f.MulDense(parallel.NewPool(2), got2, h)
	for i := 0; i < 30; i++ {
		for j := 0; j < 4; j++ {
			if math.Abs(got.At(i, j)-want.At(i, j)) > 1e-13*(1+math.Abs(want.At(i, j))) {
				t.Errorf("(ÃÃᵀH)[%d,%d] = %v, stored A·H %v", i, j, got.At(i, j), want.At(i, j))
			}
			if got.At(i, j) != got2.At(i, j) {
				t.Errorf("(ÃÃᵀH)[%d,%d] differs between 1 and 2 workers", i, j)
			}
		}
	}
	if got.At(7, 0) != 0 || got.At(7, 3) != 0 {
		t.Errorf("empty document: row %v, want zeros", got.RawRowView(7))
	}
}

// referenceStep is the Armijo search without surelyRejected: every trial
// evaluated in full (state.eval).
func referenceStep(a multiplier, normA2 float64, cur, next *state, grad *mat.Dense, sigma, beta float64) (float64, bool) {
	gradient(nil, grad, cur)
	alpha := 1.0
	for m := 0; m <= MaxBacktracks; m++ {
		project(nil, next.h, cur.h, grad, alpha)
		next.eval(nil, a, normA2)
		if next.f-cur.f <= sigma*directional(nil, grad, next.h, cur.h) {
			return alpha, true
		}
		alpha *= beta
	}
	return alpha, false
}

// Skipping the Gram matrix of trials that surelyRejected rules out changes
// nothing: 30 steps from a random start give the same α and the same bits
// of H and f as evaluating every trial, and the screen did skip trials.
func TestScreenedStepIsExact(t *testing.T) {
	araw := testcorpus.RandomNonNeg(80, 80, 0.9, 21)
	var a mat.Dense
	a.Add(araw, araw.T())
	am := toMatrix(&a, true)
	norm2 := am.FrobeniusSq(nil)
	for _, k := range []int{3, 10} {
		c1, n1, c2, n2 := newState(80, k), newState(80, k), newState(80, k), newState(80, k)
		h0 := testcorpus.RandomNonNeg(80, k, 0, uint64(30+k))
		h0.Scale(0.5*math.Sqrt(3/float64(k)), h0) // a start whose α = 1 overshoots
		c1.h.Copy(h0)
		c2.h.Copy(h0)
		c1.eval(nil, am, norm2)
		c2.eval(nil, am, norm2)
		g1, g2 := mat.NewDense(80, k, nil), mat.NewDense(80, k, nil)
		skipped := 0
		for it := 0; it < 30; it++ {
			a1, ok1 := step(parallel.NewPool(2), am, norm2, c1, n1, g1, DefaultSigma, DefaultBeta)
			a2, ok2 := referenceStep(am, norm2, c2, n2, g2, DefaultSigma, DefaultBeta)
			if a1 != a2 || ok1 != ok2 || n1.f != n2.f || !mat.Equal(n1.h, n2.h) {
				t.Fatalf("k=%d step %d: screened α=%v ok=%v f=%v, reference α=%v ok=%v f=%v", k, it, a1, ok1, n1.f, a2, ok2, n2.f)
			}
			// Count the trials before the accepted one that the screen
			// ruled out (g1 is ∇f at c1's H).
			tr := newState(80, k)
			for al := 1.0; al > a1*1.5; al *= DefaultBeta {
				project(nil, tr.h, c1.h, g1, al)
				am.MulDense(nil, tr.ah, tr.h)
				rhs := DefaultSigma * directional(nil, g1, tr.h, c1.h)
				if surelyRejected(nil, norm2, dense.Dot(nil, tr.h, tr.ah), c1.f, rhs, tr.h) {
					skipped++
				}
			}
			c1, n1 = n1, c1
			c2, n2 = n2, c2
		}
		if skipped == 0 {
			t.Errorf("k=%d: the screen ruled out no trial; the test exercises nothing", k)
		} else {
			t.Logf("k=%d: %d trials screened out", k, skipped)
		}
	}
}

// Fit through the factored A gives the same bits for pools of 1 and 2
// workers (fixed row blocks in every product and sum), on a corpus where
// the factor is the cheaper path.
func TestFactoredFitWorkers(t *testing.T) {
	r := engine.NewRand(17)
	var ts []sparse.Triplet
	for j := 0; j < 300; j++ {
		for q := 0; q < 3; q++ {
			ts = append(ts, sparse.Triplet{Row: (j%3)*40 + r.IntN(40), Col: j, Val: 1 + r.Float64()})
		}
	}
	d, err := sparse.FromTriplets(120, 300, ts)
	if err != nil {
		t.Fatal(err)
	}
	c := testcorpus.CorpusOf(t, d)
	a := symmetric.Cosine(nil, c.DT, symmetric.StorageAuto)
	if newFactored(c.DT, a.NNZ(), 5) == nil {
		t.Fatalf("nnz(Ã) = %d, nnz(A) = %d: the fit would not use the factor", len(c.DT.Val), a.NNZ())
	}
	var hs [2]*mat.Dense
	var fs [2]float64
	for w := 1; w <= 2; w++ {
		m, st, err := Options{K: 5, Seed: 3, Stopping: engine.Stopping{MaxIter: 40, RelTol: -1}, Pool: parallel.NewPool(w)}.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		hs[w-1], fs[w-1] = m.DocTopics(), st.Objective
	}
	if fs[0] != fs[1] || !mat.Equal(hs[0], hs[1]) {
		t.Errorf("1 and 2 workers differ: f = %v, %v", fs[0], fs[1])
	}
}

func TestRefusesWhatMemoryCannotHold(t *testing.T) {
	// H alone: 8 bytes × 100,000 documents × 100,000 topics = 80 GB.
	enginetest.RefusesHugeK(t, 8, 100000, 100000, 8*1e10, func(k int) engine.Method { return Options{K: k} })
}

// TestFitsShareTheCosineOfEqualCorpora: two corpora of the same content
// (separate copies) get one cosine matrix, fits on them compute the same
// bits, and a corpus with one value changed gets its own matrix.
func TestFitsShareTheCosineOfEqualCorpora(t *testing.T) {
	corpus := func() *sparse.CSR { // documents as rows (Dᵀ)
		return sparse.FromRows(4, [][]int32{{0, 2}, {1, 2}, {0, 3}, {1, 3}, {0, 2}, {1, 3}},
			[][]float64{{1, 2}, {1, 2}, {2, 1}, {3, 1}, {1, 1}, {1, 2}})
	}
	a, b := sharedCosine(nil, corpus(), symmetric.StorageAuto), sharedCosine(nil, corpus(), symmetric.StorageAuto)
	if a != b {
		t.Fatal("an equal corpus got its own cosine matrix")
	}
	changed := corpus()
	changed.Val[0] = 5
	if sharedCosine(nil, changed, symmetric.StorageAuto) == a {
		t.Fatal("a corpus with a changed value was served the old cosine matrix")
	}
	if sharedCosine(nil, corpus(), symmetric.StorageSparse) == a {
		t.Fatal("another storage was served the matrix of the first")
	}
}
