package grouprlsi

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

func TestOneClassKc0EqualsRLSI(t *testing.T) {
	// GRLSI with P = 1 and Kc = 0 is RLSI (Uℓ1-Vℓ2): same seed and options
	// must give the same bits in U, V, every recorded term and the status,
	// both with a fixed number of iterations and when the tolerance stops
	// the fit. The corpus has more than 1024 documents so that the Grams
	// have several blocks.
	c0 := testcorpus.Grouped(t, 5, 1, 1100, 3, 2, 4) // one class: 1100 docs
	if c0.Classes() != 1 {
		t.Fatal("want one class")
	}
	x := c0.DT.SelectRows([]int{0, 7, 1099})
	for _, stop := range []engine.Stopping{{MaxIter: 4, RelTol: -1}, {MaxIter: 400, RelTol: 1e-3}} {
		for _, workers := range []int{1, 2} {
			pool := parallel.NewPool(workers)
			g := Options{Ks: 5, Kc: None, Lambda1: 0.2, Lambda2: 0.3, Stopping: stop, Seed: 11, InnerSweeps: 30, Pool: pool, InnerTol: rlsi.DefaultInnerTol}
			r := rlsi.Options{K: 5, Lambda1: 0.2, Lambda2: 0.3, Stopping: stop, Seed: 11, InnerSweeps: 30, Pool: pool, InnerTol: rlsi.DefaultInnerTol}
			gi, ri := enginetest.SameAsFlat(t, fmt.Sprintf("stop %+v workers %d", stop, workers), c0, stop, g, r, x)
			for i := range ri {
				want := map[string]float64{TermLoss: ri[i].Terms[0].Value, TermU0: ri[i].Terms[1].Value, TermUp: 0, TermV: ri[i].Terms[2].Value}
				for _, term := range gi[i].Terms {
					if math.Float64bits(term.Value) != math.Float64bits(want[term.Name]) {
						t.Errorf("iteration %d: %s = %.17g, RLSI %.17g", i+1, term.Name, term.Value, want[term.Name])
					}
				}
			}
		}
	}
}

func TestFitRecordsExactObjective(t *testing.T) {
	// The recorded terms (trace formula) equal a direct evaluation of Eq. 3
	// from the returned factors, the objective is their sum, sparsity is
	// the zero count, and K = Ks + P·Kc.
	c := testcorpus.Grouped(t, 3, 3, 20, 2, 2, 5)
	d := testcorpus.DenseOf(c.D)
	rec := engine.NewRecorder()
	o := Options{Ks: 2, Kc: 2, Lambda1: 0.1, Lambda2: 0.2, Stopping: engine.Stopping{MaxIter: 3, RelTol: -1}, Seed: 2, InnerTol: rlsi.DefaultInnerTol}
	model, st, err := o.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != engine.IterationLimit || st.Iterations != 3 {
		t.Fatalf("status %v", st)
	}
	enginetest.Shapes(t, model, c, 2+3*2)
	u, v := model.TermTopics(), model.DocTopics()
	// A document has weights only in the shared and its class's columns.
	for n := 0; n < c.Docs(); n++ {
		for k := 2; k < 8; k++ {
			if (k-2)/2 != c.Labels[n] && v.At(n, k) != 0 {
				t.Fatalf("document %d (class %d) has weight in topic %d", n, c.Labels[n], k)
			}
		}
	}
	loss, r0, rc, rv := directObjective(d, u, v, 2, 0.1, 0.2)
	last := rec.Iterations()[2]
	names := []string{TermLoss, TermU0, TermUp, TermV}
	for i, want := range []float64{loss, r0, rc, rv} {
		if last.Terms[i].Name != names[i] {
			t.Errorf("term %d is %q, want %q", i, last.Terms[i].Name, names[i])
		}
		if got := last.Terms[i].Value; math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("%s = %.12g, direct %.12g", names[i], got, want)
		}
	}
	if sum := loss + r0 + rc + rv; math.Abs(last.Objective-sum) > 1e-9*sum || st.Objective != last.Objective {
		t.Errorf("objective %.12g (status %.12g), direct %.12g", last.Objective, st.Objective, sum)
	}
	zeros := func(a *mat.Dense, c0, c1 int) float64 {
		r, _ := a.Dims()
		z := 0
		for i := 0; i < r; i++ {
			for j := c0; j < c1; j++ {
				if a.At(i, j) == 0 {
					z++
				}
			}
		}
		return float64(z) / float64(r*(c1-c0))
	}
	rep := model.(*Model).Representations()
	for i, want := range []float64{zeros(u, 0, 2), zeros(u, 2, 8), zeros(rep, 0, 4)} {
		if got := last.Sparsity[i].Value; got != want {
			t.Errorf("sparsity %s = %v, want %v", last.Sparsity[i].Name, got, want)
		}
	}
	// The objective never increases (each block update minimizes its
	// sub-problem exactly or, for the lasso rows, never increases it).
	factortest.NonIncreasing(t, "grouprlsi", rec.Iterations(), factortest.MonotoneSlack)
}

