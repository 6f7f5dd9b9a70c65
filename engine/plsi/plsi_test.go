package plsi

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// naiveEM runs iters iterations of Hofmann's EM written literally: the
// E-step forms every posterior P(z|d,w) (PLSI Eq. 3), the M-step sums
// n(d,w)·P(z|d,w) over documents and over terms (Eq. 4–5). It returns the
// parameters and the negative log-likelihood after each iteration.
func naiveEM(d *mat.Dense, phi0, theta0 *mat.Dense, iters int) (phi, theta *mat.Dense, nll []float64) {
	m, n := d.Dims()
	_, k := phi0.Dims()
	phi, theta = mat.DenseCopyOf(phi0), mat.DenseCopyOf(theta0)
	negLL := func() float64 {
		s := 0.0
		for w := 0; w < m; w++ {
			for j := 0; j < n; j++ {
				if c := d.At(w, j); c > 0 {
					p := 0.0
					for z := 0; z < k; z++ {
						p += phi.At(w, z) * theta.At(j, z)
					}
					s -= c * math.Log(p)
				}
			}
		}
		return s
	}
	for it := 0; it < iters; it++ {
		nphi, ntheta := mat.NewDense(m, k, nil), mat.NewDense(n, k, nil)
		post := make([]float64, k)
		for w := 0; w < m; w++ {
			for j := 0; j < n; j++ {
				c := d.At(w, j)
				if c == 0 {
					continue
				}
				sum := 0.0
				for z := 0; z < k; z++ {
					post[z] = phi.At(w, z) * theta.At(j, z)
					sum += post[z]
				}
				for z := 0; z < k; z++ {
					nphi.Set(w, z, nphi.At(w, z)+c*post[z]/sum)
					ntheta.Set(j, z, ntheta.At(j, z)+c*post[z]/sum)
				}
			}
		}
		for z := 0; z < k; z++ {
			s := 0.0
			for w := 0; w < m; w++ {
				s += nphi.At(w, z)
			}
			for w := 0; w < m; w++ {
				nphi.Set(w, z, nphi.At(w, z)/s)
			}
		}
		for j := 0; j < n; j++ {
			s := 0.0
			for z := 0; z < k; z++ {
				s += ntheta.At(j, z)
			}
			for z := 0; z < k; z++ {
				ntheta.Set(j, z, ntheta.At(j, z)/s)
			}
		}
		phi, theta = nphi, ntheta
		nll = append(nll, negLL())
	}
	return phi, theta, nll
}

func TestEMMatchesLiteralEM(t *testing.T) {
	// The multiplicative form of the updates (doc.go) equals the literal
	// E-step/M-step of PLSI Eq. 3–5 from the same start, and the recorded
	// objective equals −L computed directly.
	pc := testcorpus.Planted(t, 1, 23, 17, 3, 30)
	c := pc.C
	set, err := Options{K: 3, Stopping: engine.Stopping{MaxIter: 6, RelTol: -1}, Seed: 4, FoldInTol: DefaultFoldInTol}.resolve(c.Terms(), c.Docs())
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(set, c.D, c.DT)
	s.init(engine.NewRand(set.seed))
	phi0, theta0 := mat.DenseCopyOf(s.phi), mat.DenseCopyOf(s.theta)
	rec := engine.NewRecorder()
	model, st, err := s.run(context.Background(), rec)
	if err != nil || st.Reason != engine.IterationLimit || st.Iterations != 6 {
		t.Fatalf("status %v, err %v", st, err)
	}
	d := mat.NewDense(c.Terms(), c.Docs(), nil)
	for w := 0; w < c.Terms(); w++ {
		idx, val := c.D.Row(w)
		for q, j := range idx {
			d.Set(w, int(j), val[q])
		}
	}
	phi, theta, nll := naiveEM(d, phi0, theta0, 6)
	if e := matcmp.MaxAbsDiff(model.TermTopics(), phi); e > 1e-13 {
		t.Errorf("P(w|z) differs from literal EM by %g", e)
	}
	if e := matcmp.MaxAbsDiff(model.DocTopics(), theta); e > 1e-13 {
		t.Errorf("P(z|d) differs from literal EM by %g", e)
	}
	for i, it := range rec.Iterations() {
		if math.Abs(it.Objective-nll[i]) > 1e-12*nll[i] {
			t.Errorf("iteration %d: objective %v, literal −L %v", i+1, it.Objective, nll[i])
		}
		if len(it.Terms) != 1 || it.Terms[0].Name != TermNegLogLik || it.Terms[0].Value != it.Objective {
			t.Errorf("iteration %d: terms %v", i+1, it.Terms)
		}
	}
	if ll := model.(*Model).LogLikelihood(); ll != -rec.Iterations()[5].Objective {
		t.Errorf("LogLikelihood %v, last objective %v", ll, rec.Iterations()[5].Objective)
	}
}

