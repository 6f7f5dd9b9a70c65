package tnmf

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/symmetric"
	"github.com/topicmf/topicmf/engine/synthetic"
	"gonum.org/v1/gonum/mat"
)

// plantedS returns S = U*U*ᵀ for a random non-negative U* (m×k, 40% zeros,
// full column rank with probability 1) as dense and sparse matrices.
func plantedS(m, k int, seed uint64) (ustar *mat.Dense, sd, ss *symmetric.Matrix) {
	ustar = testcorpus.RandomNonNeg(m, k, 0.4, seed)
	s := mat.NewDense(m, m, nil)
	s.Mul(ustar, ustar.T())
	return ustar, symmetric.NewDenseMatrix(s), symmetric.NewSparseMatrix(testcorpus.CSROf(s))
}

// Eq. 4.5 leaves a planted factorization fixed: S = U*U*ᵀ with U* ≥ 0 of
// full column rank gives S·U*·(U*ᵀU*)⁻¹ = U*. A perturbed U* moves.
func TestStepFixedPoint(t *testing.T) {
	for _, k := range []int{1, 3, 8} {
		ustar, sd, ss := plantedS(60, k, uint64(k))
		for _, s := range []*symmetric.Matrix{sd, ss} {
			su := mat.NewDense(60, k, nil)
			s.MulDense(nil, su, ustar)
			g := mat.NewDense(k, k, nil)
			dense.Gram(nil, g, ustar)
			next := mat.NewDense(60, k, nil)
			pseudo, err := Step(nil, next, su, g)
			if err != nil || pseudo {
				t.Fatalf("k=%d: pseudo %v err %v", k, pseudo, err)
			}
			if d := matcmp.MaxAbsDiff(next, ustar); d > 1e-10 {
				t.Errorf("k=%d dense=%v: ‖Step(U*) − U*‖_max = %g, want ≤ 1e-10", k, s.IsDense(), d)
			}
			// Objective at the fixed point: 0 to rounding of ‖S‖².
			if f := symmetric.Objective(nil, s.FrobeniusSq(nil), ustar, su, g); f > 1e-10*s.FrobeniusSq(nil) {
				t.Errorf("k=%d: L(U*) = %g", k, f)
			}
			// Not a fixed point once perturbed (the test can fail).
			pert := mat.DenseCopyOf(ustar)
			pert.Set(0, 0, pert.At(0, 0)+0.5)
			s.MulDense(nil, su, pert)
			dense.Gram(nil, g, pert)
			if _, err := Step(nil, next, su, g); err != nil {
				t.Fatal(err)
			}
			if d := matcmp.MaxAbsDiff(next, pert); d < 1e-3 {
				t.Errorf("k=%d: perturbed U* is also fixed (moved %g)", k, d)
			}
		}
	}
}

// A zero column makes UᵀU singular: Step uses the pseudo-inverse and keeps
// the column at zero instead of failing.
func TestStepSingularGram(t *testing.T) {
	ustar, sd, _ := plantedS(30, 3, 5)
	u := mat.DenseCopyOf(ustar)
	for i := 0; i < 30; i++ {
		u.Set(i, 1, 0)
	}
	su := mat.NewDense(30, 3, nil)
	sd.MulDense(nil, su, u)
	g := mat.NewDense(3, 3, nil)
	dense.Gram(nil, g, u)
	next := mat.NewDense(30, 3, nil)
	pseudo, err := Step(nil, next, su, g)
	if err != nil || !pseudo {
		t.Fatalf("pseudo %v err %v, want the pseudo-inverse", pseudo, err)
	}
	for i := 0; i < 30; i++ {
		if next.At(i, 1) != 0 {
			t.Fatalf("zero column revived: %v", next.At(i, 1))
		}
	}
	if r, c, bad := dense.FirstNonFinite(nil, next); bad {
		t.Fatalf("non-finite at %d,%d", r, c)
	}
}

// divergenceFromScratch is l(v) of Eq. 3.3 over the document's terms,
// computed directly: Σ_i (x_i log(x_i/(Uv)_i) − x_i + (Uv)_i) over all M
// terms (x_i = 0 terms contribute (Uv)_i), skipping terms with a zero row
// of U as newtonWork does.
func divergenceFromScratch(u *mat.Dense, idx []int32, xv, v []float64) float64 {
	m, k := u.Dims()
	x := make([]float64, m)
	for q, i := range idx {
		x[i] = xv[q]
	}
	s := 0.0
	for i := 0; i < m; i++ {
		y, zero := 0.0, true
		for a := 0; a < k; a++ {
			y += u.At(i, a) * v[a]
			if u.At(i, a) != 0 {
				zero = false
			}
		}
		if zero {
			continue
		}
		if x[i] > 0 {
			if y <= 0 {
				return math.Inf(1)
			}
			s += x[i]*math.Log(x[i]/y) - x[i]
		}
		s += y
	}
	return s
}