// objectiveAt evaluates Eq. 3 directly for a solver state: U (M×K) and the
// compact class-major V.
func objectiveAt(s *solver, d *mat.Dense, u, vc *mat.Dense) (total float64, perClass []float64) {
	m, _ := d.Dims()
	perClass = enginetest.ClassLosses(s.lay, s.Blocks, d, u, vc)
	for pos := 0; pos < s.n; pos++ {
		for k := 0; k < s.Kt(); k++ {
			total += s.set.lambda2 * vc.At(pos, k) * vc.At(pos, k)
		}
	}
	for i := 0; i < m; i++ {
		for k := 0; k < s.K(); k++ {
			a := s.set.lambda1 * math.Abs(u.At(i, k))
			if k >= s.Ks {
				perClass[(k-s.Ks)/s.Kc] += a
			} else {
				total += a
			}
		}
	}
	for _, f := range perClass {
		total += f
	}
	return total, perClass
}

func TestBlockUpdatesLowerSubObjectives(t *testing.T) {
	// Each block update of Algorithm 1 lowers (never raises) the objective
	// of Eq. 3 with the other blocks fixed — equivalently its own
	// sub-objective (Eq. 4, Eq. 7 per class, the V_p problem) — and the
	// ℓ1 updates reach the minimizer: the rows of U0 and U_p satisfy the
	// lasso optimality conditions of Eq. 6/7 computed independently from
	// dense matrices, and the V_p are the closed form of §4.1.3 solved by
	// gonum.
	c := testcorpus.Grouped(t, 8, 3, 14, 2, 2, 4)
	d := testcorpus.DenseOf(c.D)
	for _, kk := range [][2]int{{2, 2}, {2, None}, {None, 2}} {
		s := testSolver(t, Options{Ks: kk[0], Kc: kk[1], Lambda1: 0.05, Lambda2: 0.2, InnerSweeps: 2000, InnerTol: 1e-13, Seed: 4, Stopping: engine.DefaultStopping()}, c)
		s.initV(engine.NewRand(4).Float64)
		ctx := context.Background()
		for it := 0; it < 4; it++ {
			f0, _ := objectiveAt(s, d, s.u, s.v)
			// U0.
			if f := s.updateU0(ctx); f != nil {
				t.Fatal(f)
			}
			mix := mat.DenseCopyOf(s.u)
			if s.Ks > 0 {
				s.U0(mix).Copy(s.U0(s.uNext))
				checkLassoKKT(t, "U0", s, d, mix)
			}
			f1, pc1 := objectiveAt(s, d, mix, s.v)
			enginetest.NotRaised(t, fmt.Sprintf("%v it %d: UpdateU0", kk, it), f0, nil, f1, nil)
			// U_p.
			if f := s.updateUc(ctx); f != nil {
				t.Fatal(f)
			}
			if s.Kc > 0 {
				s.Uc(mix).Copy(s.Uc(s.uNext))
				checkLassoKKT(t, "U_p", s, d, mix)
			}
			// With U0 changed, a class's sub-objective of Eq. 7 is
			// compared at the new U0 (pc1 has it).
			f2, pc2 := objectiveAt(s, d, mix, s.v)
			enginetest.NotRaised(t, fmt.Sprintf("%v it %d: UpdateU_p", kk, it), f1, pc1, f2, pc2)
			// V_p.
			if f := s.updateV(ctx); f != nil {
				t.Fatal(f)
			}
			checkRidge(t, s, d, mix)
			f3, _ := objectiveAt(s, d, mix, s.vNext)
			enginetest.NotRaised(t, fmt.Sprintf("%v it %d: UpdateV", kk, it), f2, nil, f3, nil)
			s.gNext = s.classGrams(s.vNext) // as step leaves them
			terms := s.objectiveTerms()
			got := terms[0].Value + terms[1].Value + terms[2].Value + terms[3].Value
			if math.Abs(got-f3) > 1e-9*f3 {
				t.Errorf("%v it %d: recorded objective %.15g, direct %.15g", kk, it, got, f3)
			}
			s.Accept()
		}
	}
}

