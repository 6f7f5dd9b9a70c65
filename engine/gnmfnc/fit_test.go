package gnmfnc

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// TestWeights checks α_p, β_l and the defaults against §3.1: a = 100 and
// (Ks, Kp) = (20, 8) give α = 100/160 = 0.625 (β = 100/64 = 1.5625).
func TestWeights(t *testing.T) {
	if a := Alpha(100, 20, 8); a != 0.625 {
		t.Errorf("α = %v, want 0.625", a)
	}
	if b := Beta(100, 8, 8); b != 1.5625 {
		t.Errorf("β = %v, want 1.5625", b)
	}
	s, err := Defaults().resolve()
	if err != nil {
		t.Fatal(err)
	}
	if s.ks != 20 || s.kp != 8 || s.a != 100 || s.alpha != 0.625 || s.beta != 1.5625 || s.sig1 != 1 || s.sig2 != 1 || s.sig3 != 1 {
		t.Errorf("defaults %+v", s)
	}
	s, err = Options{Ks: 5, Kp: 2, Sigma3: 0.5, Sigma1: DefaultSigma}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	if s.alpha != 0 || s.beta != 0 || s.sig1 != 1 || s.sig2 != 0 || s.sig3 != 0.5 {
		t.Errorf("zero and explicit weights resolved to %+v", s)
	}
	for _, o := range []Options{{Ks: -1}, {Kp: -3}, {A: math.NaN()}, {Sigma1: -2}, {Sigma3: math.Inf(1)}} {
		if _, err := o.resolve(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestLabelErrors: like the other group models, GNMFNC needs the category
// of every training document.
func TestLabelErrors(t *testing.T) {
	enginetest.LabelErrors(t, Defaults())
}

// TestLambda checks λ_p = ‖D_p‖_F⁻² per category, 0 for a category without
// documents, and the error for a category of empty documents.
func TestLambda(t *testing.T) {
	d, _ := sparse.FromTriplets(2, 4, []sparse.Triplet{{Row: 0, Col: 0, Val: 3}, {Row: 1, Col: 0, Val: 4},
		{Row: 0, Col: 2, Val: 1}, {Row: 1, Col: 1, Val: 2}})
	c := testcorpus.Labelled(t, d, []int{0, 1, 0, 1}, 3)
	lay, err := grouping.New(c, "test")
	if err != nil {
		t.Fatal(err)
	}
	set, _ := Options{Ks: 1, Kp: 1, A: DefaultA, Sigma1: DefaultSigma, Sigma2: DefaultSigma, Sigma3: DefaultSigma}.resolve()
	s, err := newSolver(set, lay)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1.0 / 26, 1.0 / 4, 0}; s.lam[0] != want[0] || s.lam[1] != want[1] || s.lam[2] != want[2] {
		t.Errorf("λ = %v, want %v", s.lam, want)
	}
	c = testcorpus.Labelled(t, d, []int{0, 0, 0, 1}, 2) // category 1 holds only the empty document 3
	lay, _ = grouping.New(c, "test")
	if _, err := newSolver(set, lay); err == nil {
		t.Error("a category of empty documents: no error")
	}
	// ‖D_0‖²_F = 2·(1e200)² overflows: λ_0 = 1/Inf = 0 would drop category 0
	// from the fit while it "converges".
	// (3×3: Ks + Kp = 2 ≤ min(M, N).)
	huge, _ := sparse.FromTriplets(3, 3, []sparse.Triplet{{Row: 0, Col: 0, Val: 1e200}, {Row: 1, Col: 0, Val: 1e200}, {Row: 0, Col: 1, Val: 1}, {Row: 2, Col: 2, Val: 1}})
	c = testcorpus.Labelled(t, huge, []int{0, 1, 1}, 2)
	if _, _, err := (Options{Ks: 1, Kp: 1, A: DefaultA, Sigma1: DefaultSigma, Sigma2: DefaultSigma, Sigma3: DefaultSigma}).Fit(context.Background(), c, engine.NewRecorder()); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("a category whose squared norm overflows: err = %v, want an overflow error", err)
	}
}

// reference is L of Eq. 3 computed densely from its definition, term by
// term, at U = [U_s | U_1 … U_P] and V (class-major rows), independently of
// the solver's expansion through Grams.
func reference(s *solver, u, v *mat.Dense) (float64, [6]float64) {
	var t [6]float64
	dd := testcorpus.DenseOf(s.lay.D)
	ones := func(n int) *mat.Dense {
		o := mat.NewDense(n, 1, nil)
		for i := 0; i < n; i++ {
			o.Set(i, 0, 1)
		}
		return o
	}
	fro2 := func(a mat.Matrix) float64 { n := mat.Norm(a, 2); return n * n }
	us := s.U0(u)
	for p := 0; p < s.P; p++ {
		lo, hi := s.lay.Offset[p], s.lay.Offset[p+1]
		up := s.Up(u, p)
		if hi > lo {
			var ut mat.Dense
			ut.Augment(us, up)
			var rec mat.Dense
			rec.Mul(&ut, v.Slice(lo, hi, 0, s.Kt()).T())
			rec.Sub(dd.Slice(0, s.m, lo, hi), &rec)
			t[0] += fro2(&rec) / fro2(dd.Slice(0, s.m, lo, hi))
		}
		var x mat.Dense
		x.Mul(us.T(), up)
		t[1] += s.set.alpha * fro2(&x)
		for l := 0; l < s.P; l++ {
			if l != p {
				x.Reset()
				x.Mul(up.T(), s.Up(u, l))
				t[2] += s.set.beta * fro2(&x)
			}
		}
		var cs mat.Dense
		cs.Mul(up.T(), ones(s.m))
		cs.Sub(&cs, ones(s.Kc))
		t[4] += s.set.sig2 * fro2(&cs)
		var rs mat.Dense
		rs.Mul(v.Slice(lo, hi, 0, s.Kt()).T(), ones(hi-lo))
		if hi == lo {
			rs = *mat.NewDense(s.Kt(), 1, nil)
		}
		rs.Sub(&rs, ones(s.Kt()))
		t[5] += s.set.sig3 * fro2(&rs)
	}
	var cs mat.Dense
	cs.Mul(us.T(), ones(s.m))
	cs.Sub(&cs, ones(s.Ks))
	t[3] = s.set.sig1 * fro2(&cs)
	return t[0] + t[1] + t[2] + t[3] + t[4] + t[5], t
}

// randomCorpus is a dense random non-negative M×N matrix with random
// categories (every category non-empty).
func randomCorpus(t *testing.T, seed uint64, m, n, np int) *engine.Corpus {
	rng := engine.NewRand(seed)
	var ts []sparse.Triplet
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			if rng.Float64() < 0.4 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: rng.Float64() * 3})
			}
		}
		ts = append(ts, sparse.Triplet{Row: j % m, Col: j, Val: 1})
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, n)
	for j := range labels {
		labels[j] = j % np
	}
	rng.Shuffle(n, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	return testcorpus.Labelled(t, d, labels, np)
}