// Every coordinate Newton step of TNMF_I (Section 4.2, safeguarded) leaves
// the per-document I-divergence no larger, checked step by step against a
// direct evaluation; the final v satisfies the KKT conditions of
// min_{v≥0} l(v): g_k ≥ 0, and g_k ≈ 0 where v_k > 0.
func TestNewtonStepsNeverIncrease(t *testing.T) {
	const m, k = 40, 6
	r := engine.NewRand(7)
	guarded := 0
	for trial := 0; trial < 200; trial++ {
		u := testcorpus.RandomNonNeg(m, k, 0.5, uint64(100+trial))
		colSum := make([]float64, k)
		for i := 0; i < m; i++ {
			for a := 0; a < k; a++ {
				colSum[a] += u.At(i, a)
			}
		}
		// A document of 1..8 distinct terms with weights in (0, 5].
		l := 1 + r.IntN(8)
		seen := map[int32]bool{}
		for len(seen) < l {
			seen[int32(r.IntN(m))] = true
		}
		var idx []int32
		for i := int32(0); i < m; i++ {
			if seen[i] {
				idx = append(idx, i)
			}
		}
		xv := make([]float64, len(idx))
		for q := range xv {
			xv[q] = 5 * (1 - r.Float64())
		}
		var w newtonWork
		w.load(idx, xv, u.RawMatrix().Data, k, k)
		// Start from a random point, often far from the optimum (up to 50×
		// its scale), where the paper's plain Newton step overshoots.
		v := make([]float64, k)
		for a := range v {
			v[a] = 50 * r.Float64()
		}
		w.fit(v)
		prev := divergenceFromScratch(u, idx, xv, v)
		for sweep := 0; sweep < 300; sweep++ {
			for a := 0; a < k; a++ {
				before := append([]float64(nil), v...)
				// Would the unguarded step max(v − g/h, 0) increase l?
				if plain := plainNewton(u, idx, xv, before, colSum, a); divergenceFromScratch(u, idx, xv, plain) > prev*(1+1e-12)+1e-12 {
					guarded++
				}
				w.newtonStep(v, colSum, a)
				cur := divergenceFromScratch(u, idx, xv, v)
				if cur > prev+1e-12*math.Abs(prev)+1e-13 {
					t.Fatalf("trial %d sweep %d coordinate %d: l rose from %.17g to %.17g; v %v -> %v; y %v x %v ur %v", trial, sweep, a, prev, cur, before, v, w.y, w.x, w.ur)
				}
				if v[a] < 0 {
					t.Fatalf("negative v")
				}
				prev = cur
			}
			w.fit(v)
		}
		// KKT at the end (300 sweeps of a K = 6 problem: converged).
		for a := 0; a < k; a++ {
			g := colSum[a]
			for q, i := range idx {
				y := 0.0
				for b := 0; b < k; b++ {
					y += u.At(int(i), b) * v[b]
				}
				if u.At(int(i), a) != 0 {
					g -= u.At(int(i), a) * xv[q] / y
				}
			}
			if g < -1e-6*colSum[a] || (v[a] > 1e-9 && math.Abs(g) > 1e-6*(1+colSum[a])) {
				t.Errorf("trial %d: KKT fails at k=%d: v=%g g=%g", trial, a, v[a], g)
			}
		}
	}
	if guarded == 0 {
		t.Error("the paper's plain Newton step never increased l: the safeguard went untested")
	}
	t.Logf("plain Newton step would have increased l in %d of %d coordinate steps", guarded, 200*300*k)
}

// plainNewton is v with coordinate a replaced by max(v_a − g/h, 0), the
// paper's step without safeguard, computed from scratch.
func plainNewton(u *mat.Dense, idx []int32, xv, v, colSum []float64, a int) []float64 {
	_, k := u.Dims()
	g, h := colSum[a], 0.0
	for q, i := range idx {
		y := 0.0
		for b := 0; b < k; b++ {
			y += u.At(int(i), b) * v[b]
		}
		ua := u.At(int(i), a)
		if ua == 0 {
			continue
		}
		g -= ua * xv[q] / y
		h += xv[q] * ua * ua / (y * y)
	}
	out := append([]float64(nil), v...)
	if h > 0 {
		out[a] = math.Max(v[a]-g/h, 0)
	}
	return out
}