// checkLassoKKT checks the optimality conditions of the lasso rows just
// computed (U0 when shared, else every U_p), from dense matrices: with the
// residual E = D − (the other blocks' reconstruction), the gradient of
// ‖E − U_blk X‖² at U_blk is −2(E − U_blk X)Xᵀ, and the optimum has
// |2((E − U X)Xᵀ)_mk| ≤ λ1 where u_mk = 0 and = λ1·sign(u_mk) otherwise.
func checkLassoKKT(t *testing.T, what string, s *solver, d, u *mat.Dense) {
	t.Helper()
	m, _ := d.Dims()
	worst := 0.0
	// grad[m][col] accumulates 2·Σ_n resid_mn·x_n(col) over documents.
	grad := mat.NewDense(m, s.K(), nil)
	for pos := 0; pos < s.n; pos++ {
		n := s.lay.Order[pos]
		p := int(s.lay.ClassOf[pos])
		for i := 0; i < m; i++ {
			r := d.At(i, n)
			for k := 0; k < s.Ks; k++ {
				r -= u.At(i, k) * s.v.At(pos, k)
			}
			for k := 0; k < s.Kc; k++ {
				r -= u.At(i, s.Ks+p*s.Kc+k) * s.v.At(pos, s.Ks+k)
			}
			if shared := what == "U0"; shared {
				for k := 0; k < s.Ks; k++ {
					grad.Set(i, k, grad.At(i, k)+2*r*s.v.At(pos, k))
				}
			} else {
				for k := 0; k < s.Kc; k++ {
					col := s.Ks + p*s.Kc + k
					grad.Set(i, col, grad.At(i, col)+2*r*s.v.At(pos, s.Ks+k))
				}
			}
		}
	}
	lo, hi := 0, s.Ks
	if what != "U0" {
		lo, hi = s.Ks, s.K()
	}
	l1 := s.set.lambda1
	for i := 0; i < m; i++ {
		for k := lo; k < hi; k++ {
			g, x := grad.At(i, k), u.At(i, k)
			var viol float64
			if x == 0 {
				viol = math.Max(0, math.Abs(g)-l1)
			} else {
				viol = math.Abs(g - l1*math.Copysign(1, x))
			}
			worst = math.Max(worst, viol)
		}
	}
	if worst > 1e-6 {
		t.Errorf("%s: lasso optimality violated by %g (λ1 = %g)", what, worst, l1)
	}
}

