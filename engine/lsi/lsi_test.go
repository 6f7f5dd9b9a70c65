package lsi

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/cputime"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// weightedCorpus is a random m×n matrix with tf-idf-like weights: each entry
// present with probability density, its value (1 + log count)·idf-like
// factor, with a few denser "topic" blocks so the spectrum decays.
func weightedCorpus(t testing.TB, seed uint64, m, n int, density float64) *engine.Corpus {
	t.Helper()
	rng := engine.NewRand(seed)
	var ts []sparse.Triplet
	for w := 0; w < m; w++ {
		idf := 1 + 2*rng.Float64()
		for d := 0; d < n; d++ {
			p := density
			if w%4 == d%4 {
				p *= 3
			}
			if rng.Float64() < p {
				ts = append(ts, sparse.Triplet{Row: w, Col: d, Val: (1 + math.Log(float64(1+rng.IntN(5)))) * idf})
			}
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	return testcorpus.CorpusOf(t, d)
}

func TestMatchesDenseSVD(t *testing.T) {
	// Reference: gonum's dense SVD of D (used only here, as the reference).
	c := weightedCorpus(t, 1, 80, 60, 0.12)
	d := testcorpus.DenseOf(c.D)
	var svd mat.SVD
	if !svd.Factorize(d, mat.SVDThin) {
		t.Fatal("dense SVD failed")
	}
	sv := svd.Values(nil)
	var vd mat.Dense
	svd.VTo(&vd)
	const k = 8
	rec := engine.NewRecorder()
	model, st, err := Options{K: k, PowerIters: 30, Seed: 3}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != engine.Converged || st.Iterations != 1 {
		t.Errorf("status %v", st)
	}
	lm := model.(*Model)
	got := lm.SingularValues()
	for j := 0; j < k; j++ {
		if rel := math.Abs(got[j]-sv[j]) / sv[j]; rel > 1e-8 {
			t.Errorf("σ_%d = %.15g, dense %.15g (relative error %.2g)", j+1, got[j], sv[j], rel)
		}
	}
	// U_K has orthonormal columns.
	u := model.TermTopics()
	var g mat.Dense
	g.Mul(u.T(), u)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(g.At(i, j)-want) > 1e-12 {
				t.Fatalf("UᵀU[%d,%d] = %v", i, j, g.At(i, j))
			}
		}
	}
	// DocTopics = Σ⁻¹UᵀD equals V_K of the dense SVD up to each column's
	// sign (the singular values of this matrix are distinct, so each
	// singular vector is determined up to sign). The vectors converge at
	// the rate of the gaps (σ_2/σ_3 = 30.86/30.60), hence the 30 power
	// iterations: 12 leave errors of 3e-5, 30 of 3e-10.
	v := model.DocTopics()
	for j := 0; j < k; j++ {
		dot := 0.0
		for n := 0; n < 60; n++ {
			dot += v.At(n, j) * vd.At(n, j)
		}
		sign := math.Copysign(1, dot)
		for n := 0; n < 60; n++ {
			if e := math.Abs(v.At(n, j) - sign*vd.At(n, j)); e > 1e-8 {
				t.Fatalf("DocTopics[%d,%d] = %v, dense V %v", n, j, v.At(n, j), sign*vd.At(n, j))
			}
		}
	}
	// The recorded loss is ‖D − U Uᵀ D‖²_F (computed densely here), which
	// for the exact subspace is Σ_{j>K} σ_j².
	var uut, proj, resid mat.Dense
	uut.Mul(u, u.T())
	proj.Mul(&uut, d)
	resid.Sub(d, &proj)
	direct := 0.0
	for i := 0; i < 80; i++ {
		for j := 0; j < 60; j++ {
			direct += resid.At(i, j) * resid.At(i, j)
		}
	}
	tail := 0.0
	for _, s := range sv[k:] {
		tail += s * s
	}
	its := rec.Iterations()
	if len(its) != 1 || its[0].Terms[0].Name != TermLoss || its[0].Objective != st.Objective {
		t.Fatalf("records %+v", its)
	}
	if rel := math.Abs(its[0].Objective-direct) / direct; rel > 1e-12 {
		t.Errorf("loss %v, direct %v", its[0].Objective, direct)
	}
	if rel := math.Abs(its[0].Objective-tail) / tail; rel > 1e-8 {
		t.Errorf("loss %v, Σ_{j>K} σ_j² = %v", its[0].Objective, tail)
	}
}