// The single-topic case in closed form: l(v) = s·v − x·log(u·v) + const has
// its minimum at v* = x/s; from v = 3v* the plain Newton step is
// 2v − v²/v* = −3v* → 0, where l = +∞. The safeguarded step lowers l.
func TestNewtonOvershootSingleTopic(t *testing.T) {
	u := mat.NewDense(2, 1, []float64{2, 3}) // s = 5
	var w newtonWork
	w.load([]int32{0}, []float64{4}, u.RawMatrix().Data, 1, 1)
	colSum := []float64{5}
	vstar := 4.0 / 5
	v := []float64{3 * vstar}
	w.fit(v)
	before := divergenceFromScratch(u, []int32{0}, []float64{4}, v)
	if plain := plainNewton(u, []int32{0}, []float64{4}, v, colSum, 0); plain[0] != 0 {
		t.Fatalf("plain step gives %v, want 0 (overshoot)", plain[0])
	}
	for i := 0; i < 40; i++ {
		w.newtonStep(v, colSum, 0)
	}
	after := divergenceFromScratch(u, []int32{0}, []float64{4}, v)
	if !(after < before) || math.Abs(v[0]-vstar) > 1e-12 {
		t.Errorf("safeguarded Newton: v = %v (want %v), l %v → %v", v[0], vstar, before, after)
	}
}

// inferEProblem is the setting of the inference tests: the short-text
// corpus D (50 terms × 80 documents), a random U (50×k, seeded), G = UᵀU
// (invertible) and the Eq. 4.6 solution V (80×k) of inferE.
func inferEProblem(t *testing.T, k int, seed uint64) (d, dt *sparse.CSR, u, g, v *mat.Dense) {
	t.Helper()
	d, dt = randomShortCorpus(50, 80, 6, 3)
	u = testcorpus.RandomNonNeg(50, k, 0.3, seed)
	g = mat.NewDense(k, k, nil)
	dense.Gram(nil, g, u)
	ginv, pseudo, err := gramInverse(g)
	if err != nil || pseudo {
		t.Fatal(err, pseudo)
	}
	v = mat.NewDense(80, k, nil)
	inferE(nil, v, dt, u, ginv)
	return d, dt, u, g, v
}

// TNMF_E is Eq. 4.6 literally: compare with gonum's dense solve.
func TestInferEFormula(t *testing.T) {
	d, _, u, g, got := inferEProblem(t, 4, 9)
	// V = max((UᵀU)⁻¹UᵀX, 0) with gonum: solve (UᵀU)V = UᵀX.
	var utx, sol mat.Dense
	utx.Mul(u.T(), testcorpus.DenseOf(d))
	if err := sol.Solve(g, &utx); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 80; n++ {
		for a := 0; a < 4; a++ {
			want := math.Max(sol.At(a, n), 0)
			if math.Abs(got.At(n, a)-want) > 1e-10*(1+math.Abs(want)) {
				t.Fatalf("V[%d,%d] = %v, want %v", a, n, got.At(n, a), want)
			}
		}
	}
}

// e-nnls reaches the KKT point of min_{v≥0} ‖x − Uv‖² and is never worse
// than Eq. 4.6.
func TestInferENNLS(t *testing.T) {
	_, dt, u, g, e := inferEProblem(t, 5, 10)
	v := mat.DenseCopyOf(e)
	inferENNLS(context.Background(), nil, v, dt, u, g, 1000, -1)
	phi := mat.NewDense(80, 5, nil)
	sparse.MulDense(nil, phi, dt, u)
	resid := func(vv []float64, n int) float64 {
		x := dt.RowDense(n, nil)
		s := 0.0
		for i := 0; i < 50; i++ {
			y := 0.0
			for a := 0; a < 5; a++ {
				y += u.At(i, a) * vv[a]
			}
			s += (x[i] - y) * (x[i] - y)
		}
		return s
	}
	for n := 0; n < 80; n++ {
		vn := v.RawRowView(n)
		for a := 0; a < 5; a++ {
			grad := -phi.At(n, a)
			for b := 0; b < 5; b++ {
				grad += g.At(a, b) * vn[b]
			}
			if grad < -1e-8 || (vn[a] > 0 && math.Abs(grad) > 1e-8) {
				t.Fatalf("doc %d: KKT fails at %d: v=%g grad=%g", n, a, vn[a], grad)
			}
		}
		if resid(vn, n) > resid(e.RawRowView(n), n)+1e-9 {
			t.Fatalf("doc %d: NNLS residual above Eq. 4.6's", n)
		}
	}
}