// TestUpdatesNonIncreasing is Theorem 2.1 block by block: on random data and
// for several weightings, L of Eq. 3 (computed by reference) does not
// increase under the U_s update, the U_p updates, or the V_p update; and
// the solver's own objective equals the reference.
func TestUpdatesNonIncreasing(t *testing.T) {
	cases := []struct {
		name string
		c    *engine.Corpus
		o    Options
	}{
		{"paper-weights", randomCorpus(t, 1, 30, 40, 3), Options{Ks: 3, Kp: 2, A: DefaultA, Sigma1: DefaultSigma, Sigma2: DefaultSigma, Sigma3: DefaultSigma}},
		{"strong-R", randomCorpus(t, 2, 25, 36, 4), Options{Ks: 2, Kp: 3, A: 1e4, Sigma1: DefaultSigma, Sigma2: DefaultSigma, Sigma3: DefaultSigma}},
		{"strong-shrink", randomCorpus(t, 3, 20, 30, 3), Options{Ks: 2, Kp: 2, A: 10, Sigma1: 50, Sigma2: 50, Sigma3: 50}},
		{"grouped", testcorpus.Grouped(t, 4, 4, 12, 2, 2, 4), Options{Ks: 2, Kp: 2, A: 1000, Sigma3: 0.1, Sigma1: DefaultSigma, Sigma2: DefaultSigma}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			set, err := tc.o.resolve()
			if err != nil {
				t.Fatal(err)
			}
			set.pool = parallel.NewPool(2)
			lay, err := grouping.New(tc.c, "test")
			if err != nil {
				t.Fatal(err)
			}
			s, err := newSolver(set, lay)
			if err != nil {
				t.Fatal(err)
			}
			s.init(tc.c.D)
			ctx := context.Background()
			prev, _ := reference(s, s.u, s.v)
			check := func(it int, what string, f float64) {
				t.Helper()
				if f > prev*(1+1e-12) {
					t.Fatalf("iteration %d: %s increased L from %.17g to %.17g", it, what, prev, f)
				}
				prev = f
			}
			for it := 1; it <= 40; it++ {
				if err := s.updateUs(ctx); err != nil {
					t.Fatal(err)
				}
				mixed := mat.DenseCopyOf(s.u)
				s.U0(mixed).Copy(s.U0(s.uNext))
				f, _ := reference(s, mixed, s.v)
				check(it, "the U_s update", f)
				if err := s.updateUp(ctx); err != nil {
					t.Fatal(err)
				}
				f, _ = reference(s, s.uNext, s.v)
				check(it, "the U_p updates", f)
				if err := s.updateV(ctx); err != nil {
					t.Fatal(err)
				}
				f, terms := reference(s, s.uNext, s.vNext)
				check(it, "the V_p update", f)
				got, gotTerms := s.Objective()
				if math.Abs(got-f) > 1e-9*math.Max(1, f) {
					t.Fatalf("iteration %d: objective %.17g, reference %.17g", it, got, f)
				}
				for j, term := range gotTerms {
					if math.Abs(term.Value-terms[j]) > 1e-9*math.Max(1, terms[j]) {
						t.Fatalf("iteration %d: term %s = %.17g, reference %.17g", it, term.Name, term.Value, terms[j])
					}
				}
				s.Accept()
			}
		})
	}
}