// checkRidge checks v_n = (Ũ_pᵀŨ_p + λ2 I)⁻¹Ũ_pᵀd_n for every document,
// solved by gonum from the dense matrices.
func checkRidge(t *testing.T, s *solver, d, u *mat.Dense) {
	t.Helper()
	m, _ := d.Dims()
	worst := 0.0
	for pos := 0; pos < s.n; pos++ {
		n := s.lay.Order[pos]
		p := int(s.lay.ClassOf[pos])
		ut := mat.NewDense(m, s.Kt(), nil)
		for i := 0; i < m; i++ {
			for k := 0; k < s.Ks; k++ {
				ut.Set(i, k, u.At(i, k))
			}
			for k := 0; k < s.Kc; k++ {
				ut.Set(i, s.Ks+k, u.At(i, s.Ks+p*s.Kc+k))
			}
		}
		var a mat.Dense
		a.Mul(ut.T(), ut)
		for k := 0; k < s.Kt(); k++ {
			a.Set(k, k, a.At(k, k)+s.set.lambda2)
		}
		var b, x mat.VecDense
		b.MulVec(ut.T(), d.ColView(n))
		if err := x.SolveVec(&a, &b); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < s.Kt(); k++ {
			worst = math.Max(worst, math.Abs(x.AtVec(k)-s.vNext.At(pos, k)))
		}
	}
	if worst > 1e-9 {
		t.Errorf("V_p differs from the closed form by %g", worst)
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	// Uneven classes (sizes 1200, 300, 40, 3 and an empty class) so that
	// units differ in number per class; pools of 1, 2 and 3 workers give
	// the same bits.
	c := testcorpus.UnevenGroups(t)
	m, _ := enginetest.SameAcrossPools(t, c, func(pool *parallel.Pool, rec *engine.Recorder) (engine.Model, error) {
		o := Options{Ks: 3, Kc: 2, Lambda1: 0.05, Lambda2: 0.1, Stopping: engine.Stopping{MaxIter: 3, RelTol: -1}, Seed: 1, Pool: pool, InnerTol: rlsi.DefaultInnerTol}
		m, _, err := o.Fit(context.Background(), c, rec)
		return m, err
	})
	// The empty class has no topics.
	for i := 0; i < c.Terms(); i++ {
		for k := 3 + 4*2; k < 3+5*2; k++ {
			if m.TermTopics().At(i, k) != 0 {
				t.Fatalf("empty class has a non-zero topic weight")
			}
		}
	}
}

func TestCancel(t *testing.T) {
	c := testcorpus.Grouped(t, 1, 2, 10, 1, 1, 4)
	_, m, ctx := enginetest.Cancellation(t, 2, 10, func(ctx context.Context, iters int, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		o := Options{Ks: 1, Kc: 1, Stopping: engine.Stopping{MaxIter: iters, RelTol: -1}, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, InnerTol: rlsi.DefaultInnerTol}
		return o.Fit(ctx, c, rec)
	})
	if _, err := m.FoldIn(ctx, c.DT); !errors.Is(err, context.Canceled) {
		t.Errorf("fold-in with a cancelled context: %v", err)
	}
}

func TestErrors(t *testing.T) {
	c := testcorpus.Grouped(t, 1, 2, 5, 1, 1, 3)
	valid := Options{Ks: DefaultKs, Kc: DefaultKc, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: rlsi.DefaultInnerTol}
	enginetest.LabelErrors(t, valid)
	// Each case is valid but for the one option it sets.
	for _, tc := range []struct {
		set  func(*Options)
		want string
	}{
		{func(o *Options) { o.Ks = -2 }, "Ks = -2"},
		{func(o *Options) { o.Kc = -5 }, "Kc = -5"},
		{func(o *Options) { o.Ks, o.Kc = None, None }, "no topics"},
		{func(o *Options) { o.Lambda1 = -1 }, "Lambda1"},
		{func(o *Options) { o.Lambda2 = math.NaN() }, "Lambda2"},
		{func(o *Options) { o.InnerSweeps = -1 }, "InnerSweeps"},
		{func(o *Options) { o.InnerTol = math.Inf(1) }, "InnerTol"},
		{func(o *Options) { o.Stopping = engine.Stopping{MaxIter: -1, RelTol: engine.DefaultRelTol} }, "MaxIter"},
	} {
		o := valid
		tc.set(&o)
		_, _, err := o.Fit(context.Background(), c, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", o, err, tc.want)
		}
	}
	m, _, err := Options{Ks: 1, Kc: 1, Stopping: engine.Stopping{MaxIter: 1, RelTol: engine.DefaultRelTol}, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, InnerTol: rlsi.DefaultInnerTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := &sparse.CSR{Rows: 1, Cols: c.Terms() + 1, RowPtr: []int{0, 0}}
	if _, err := m.FoldIn(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "columns") {
		t.Errorf("wrong width: %v", err)
	}
	nan := &sparse.CSR{Rows: 1, Cols: c.Terms(), RowPtr: []int{0, 1}, ColIdx: []int32{0}, Val: []float64{math.NaN()}}
	if _, err := m.FoldIn(context.Background(), nan); err == nil || !strings.Contains(err.Error(), "finite") {
		t.Errorf("NaN: %v", err)
	}
	if _, err := m.(*Model).FoldInClass(context.Background(), c.DT, make([]int, 2)); err == nil {
		t.Error("wrong number of classes accepted")
	}
	cl := make([]int, c.Docs())
	cl[0] = 2
	if _, err := m.(*Model).FoldInClass(context.Background(), c.DT, cl); err == nil || !strings.Contains(err.Error(), "class 2") {
		t.Errorf("bad class: %v", err)
	}
}

func TestSizesZeroAndOne(t *testing.T) {
	// One document, one term: a document's Ks + Kc = 2 topics exceed
	// min(M, N).
	o := Options{Ks: 1, Kc: 1, Lambda1: 0.1, Lambda2: 0.1, Stopping: engine.Stopping{MaxIter: 20, RelTol: engine.DefaultRelTol}, InnerTol: rlsi.DefaultInnerTol}
	one, _ := sparse.FromTriplets(1, 1, []sparse.Triplet{{Row: 0, Col: 0, Val: 2}})
	want := "grouprlsi: Ks + Kc = 1 + 1 = 2 exceeds min(M, N) = min(1 terms, 1 documents) = 1"
	if _, _, err := o.Fit(context.Background(), testcorpus.Labelled(t, one, []int{1}, 2), nil); err == nil || err.Error() != want {
		t.Errorf("1×1 corpus, Ks + Kc = 2: %v, want %q", err, want)
	}
	// Three documents of class 1, three terms: the fit runs with Kc = 1
	// and two classes, one of which is empty.
	d, _ := sparse.FromTriplets(3, 3, []sparse.Triplet{{Row: 0, Col: 0, Val: 2}, {Row: 1, Col: 1, Val: 1}, {Row: 2, Col: 2, Val: 3}})
	c := testcorpus.Labelled(t, d, []int{1, 1, 1}, 2)
	m, st, err := o.Fit(context.Background(), c, nil)
	if err != nil || st.Reason == engine.NumericalFailure {
		t.Fatalf("%v %v", st, err)
	}
	if r, k := m.DocTopics().Dims(); r != 3 || k != 3 {
		t.Fatalf("V %d×%d", r, k)
	}
	pred, err := m.(*Model).PredictClasses(context.Background(), c.DT)
	if err != nil || pred[0] != 1 {
		t.Errorf("prediction %v %v, want class 1 (the only trained class)", pred, err)
	}
	// Zero new documents.
	out, err := m.FoldIn(context.Background(), &sparse.CSR{Rows: 0, Cols: 3, RowPtr: []int{0}})
	if err != nil || !out.IsEmpty() {
		t.Errorf("empty fold-in: %v %v", out, err)
	}
}

func TestNumericalFailure(t *testing.T) {
	// Weights near the float64 limit: ‖D‖²_F overflows, so no objective
	// can be evaluated and Fit refuses the data, naming the initialization
	// (it used to report "numerical failure after 0 iterations", issue 11).
	o := Options{Ks: 1, Kc: 1, Stopping: engine.Stopping{MaxIter: 5}}
	c := enginetest.InitOverflowLabelled(t, func(c *engine.Corpus) (engine.Model, engine.Status, error) {
		return o.Fit(context.Background(), c, nil)
	})

	// A V⁽⁰⁾ of 1e200 overflows S0 = Σ H_pH_pᵀ in the first UpdateU0: the
	// fit stops with NumericalFailure naming the step and returns the last
	// accepted iterate, V⁽⁰⁾ itself (finite).
	s := testSolver(t, o, c)
	s.initV(func() float64 { return 1e200 })
	v0 := mat.DenseCopyOf(s.v)
	st := grouping.Run(context.Background(), s, s.set.stop, nil)
	if st.Reason != engine.NumericalFailure || st.Iterations != 0 || !strings.Contains(st.Detail, "iteration 1: UpdateU0") || !strings.Contains(st.Detail, "S0") {
		t.Errorf("status %v, want a numerical failure in UpdateU0 (S0) at iteration 1", st)
	}
	m := newModel(s)
	if !matcmp.BitsEqual(s.v, v0) { // the model wraps the solver's V
		t.Error("V is not V⁽⁰⁾")
	}
	for _, f := range []*mat.Dense{m.TermTopics(), m.DocTopics()} {
		if r, k, bad := dense.FirstNonFinite(nil, f); bad {
			t.Errorf("factor entry (%d, %d) = %v", r, k, f.At(r, k))
		}
	}
}

func TestHugeEntries(t *testing.T) {
	// Issue 11's inputs (a 3×3 matrix of 1e308, a 4×4 one around 1e200)
	// overflow ‖D‖²_F: GRLSI and CRLSI refuse them with an error naming
	// the initialization. Around 1e150 the fits run; whatever they end in,
	// the model is finite.
	enginetest.HugeLabelled(t, func(stop engine.Stopping) []engine.Method {
		return []engine.Method{Options{Ks: 1, Kc: 1, Stopping: stop}, PerClassOptions{Kc: 1, Stopping: stop}}
	}, nil)
}

func TestEvalEveryLeavesIteratesUnchanged(t *testing.T) {
	// The driver evaluates the objective only every EvalEvery iterations;
	// the class Grams V_pV_pᵀ, which the next iteration needs, are computed
	// by the step, so the iterates are the same bits whatever the cadence,
	// and the evaluated objectives agree.
	c := testcorpus.Grouped(t, 3, 3, 20, 2, 2, 5)
	enginetest.EvalEveryUnchanged(t, "grouprlsi", func(stop engine.Stopping, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		return Options{Ks: 2, Kc: 2, Lambda1: 0.05, Seed: 5, Stopping: stop}.Fit(context.Background(), c, rec)
	})
}