// shortSynthetic is a planted short-text corpus: 600 terms, 10 topics of 60
// terms with flat-ish weights (Dirichlet β = 10), 10,000 documents of mean
// length 8 tokens (Poisson), raw counts.
func shortSynthetic(t testing.TB, n int) (*engine.Corpus, *synthetic.Truth) {
	cfg := synthetic.Config{M: 600, N: n, P: 1, Ks: 10, TopicTerms: 60, TopicBeta: 10,
		Length: synthetic.LengthSpec{Dist: synthetic.LengthPoisson, Mean: 8}, Seed: 3}
	c, tr, err := synthetic.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, tr
}

// TNMF recovers planted topics from short texts. The matched mean cosine
// (synthetic.MatchTopics) measured: 0.8015 after 100 iterations (either
// Rescale setting: the directions are the same). Random non-negative
// topics score 0.2952 (measured below); the support indicators of the
// planted topics — the best a term-clustering can do — score 0.9508.
// The threshold 0.75 was fixed from the measurement with a margin.
func TestRecoverPlantedShortTexts(t *testing.T) {
	if testing.Short() {
		t.Skip("planted recovery: 10,000 documents")
	}
	c, tr := shortSynthetic(t, 10000)
	m, st, err := Options{K: 10, Stopping: engine.Stopping{MaxIter: 100, RelTol: -1}, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	cos, _ := synthetic.MatchTopics(tr.Topics(), m.TermTopics())
	rnd, _ := synthetic.MatchTopics(tr.Topics(), testcorpus.RandomNonNeg(600, 10, 0, 1))
	t.Logf("%v; matched cosine %.4f (random topics %.4f); S density %.4f", st, cos, rnd, m.(*Model).Correlation().S.Density())
	if cos < 0.75 || rnd > 0.4 {
		t.Errorf("matched cosine %.4f (want ≥ 0.75), random %.4f (want ≤ 0.4)", cos, rnd)
	}
}

// The Eq. 4.5 update is equivariant to column scaling (U·D ↦ next·D⁻¹), so
// Rescale changes the column scales only, never the directions; and its
// optimal scales give L no larger than the literal iterate's at every
// iteration. The literal update 2-cycles in scale (see the package doc):
// on this corpus L alternates, which the test checks too.
func TestRescaleKeepsDirections(t *testing.T) {
	c, _ := shortSynthetic(t, 2000)
	run := func(rescale bool) (*Model, []engine.Iteration) {
		rec := engine.NewRecorder()
		m, _, err := Options{K: 10, Rescale: rescale, Stopping: engine.Stopping{MaxIter: 12, RelTol: -1}, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, rec)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*Model), rec.Iterations()
	}
	lit, litIt := run(false)
	res, resIt := run(true)
	for a := 0; a < 10; a++ {
		x, y := mat.Col(nil, a, lit.u), mat.Col(nil, a, res.u)
		nx, ny := 0.0, 0.0
		for i := range x {
			nx, ny = nx+x[i]*x[i], ny+y[i]*y[i]
		}
		for i := range x {
			if math.Abs(x[i]/math.Sqrt(nx)-y[i]/math.Sqrt(ny)) > 1e-9 {
				t.Fatalf("topic %d term %d: directions differ", a, i)
			}
		}
	}
	rises := 0
	for i := range litIt {
		if resIt[i].Objective > litIt[i].Objective*(1+1e-12) {
			t.Errorf("iteration %d: rescaled L %v > literal L %v", i+1, resIt[i].Objective, litIt[i].Objective)
		}
		if i > 0 && litIt[i].Objective > litIt[i-1].Objective {
			rises++
		}
	}
	if rises == 0 {
		t.Errorf("literal Eq. 4.5 L never rose: %v", litIt)
	}
}