// TestFitRecordsObjective checks the driver's record: L and its terms,
// non-increasing, and the factors non-negative.
func TestFitRecordsObjective(t *testing.T) {
	c := testcorpus.Grouped(t, 5, 3, 15, 2, 2, 5)
	rec := engine.NewRecorder()
	m, st, err := Options{Ks: 2, Kp: 2, Stopping: engine.Stopping{MaxIter: 30, RelTol: -1}, Seed: 3, A: DefaultA, Sigma1: DefaultSigma, Sigma2: DefaultSigma, Sigma3: DefaultSigma}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != engine.IterationLimit || st.Iterations != 30 {
		t.Fatalf("status %v", st)
	}
	its := rec.Iterations()
	for _, it := range its {
		if len(it.Terms) != 6 {
			t.Fatalf("iteration %d: %d terms", it.Iter, len(it.Terms))
		}
		sum := 0.0
		for _, term := range it.Terms {
			sum += term.Value
		}
		if math.Abs(sum-it.Objective) > 1e-12*it.Objective {
			t.Errorf("iteration %d: terms sum to %v, objective %v", it.Iter, sum, it.Objective)
		}
	}
	factortest.Decreasing(t, "gnmfnc", its, factortest.MonotoneSlack)
	enginetest.NonNegative(t, "gnmfnc", m.TermTopics(), m.DocTopics())
}

// TestGradientSplit checks that every update is "num/den" of the gradient
// of L itself: den − num (without ε) equals ½∇L at the point the update
// is taken, by central differences of the reference objective on sampled
// entries. This is what catches a β counted once (Eq. 5) or σ1U_s for
// σ1·11ᵀU_s (Eq. 9), which a monotonicity test alone need not.
func TestGradientSplit(t *testing.T) {
	c := randomCorpus(t, 7, 12, 18, 3)
	set, _ := Options{Ks: 2, Kp: 2, A: 50, Sigma1: 2, Sigma2: 3, Sigma3: 0.5}.resolve()
	lay, _ := grouping.New(c, "test")
	s, err := newSolver(set, lay)
	if err != nil {
		t.Fatal(err)
	}
	s.init(c.D)
	ctx := context.Background()
	for it := 0; it < 3; it++ { // move away from the random start
		if err := s.Step(ctx, it+1); err != nil {
			t.Fatal(err)
		}
		s.Accept()
	}
	rng := engine.NewRand(9)
	// fd is ½∂L/∂x at (u, v) for the entry x points into.
	fd := func(u, v *mat.Dense, x *float64) float64 {
		const h = 1e-6
		x0 := *x
		*x = x0 + h
		fp, _ := reference(s, u, v)
		*x = x0 - h
		fm, _ := reference(s, u, v)
		*x = x0
		return (fp - fm) / (4 * h)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-5*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: den − num = %.10g, ½∂L = %.10g", what, got, want)
		}
	}
	if err := s.updateUs(ctx); err != nil {
		t.Fatal(err)
	}
	u, v := mat.DenseCopyOf(s.u), mat.DenseCopyOf(s.v)
	for trial := 0; trial < 12; trial++ {
		i, k := rng.IntN(s.m), rng.IntN(s.Ks)
		near(fmt.Sprintf("U_s[%d,%d]", i, k), s.den0.At(i, k)-s.num0.At(i, k), fd(u, v, &u.RawRowView(i)[k]))
	}
	if err := s.updateUp(ctx); err != nil {
		t.Fatal(err)
	}
	for q := 0; q < s.P; q++ {
		// The point of category q's update: new U_s and U_l (l < q), old U_l (l ≥ q).
		pt := mat.DenseCopyOf(s.u)
		s.U0(pt).Copy(s.U0(s.uNext))
		for l := 0; l < q; l++ {
			s.Up(pt, l).Copy(s.Up(s.uNext, l))
		}
		for trial := 0; trial < 6; trial++ {
			i, k := rng.IntN(s.m), s.Ks+q*s.Kc+rng.IntN(s.Kc)
			near(fmt.Sprintf("U_%d[%d,%d]", q, i, k-s.Ks-q*s.Kc), s.denc.At(i, k-s.Ks)-s.numc.At(i, k-s.Ks), fd(pt, v, &pt.RawRowView(i)[k]))
		}
	}
	if err := s.updateV(ctx); err != nil {
		t.Fatal(err)
	}
	un := mat.DenseCopyOf(s.uNext)
	for trial := 0; trial < 12; trial++ {
		n, k := rng.IntN(s.n), rng.IntN(s.Kt())
		q := s.lay.ClassOf[n]
		lam := s.lam[q]
		got := lam*s.vden.At(n, k) + s.set.sig3*s.r[q][k] - (lam*s.phi.At(n, k) + s.set.sig3)
		near(fmt.Sprintf("V[%d,%d]", n, k), got, fd(un, v, &v.RawRowView(n)[k]))
	}
}