func TestObjectiveNeverIncreases(t *testing.T) {
	// EM never decreases the likelihood (Dempster et al. 1977), so the
	// recorded −L never increases; rounding may add ~1e-15 relative.
	pc := testcorpus.Planted(t, 2, 60, 80, 4, 40)
	rec := engine.NewRecorder()
	_, _, err := Options{K: 6, Stopping: engine.Stopping{MaxIter: 80, RelTol: -1}, Seed: 1, FoldInTol: DefaultFoldInTol}.Fit(context.Background(), pc.C, rec)
	if err != nil {
		t.Fatal(err)
	}
	factortest.Decreasing(t, "−L", rec.Iterations(), 1e-13)
}

func TestRecoversPlantedTopics(t *testing.T) {
	pc := testcorpus.Planted(t, 3, 100, 300, 5, 80)
	model, st, err := Options{K: 5, Stopping: engine.Stopping{MaxIter: 300, RelTol: 1e-7}, Seed: 2, FoldInTol: DefaultFoldInTol}.Fit(context.Background(), pc.C, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Columns of P(w|z) sum to 1, rows of P(z|d) sum to 1.
	phi := model.TermTopics()
	enginetest.Distributions(t, phi, model.DocTopics(), "P(w|z)", "P(z|d)")
	// 0.95: the planted topics are well separated (90% of each topic's mass
	// on its own 20 terms) and 24,000 tokens estimate them closely; a
	// failed recovery (two topics merged) scores about 0.8.
	if mc := testcorpus.MatchedCosine(pc.Phi, phi); mc < 0.95 {
		t.Errorf("mean matched cosine %.4f < 0.95 (%v)", mc, st)
	} else {
		t.Logf("mean matched cosine %.4f (%v)", mc, st)
	}
}

func TestDeterminismAcrossPools(t *testing.T) {
	pc := testcorpus.Planted(t, 4, 300, 700, 4, 30) // > one block of documents and terms
	ref, _ := enginetest.SameAcrossPools(t, pc.C, func(p *parallel.Pool, rec *engine.Recorder) (engine.Model, error) {
		m, _, err := Options{K: 7, Stopping: engine.Stopping{MaxIter: 5, RelTol: -1}, Seed: 11, Pool: p, FoldInTol: DefaultFoldInTol}.Fit(context.Background(), pc.C, rec)
		return m, err
	})
	// A different seed gives a different fit.
	m2, _, _ := Options{K: 7, Stopping: engine.Stopping{MaxIter: 5, RelTol: -1}, Seed: 12, FoldInTol: DefaultFoldInTol}.Fit(context.Background(), pc.C, nil)
	if matcmp.BitsEqual(m2.TermTopics(), ref.TermTopics()) {
		t.Error("seeds 11 and 12 gave the same fit")
	}
}

func TestFoldIn(t *testing.T) {
	pc := testcorpus.Planted(t, 5, 60, 120, 3, 60)
	model, _, err := Options{K: 3, Stopping: engine.Stopping{MaxIter: 500, RelTol: 1e-10}, Seed: 3, FoldInTol: DefaultFoldInTol}.Fit(context.Background(), pc.C, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A training document's folding-in solves the same concave problem in
	// P(z|d) (Φ fixed) that the converged fit's P(z|d) maximizes, so it
	// lands on nearly the same distribution.
	fold, err := model.FoldIn(context.Background(), pc.C.DT)
	if err != nil {
		t.Fatal(err)
	}
	worst := slices.Max(matcmp.RowL1(fold, model.DocTopics()))
	if worst > 0.02 {
		t.Errorf("fold-in of training documents is %.4f (L1) from P(z|d)", worst)
	}

	// One iteration from the uniform start on a one-term query gives, by
	// hand, P(z|q) = (1/K)·(n/P(w|q))·P(w|z)/n = P(w|z)/Σ_z' P(w|z').
	m1 := *model.(*Model)
	m1.foldInIters = 1
	q, _ := sparse.FromTriplets(3, 60, []sparse.Triplet{{Row: 0, Col: 7, Val: 2}, {Row: 2, Col: 4, Val: 1}, {Row: 2, Col: 9, Val: 3}})
	got, err := m1.FoldIn(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	phi := model.TermTopics()
	s := phi.At(7, 0) + phi.At(7, 1) + phi.At(7, 2)
	for z := 0; z < 3; z++ {
		if want := phi.At(7, z) / s; math.Abs(got.At(0, z)-want) > 1e-15 {
			t.Errorf("one-term query: P(%d|q) = %v, want %v", z, got.At(0, z), want)
		}
		// An empty row gets the uniform distribution.
		if got.At(1, z) != 1.0/3 {
			t.Errorf("empty query: P(%d|q) = %v, want 1/3", z, got.At(1, z))
		}
	}
	// Rows sum to 1.
	if sum := got.At(2, 0) + got.At(2, 1) + got.At(2, 2); math.Abs(sum-1) > 1e-15 {
		t.Errorf("two-term query sums to %v", sum)
	}
}

func TestFoldInUnseenTerm(t *testing.T) {
	// A term absent from the training documents has P(w|z) = 0 for every
	// topic after the first M-step; folding-in ignores it.
	pc := testcorpus.Planted(t, 6, 40, 60, 2, 30)
	ts := []sparse.Triplet{}
	for w := 0; w < 40; w++ {
		idx, val := pc.C.D.Row(w)
		for q, d := range idx {
			ts = append(ts, sparse.Triplet{Row: w, Col: int(d), Val: val[q]})
		}
	}
	d, _ := sparse.FromTriplets(41, 60, ts) // term 40 never occurs
	c := testcorpus.CorpusOf(t, d)
	model, _, err := Options{K: 2, Stopping: engine.Stopping{MaxIter: 20, RelTol: engine.DefaultRelTol}, FoldInTol: DefaultFoldInTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if model.TermTopics().At(40, 0) != 0 || model.TermTopics().At(40, 1) != 0 {
		t.Fatal("unseen term has non-zero P(w|z)")
	}
	q1, _ := sparse.FromTriplets(1, 41, []sparse.Triplet{{Row: 0, Col: 3, Val: 1}})
	q2, _ := sparse.FromTriplets(1, 41, []sparse.Triplet{{Row: 0, Col: 3, Val: 1}, {Row: 0, Col: 40, Val: 5}})
	a, _ := model.FoldIn(context.Background(), q1)
	b, _ := model.FoldIn(context.Background(), q2)
	if !matcmp.BitsEqual(a, b) {
		t.Errorf("unseen term changed the fold-in: %v vs %v", mat.Formatted(a), mat.Formatted(b))
	}
}

func TestValidation(t *testing.T) {
	pc := testcorpus.Planted(t, 7, 10, 8, 2, 10)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{K: 9, Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}, "K = 9 exceeds"},
		{Options{K: -1, Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}, "K = -1"},
		{Options{K: 2, Stopping: engine.Stopping{MaxIter: -2, RelTol: engine.DefaultRelTol}, FoldInTol: DefaultFoldInTol}, "MaxIter"},
		{Options{K: 2, FoldInIters: -1, Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}, "FoldInIters"},
		{Options{K: 2, FoldInTol: math.NaN(), Stopping: engine.DefaultStopping()}, "FoldInTol"},
	} {
		_, _, err := tc.o.Fit(context.Background(), pc.C, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want it to mention %q", tc.o, err, tc.want)
		}
	}
	if _, _, err := (Options{Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}).Fit(context.Background(), nil, nil); err == nil {
		t.Error("nil corpus accepted")
	}
	// A negative count (a corpus built without NewCorpus).
	bad := *pc.C
	bad.D = pc.C.D.Clone()
	bad.D.Val[3] = -1
	bad.DT = bad.D.T()
	if _, _, err := (Options{K: 2, Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}).Fit(context.Background(), &bad, nil); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Errorf("negative count: err = %v", err)
	}
	// Size 1: one term, one document, K = 1.
	one, _ := sparse.FromTriplets(1, 1, []sparse.Triplet{{Row: 0, Col: 0, Val: 3}})
	m, st, err := Options{K: 1, Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}.Fit(context.Background(), testcorpus.CorpusOf(t, one), nil)
	if err != nil || m.TermTopics().At(0, 0) != 1 || m.DocTopics().At(0, 0) != 1 || st.Objective != 0 {
		t.Errorf("1×1: %v, %v", st, err)
	}
	if Options.Name(Options{Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}) != "plsi" {
		t.Error("name")
	}
}

func TestFoldInErrors(t *testing.T) {
	pc := testcorpus.Planted(t, 8, 10, 8, 2, 10)
	model, _, _ := Options{K: 2, Stopping: engine.Stopping{MaxIter: 3, RelTol: engine.DefaultRelTol}, FoldInTol: DefaultFoldInTol}.Fit(context.Background(), pc.C, nil)
	enginetest.FoldInErrors(t, model, pc.C.DT, 4, -2, "negative entry")
}

func TestCancellation(t *testing.T) {
	pc := testcorpus.Planted(t, 9, 30, 40, 3, 20)
	enginetest.Cancellation(t, 2, 10, func(ctx context.Context, iters int, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		return Options{K: 3, Stopping: engine.Stopping{MaxIter: iters, RelTol: -1}, Seed: 5, FoldInTol: DefaultFoldInTol}.Fit(ctx, pc.C, rec)
	})
}

func TestFoldInCancelledWithinADocument(t *testing.T) {
	// A billion EM iterations per document, no tolerance: the deadline must
	// stop the document's EM loop, not wait for the next document.
	pc := testcorpus.Planted(t, 11, 20, 15, 2, 10)
	model, _, err := Options{K: 2, Stopping: engine.Stopping{MaxIter: 3, RelTol: -1}, FoldInIters: 1e9, FoldInTol: -1}.Fit(context.Background(), pc.C, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.FoldInStopsWithinARow(t, model, pc.C.DT)
}

func TestConverged(t *testing.T) {
	pc := testcorpus.Planted(t, 10, 30, 40, 3, 20)
	rec := engine.NewRecorder()
	_, st, err := Options{K: 3, Stopping: engine.Stopping{MaxIter: 1000, RelTol: 1e-6}, FoldInTol: DefaultFoldInTol}.Fit(context.Background(), pc.C, rec)
	if err != nil {
		t.Fatal(err)
	}
	its := rec.Iterations()
	n := len(its)
	if st.Reason != engine.Converged || st.Iterations != n || n >= 1000 {
		t.Fatalf("status %v with %d records", st, n)
	}
	if rel := math.Abs(its[n-2].Objective-its[n-1].Objective) / its[n-2].Objective; rel > 1e-6 {
		t.Errorf("converged with relative change %g", rel)
	}
}

func TestNumericalFailureNamesStep(t *testing.T) {
	// A P(w|z) with a zero row for an observed term makes P(w|d) = 0 at the
	// start: there is no finite objective to start from, and the error
	// names the initial E-step, the term and the document.
	pc := testcorpus.Planted(t, 11, 12, 10, 2, 10)
	set, _ := Options{K: 2, Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}.resolve(12, 10)
	s := newSolver(set, pc.C.D, pc.C.DT)
	s.init(engine.NewRand(0))
	w := int(pc.C.DT.ColIdx[0])
	s.phi.Set(w, 0, 0)
	s.phi.Set(w, 1, 0)
	m, st, err := s.run(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "initial E-step") || !strings.Contains(err.Error(), "document 0") {
		t.Errorf("model %v, status %v, err %v; want an error naming the initial E-step", m, st, err)
	}

	// A topic with P(z|d) = 0 in every document gets no mass in the first
	// M-step: NumericalFailure naming the M-step at iteration 1, and the
	// model is the last accepted (initial) parameters.
	s = newSolver(set, pc.C.D, pc.C.DT)
	s.init(engine.NewRand(0))
	for d := 0; d < 10; d++ {
		s.theta.Set(d, 0, 0)
	}
	phi0, theta0 := mat.DenseCopyOf(s.phi), mat.DenseCopyOf(s.theta)
	m, st, err = s.run(context.Background(), nil)
	if err != nil || m == nil || st.Reason != engine.NumericalFailure || st.Iterations != 0 ||
		!strings.Contains(st.Detail, "iteration 1: M-step: topic 0 has total mass 0") {
		t.Fatalf("status %v, err %v; want a numerical failure in the M-step at iteration 1", st, err)
	}
	if matcmp.MaxAbsDiff(m.TermTopics(), phi0) != 0 || matcmp.MaxAbsDiff(m.DocTopics(), theta0) != 0 {
		t.Error("the model is not the initial parameters")
	}
}

func TestDegenerateScale(t *testing.T) {
	// Issue 11: an all-zero matrix, and a 3×3 one of 1e308, used to end in
	// "numerical failure after 0 iterations". The first has no observed
	// word, the second a log-likelihood that overflows at the start: both
	// are errors from Fit saying so. Around 1e200 the counts' scale cancels
	// out of EM (r = n/P(w|d) is normalized away) and −L ≈ 1e202 is
	// finite: the fit succeeds with a finite model.
	o := Options{K: 2, Stopping: engine.Stopping{MaxIter: 5}}
	for _, tc := range []struct {
		name string
		c    *engine.Corpus
		want string
	}{
		{"all zero", testcorpus.Filled(t, 4, 4, func(int, int) float64 { return 0 }), "no non-zero entry"},
		{"3x3 of 1e308", testcorpus.Filled(t, 3, 3, func(int, int) float64 { return 1e308 }), "overflows float64"},
	} {
		if m, st, err := o.Fit(context.Background(), tc.c, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v, %v; want an error containing %q", tc.name, m, st, err, tc.want)
		}
	}
	m, st, err := o.Fit(context.Background(), testcorpus.Filled(t, 4, 4, func(i, j int) float64 { return 1e200 * float64(1+i+2*j) }), nil)
	if err != nil || st.Reason == engine.NumericalFailure || math.IsInf(st.Objective, 0) || math.IsNaN(st.Objective) {
		t.Fatalf("around 1e200: status %v, err %v", st, err)
	}
	for _, f := range []*mat.Dense{m.TermTopics(), m.DocTopics()} {
		if i, j, bad := dense.FirstNonFinite(nil, f); bad {
			t.Fatalf("around 1e200: factor entry (%d, %d) = %v", i, j, f.At(i, j))
		}
	}
}

func BenchmarkIteration(b *testing.B) {
	// One EM iteration (M-step and E-step) at the foundation's benchmark
	// size: 30,000 terms × 20,000 documents, 1.6M non-zeros, K = 100.
	c := testcorpus.BenchmarkCorpus(b)
	set, err := Options{K: testcorpus.BenchK, Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}.resolve(c.Terms(), c.Docs())
	if err != nil {
		b.Fatal(err)
	}
	s := newSolver(set, c.D, c.DT)
	s.init(engine.NewRand(1))
	if _, f := s.estep(s.theta, s.phi); f != "" {
		b.Fatal(f)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if f := s.mstep(); f != "" {
			b.Fatal(f)
		}
		if _, f := s.estep(s.thNext, s.phNext); f != "" {
			b.Fatal(f)
		}
		s.theta, s.thNext = s.thNext, s.theta
		s.phi, s.phNext = s.phNext, s.phi
	}
}

func TestEvalEveryLeavesIteratesUnchanged(t *testing.T) {
	// The driver evaluates the objective only every EvalEvery iterations;
	// the E-step, whose P(w|d) the next M-step needs, is part of the step,
	// so the parameters are the same bits whatever the cadence.
	pc := testcorpus.Planted(t, 3, 30, 20, 3, 15)
	m1, m3 := enginetest.EvalEveryUnchanged(t, "plsi", func(stop engine.Stopping, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		return Options{K: 3, Seed: 5, Stopping: stop}.Fit(context.Background(), pc.C, rec)
	})
	if m1.(*Model).LogLikelihood() != m3.(*Model).LogLikelihood() {
		t.Error("EvalEvery 3 changed the log-likelihood")
	}
}