func TestFoldInOfTrainingDocumentIsDocTopics(t *testing.T) {
	c := weightedCorpus(t, 2, 300, 600, 0.05) // several row blocks
	model, _, err := Options{K: 10, Seed: 1, PowerIters: DefaultPowerIters}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	fold, err := model.FoldIn(context.Background(), c.DT)
	if err != nil {
		t.Fatal(err)
	}
	if !matcmp.BitsEqual(fold, model.DocTopics()) {
		t.Error("FoldIn of the training documents differs from DocTopics")
	}
	// One document on its own folds in to its row too.
	one, err := model.FoldIn(context.Background(), c.DT.SelectRows([]int{417}))
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 10; k++ {
		if math.Float64bits(one.At(0, k)) != math.Float64bits(model.DocTopics().At(417, k)) {
			t.Fatalf("document 417, topic %d: %v vs %v", k, one.At(0, k), model.DocTopics().At(417, k))
		}
	}
}

func TestHandComputed(t *testing.T) {
	// D = diag(3, 1) (2 terms × 2 documents), K = 1: σ_1 = 3, u_1 = e_1 (the
	// largest entry made positive), so a query q = (6, 5) folds in to
	// q̂ = u_1ᵀq/σ_1 = 6/3 = 2, document 1 to 3/3 = 1 and document 2 to 0;
	// the loss is σ_2² = 1.
	d, _ := sparse.FromTriplets(2, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 3}, {Row: 1, Col: 1, Val: 1}})
	model, st, err := Options{K: 1, PowerIters: DefaultPowerIters}.Fit(context.Background(), testcorpus.CorpusOf(t, d), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := model.(*Model).SingularValues(); math.Abs(s[0]-3) > 1e-14 {
		t.Errorf("σ_1 = %v", s[0])
	}
	if u := model.TermTopics(); math.Abs(u.At(0, 0)-1) > 1e-14 || math.Abs(u.At(1, 0)) > 1e-14 {
		t.Errorf("u_1 = %v", mat.Formatted(u))
	}
	if v := model.DocTopics(); math.Abs(v.At(0, 0)-1) > 1e-14 || math.Abs(v.At(1, 0)) > 1e-14 {
		t.Errorf("DocTopics = %v", mat.Formatted(v))
	}
	q, _ := sparse.FromTriplets(1, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 6}, {Row: 0, Col: 1, Val: 5}})
	got, err := model.FoldIn(context.Background(), q)
	if err != nil || math.Abs(got.At(0, 0)-2) > 1e-14 {
		t.Errorf("q̂ = %v, %v", got, err)
	}
	if math.Abs(st.Objective-1) > 1e-14 {
		t.Errorf("loss %v, want 1", st.Objective)
	}
}

func TestRankDeficient(t *testing.T) {
	// D of rank 2 with K = 4: σ_3, σ_4 are rounding noise, below the
	// max(M, N)·ε·σ_1 cutoff, so their fold-in coordinates are 0, not Inf.
	var ts []sparse.Triplet
	for w := 0; w < 30; w++ {
		for d := 0; d < 20; d++ {
			if v := float64(w%3+1)*float64(d%2) + float64(w%2)*float64(d%5); v != 0 {
				ts = append(ts, sparse.Triplet{Row: w, Col: d, Val: v})
			}
		}
	}
	dm, _ := sparse.FromTriplets(30, 20, ts)
	model, st, err := Options{K: 4, PowerIters: DefaultPowerIters}.Fit(context.Background(), testcorpus.CorpusOf(t, dm), nil)
	if err != nil || st.Reason != engine.Converged {
		t.Fatalf("%v, %v", st, err)
	}
	s := model.(*Model).SingularValues()
	if s[2] > 1e-12*s[0] {
		t.Fatalf("σ = %v: not rank 2", s)
	}
	v := model.DocTopics()
	for n := 0; n < 20; n++ {
		for k := 2; k < 4; k++ {
			if v.At(n, k) != 0 {
				t.Fatalf("DocTopics[%d,%d] = %v, want 0", n, k, v.At(n, k))
			}
		}
		for k := 0; k < 2; k++ {
			if x := v.At(n, k); math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("DocTopics[%d,%d] = %v", n, k, x)
			}
		}
	}
}

func TestDeterminismAcrossPools(t *testing.T) {
	c := weightedCorpus(t, 3, 700, 400, 0.03)
	var ref engine.Model
	var refObj float64
	for _, workers := range []int{1, 2, 3} {
		m, st, err := Options{K: 12, Seed: 8, Pool: parallel.NewPool(workers), PowerIters: DefaultPowerIters}.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref, refObj = m, st.Objective
			continue
		}
		if !matcmp.BitsEqual(m.TermTopics(), ref.TermTopics()) || !matcmp.BitsEqual(m.DocTopics(), ref.DocTopics()) ||
			math.Float64bits(st.Objective) != math.Float64bits(refObj) {
			t.Errorf("%d workers: result differs from 1 worker", workers)
		}
	}
	m2, _, _ := Options{K: 12, Seed: 9, PowerIters: DefaultPowerIters}.Fit(context.Background(), c, nil)
	if matcmp.BitsEqual(m2.TermTopics(), ref.TermTopics()) {
		t.Error("seeds 8 and 9 gave the same bits")
	}
}