// Same seed, 1 or 2 workers: the same bits for U, V (both inferences), and
// FoldIn of the training documents gives DocTopics bit for bit.
func TestDeterministicAcrossPools(t *testing.T) {
	c, _ := shortSynthetic(t, 1500)
	for _, inf := range []Inference{InferE, InferI, InferENNLS} {
		var ref engine.Model
		for _, w := range []int{1, 2} {
			o := Options{K: 8, Inference: inf, Seed: 5, Stopping: engine.Stopping{MaxIter: 15, RelTol: engine.DefaultRelTol}, Pool: parallel.NewPool(w), InnerTol: DefaultInnerTol}
			m, _, err := o.Fit(context.Background(), c, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = m
			} else if !matcmp.BitsEqual(m.TermTopics(), ref.TermTopics()) || !matcmp.BitsEqual(m.DocTopics(), ref.DocTopics()) {
				t.Errorf("%v: 1 and 2 workers differ", inf)
			}
			f, err := m.FoldIn(context.Background(), c.DT)
			if err != nil {
				t.Fatal(err)
			}
			if !matcmp.BitsEqual(f, m.DocTopics()) {
				t.Errorf("%v: FoldIn(DT) differs from DocTopics", inf)
			}
		}
	}
}

func TestCancelAndErrors(t *testing.T) {
	c, _ := shortSynthetic(t, 300)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, st, err := Options{K: 5, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}.Fit(ctx, c, nil)
	if err != nil || st.Reason != engine.Cancelled || m == nil {
		t.Errorf("cancelled fit: %v %v", st, err)
	}
	for _, o := range []Options{{K: -1, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, {K: 601, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, {InnerSweeps: -2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, {InnerTol: math.NaN(), Stopping: engine.DefaultStopping()}, {Inference: 9, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol},
		{Count: 4, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, {Storage: 5, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, {InitU: mat.NewDense(3, 3, nil), Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, {Stopping: engine.Stopping{MaxIter: -1, RelTol: engine.DefaultRelTol}, InnerTol: DefaultInnerTol}} {
		if _, _, err := o.Fit(context.Background(), c, nil); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if _, _, err := (Options{Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}).Fit(context.Background(), nil, nil); err == nil {
		t.Error("nil corpus accepted")
	}
	mm, _, err := Options{K: 5, Stopping: engine.Stopping{MaxIter: 2, RelTol: engine.DefaultRelTol}, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mm.FoldIn(context.Background(), c.D); err == nil {
		t.Error("FoldIn with the wrong number of columns accepted")
	}
	// K = 1 and an empty fold-in.
	one, _, err := Options{K: 1, Inference: InferI, Stopping: engine.Stopping{MaxIter: 3, RelTol: engine.DefaultRelTol}, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	empty := &sparse.CSR{Rows: 0, Cols: 600, RowPtr: []int{0}}
	if f, err := one.FoldIn(context.Background(), empty); err != nil || !f.IsEmpty() {
		t.Errorf("empty fold-in: %v %v", f, err)
	}
}

func TestRefusesWhatMemoryCannotHold(t *testing.T) {
	// U alone: 8 bytes × 100,000 terms × 100,000 topics = 80 GB.
	enginetest.RefusesHugeK(t, 100000, 8, 100000, 8*1e10, func(k int) engine.Method { return Options{K: k} })
}

// TestFitsShareTheCorrelationOfEqualCorpora: a second fit on a corpus of
// the same content (another copy) uses the correlation the first built and
// computes the same bits; a corpus with one value changed gets its own.
func TestFitsShareTheCorrelationOfEqualCorpora(t *testing.T) {
	corpus := func() *engine.Corpus {
		c, _ := shortSynthetic(t, 200)
		return c
	}
	fit := func(c *engine.Corpus, k int) *Model {
		t.Helper()
		m, _, err := Options{K: k, Seed: 2, Stopping: engine.Stopping{MaxIter: 5}, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*Model)
	}
	a, b := fit(corpus(), 2), fit(corpus(), 3)
	if a.Correlation() != b.Correlation() {
		t.Fatal("the second fit on an equal corpus built its own correlation")
	}
	a2 := fit(corpus(), 2)
	if !mat.Equal(a.TermTopics(), a2.TermTopics()) || !mat.Equal(a.DocTopics(), a2.DocTopics()) {
		t.Fatal("a fit with the shared correlation differs from the one that built it")
	}
	changed := corpus()
	changed.D.Val[0] += 1
	changed.DT = changed.D.T()
	if c := fit(changed, 2); c.Correlation() == a.Correlation() {
		t.Fatal("a corpus with a changed value was served the old correlation")
	}
}