func TestValidation(t *testing.T) {
	c := weightedCorpus(t, 4, 10, 8, 0.3)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{K: 9, PowerIters: DefaultPowerIters}, "K = 9 exceeds"},
		{Options{K: -1, PowerIters: DefaultPowerIters}, "K = -1"},
		{Options{K: 2, Oversample: -3, PowerIters: DefaultPowerIters}, "Oversample = -3"},
		{Options{PowerIters: DefaultPowerIters}, "K = 20 exceeds"},
	} {
		_, _, err := tc.o.Fit(context.Background(), c, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want it to mention %q", tc.o, err, tc.want)
		}
	}
	if _, _, err := (Options{PowerIters: DefaultPowerIters}).Fit(context.Background(), nil, nil); err == nil {
		t.Error("nil corpus accepted")
	}
	bad := *c
	bad.D = c.D.Clone()
	bad.D.Val[2] = math.NaN()
	if _, _, err := (Options{K: 2, PowerIters: DefaultPowerIters}).Fit(context.Background(), &bad, nil); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN weight: %v", err)
	}
	// Size 1.
	one, _ := sparse.FromTriplets(1, 1, []sparse.Triplet{{Row: 0, Col: 0, Val: 2}})
	m, st, err := Options{K: 1, PowerIters: DefaultPowerIters}.Fit(context.Background(), testcorpus.CorpusOf(t, one), nil)
	if err != nil || math.Abs(m.TermTopics().At(0, 0)-1) > 1e-15 || math.Abs(m.DocTopics().At(0, 0)-1) > 1e-15 || st.Objective > 1e-28 {
		t.Errorf("1×1: %v, %v", st, err)
	}
	if (Options{PowerIters: DefaultPowerIters}).Name() != "lsi" {
		t.Error("name")
	}
}

func TestCancellationAndFoldInErrors(t *testing.T) {
	c := weightedCorpus(t, 5, 40, 30, 0.2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, st, err := Options{K: 3, PowerIters: DefaultPowerIters}.Fit(ctx, c, nil)
	if err != nil || st.Reason != engine.Cancelled || st.Iterations != 0 || m != nil {
		t.Errorf("cancelled: %v, %v, %v", m, st, err)
	}
	model, _, err := Options{K: 3, PowerIters: DefaultPowerIters}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.FoldInErrors(t, model, c.DT, 5, math.Inf(1), "Inf entry")
}

func BenchmarkFit(b *testing.B) {
	// The whole LSI fit (its one "iteration": randomized SVD with the
	// default 5 power iterations and 10 extra columns, DocTopics and the
	// loss) at the foundation's benchmark size: 30,000 terms × 20,000
	// documents, 1.6M non-zeros, K = 100.
	benchFit(b, Options{K: testcorpus.BenchK, Seed: 1, PowerIters: DefaultPowerIters})
}

func BenchmarkFitRSVDDefaults(b *testing.B) {
	// The same with engine/rsvd's defaults (10 extra columns, 4 power
	// iterations): faster, but less accurate on slowly decaying spectra.
	benchFit(b, Options{K: testcorpus.BenchK, Oversample: 10, PowerIters: 4, Seed: 1})
}

func benchFit(b *testing.B, o Options) {
	c := testcorpus.BenchmarkCorpus(b)
	b.ResetTimer()
	c0 := cputime.Seconds()
	for i := 0; i < b.N; i++ {
		if _, _, err := o.Fit(context.Background(), c, nil); err != nil {
			b.Fatal(err)
		}
	}
	// The CPU time of a fit (all threads): on a shared machine it varies
	// far less than the wall time.
	cputime.ReportPerOp(b, c0)
}

// TestAccurateSetting checks that accurate raises the sketch to the
// accurate setting (with the defaults, exactly p = max(K, 10), q = 20) and
// never lowers a larger explicit value.
func TestAccurateSetting(t *testing.T) {
	for _, c := range []struct {
		o        Options
		wantP, q int
	}{
		{Options{K: 20, Accurate: true}, 20, AccuratePowerIters},
		{Options{K: 4, Accurate: true}, 10, AccuratePowerIters},
		{Options{K: 20, Oversample: 30, PowerIters: 25, Accurate: true}, 30, 25},
		{Options{K: 20}, DefaultOversample, -1},
	} {
		r, err := c.o.resolve(100, 100)
		if err != nil {
			t.Fatal(err)
		}
		if r.Oversample != c.wantP || r.PowerIters != c.q {
			t.Errorf("%+v: oversample %d, power iterations %d; want %d, %d", c.o, r.Oversample, r.PowerIters, c.wantP, c.q)
		}
	}
}
