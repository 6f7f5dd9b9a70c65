package rlsi

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
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

var allVariants = []Variant{U1V2, U2V1, U1V1, U2V2}

// directObjective evaluates the variant's objective from dense matrices:
// ‖D − UVᵀ‖²_F plus the regularizers, entry by entry.
func directObjective(d *mat.Dense, u, v *mat.Dense, variant Variant, l1, l2 float64) (loss, regU, regV float64) {
	loss = matcmp.ResidualSq(d, u, v)
	reg := func(a *mat.Dense, l1norm bool) float64 {
		r, c := a.Dims()
		t := 0.0
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if l1norm {
					t += math.Abs(a.At(i, j))
				} else {
					t += a.At(i, j) * a.At(i, j)
				}
			}
		}
		return t
	}
	return loss, l1 * reg(u, variant.l1U()), l2 * reg(v, variant.l1V())
}

func TestFitRecordsExactObjective(t *testing.T) {
	// The recorded loss (trace formula) and regularizers equal a direct
	// evaluation from the returned factors; sparsity equals the zero count.
	c := topicCorpus(t, 21, 60, 40, 5)
	d := testcorpus.DenseOf(c.D)
	for _, variant := range allVariants {
		rec := engine.NewRecorder()
		o := Options{K: 5, Lambda1: 2, Lambda2: 0.2, Variant: variant, Stopping: engine.Stopping{MaxIter: 4, RelTol: -1}, Seed: 3, InnerTol: DefaultInnerTol}
		model, st, err := o.Fit(context.Background(), c, rec)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != engine.IterationLimit || st.Iterations != 4 {
			t.Fatalf("%v: status %v, want iteration limit after 4", variant, st)
		}
		its := rec.Iterations()
		if len(its) != 4 {
			t.Fatalf("%v: %d recorded iterations, want 4", variant, len(its))
		}
		last := its[3]
		u, v := model.TermTopics(), model.DocTopics()
		loss, ru, rv := directObjective(d, u, v, variant, 2, 0.2)
		wantNames := map[Variant][2]string{U1V2: {TermU1, TermV2}, U2V1: {TermU2, TermV1}, U1V1: {TermU1, TermV1}, U2V2: {TermU2, TermV2}}[variant]
		if last.Terms[0].Name != TermLoss || last.Terms[1].Name != wantNames[0] || last.Terms[2].Name != wantNames[1] {
			t.Errorf("%v: term names %v", variant, last.Terms)
		}
		for i, want := range []float64{loss, ru, rv} {
			if got := last.Terms[i].Value; math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("%v: term %s = %.12g, direct %.12g", variant, last.Terms[i].Name, got, want)
			}
		}
		if sum := loss + ru + rv; math.Abs(last.Objective-sum) > 1e-9*sum || st.Objective != last.Objective {
			t.Errorf("%v: objective %.12g (status %.12g), direct %.12g", variant, last.Objective, st.Objective, sum)
		}
		if got, want := last.Sparsity[0].Value, dense.ZeroFraction(parallel.Default(), u); last.Sparsity[0].Name != SparsityU || got != want {
			t.Errorf("%v: sparsity U %v, want %v", variant, got, want)
		}
		if got, want := last.Sparsity[1].Value, dense.ZeroFraction(parallel.Default(), v); last.Sparsity[1].Name != SparsityV || got != want {
			t.Errorf("%v: sparsity V %v, want %v", variant, got, want)
		}
		if variant.l1U() && dense.ZeroFraction(parallel.Default(), u) == 0 {
			t.Errorf("%v: ℓ1 on U but U has no zeros", variant)
		}
		if !variant.l1U() && dense.ZeroFraction(parallel.Default(), u) != 0 {
			t.Errorf("%v: ℓ2 on U but U has zeros (%v)", variant, dense.ZeroFraction(parallel.Default(), u))
		}
	}
}

// checkMonotone fits c with every variant and fails if the objective ever
// rises between outer iterations by more than rounding.
func checkMonotone(t *testing.T, c *engine.Corpus, k, iters int, l1, l2 float64) {
	t.Helper()
	for _, variant := range allVariants {
		rec := engine.NewRecorder()
		o := Options{K: k, Lambda1: l1, Lambda2: l2, Variant: variant, Stopping: engine.Stopping{MaxIter: iters, RelTol: -1}, Seed: 1, InnerTol: DefaultInnerTol}
		_, st, err := o.Fit(context.Background(), c, rec)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != engine.IterationLimit {
			t.Fatalf("%v: %v", variant, st)
		}
		factortest.Decreasing(t, variant.String(), rec.Iterations(), 1e-10)
	}
}

func TestObjectiveNeverIncreasesSynthetic(t *testing.T) {
	checkMonotone(t, topicCorpus(t, 31, 120, 80, 6), 8, 15, 0.5, 1.0)
	checkMonotone(t, testcorpus.CorpusOf(t, randomSparse(32, 100, 70, 0.1)), 5, 10, 0.05, 0.05)
}

func TestDeterminismAcrossPools(t *testing.T) {
	// Same seed, 1 worker vs 2 workers: identical bits in U, V and every
	// recorded number, for every variant. Large enough to span several
	// blocks of every parallel loop.
	c := testcorpus.CorpusOf(t, randomSparse(41, 1500, 1100, 0.01))
	for _, variant := range allVariants {
		var us, vs []*mat.Dense
		var objs [][]float64
		for _, workers := range []int{1, 2, 2} {
			rec := engine.NewRecorder()
			o := Options{K: 6, Variant: variant, Lambda1: 0.02, Lambda2: 0.005, Stopping: engine.Stopping{MaxIter: 3, RelTol: -1}, Seed: 9, Pool: parallel.NewPool(workers), InnerTol: DefaultInnerTol}
			m, _, err := o.Fit(context.Background(), c, rec)
			if err != nil {
				t.Fatal(err)
			}
			us = append(us, m.TermTopics())
			vs = append(vs, m.DocTopics())
			var obj []float64
			for _, it := range rec.Iterations() {
				obj = append(obj, it.Objective)
				for _, tm := range it.Terms {
					obj = append(obj, tm.Value)
				}
			}
			objs = append(objs, obj)
		}
		if z := dense.ZeroFraction(parallel.Default(), us[0]); z == 1 {
			t.Errorf("%v: U is all zero, the comparison is vacuous", variant)
		}
		for i := 1; i < len(us); i++ {
			if !matcmp.BitsEqual(us[0], us[i]) || !matcmp.BitsEqual(vs[0], vs[i]) {
				t.Errorf("%v: factors differ between runs 0 and %d (workers 1 vs 2)", variant, i)
			}
			for j := range objs[0] {
				if math.Float64bits(objs[0][j]) != math.Float64bits(objs[i][j]) {
					t.Errorf("%v: recorded value %d differs: %v vs %v", variant, j, objs[0][j], objs[i][j])
				}
			}
		}
	}
	// A different seed gives a different fit.
	a, _, _ := Options{K: 4, Lambda1: 0.05, Lambda2: 0.1, Stopping: engine.Stopping{MaxIter: 2, RelTol: engine.DefaultRelTol}, Seed: 1, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
	b, _, _ := Options{K: 4, Lambda1: 0.05, Lambda2: 0.1, Stopping: engine.Stopping{MaxIter: 2, RelTol: engine.DefaultRelTol}, Seed: 2, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
	if matcmp.BitsEqual(a.DocTopics(), b.DocTopics()) {
		t.Error("seeds 1 and 2 gave identical V")
	}
}

func TestFoldInTrainingDocuments(t *testing.T) {
	c := topicCorpus(t, 51, 80, 60, 5)
	for _, variant := range allVariants {
		o := Options{K: 5, Lambda1: 0.2, Lambda2: 0.3, Variant: variant, Stopping: engine.Stopping{MaxIter: 6, RelTol: -1},
			InnerSweeps: 100000, InnerTol: 1e-14, Seed: 4}
		m, _, err := o.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.FoldIn(context.Background(), c.DT)
		if err != nil {
			t.Fatal(err)
		}
		v := m.DocTopics()
		if variant.l1V() {
			// Lasso from v = 0 vs warm-started lasso during the fit: the same
			// convex minimizer, to the inner tolerance.
			if d := matcmp.MaxAbsDiff(got, v); d > 1e-9 {
				t.Errorf("%v: fold-in differs from fitted V by %g", variant, d)
			}
		} else if !matcmp.BitsEqual(got, v) {
			// Same Σ, same kernels as the last V update: the same bits.
			t.Errorf("%v: fold-in differs from fitted V by %g (want identical bits)", variant, matcmp.MaxAbsDiff(got, v))
		}
		// A subset of rows folds in to the same rows.
		sub := c.DT.SelectRows([]int{7, 3})
		g2, err := m.FoldIn(context.Background(), sub)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 5; q++ {
			if g2.At(0, q) != got.At(7, q) || g2.At(1, q) != got.At(3, q) {
				t.Errorf("%v: fold-in of a subset differs", variant)
			}
		}
	}
}

func TestFoldInErrors(t *testing.T) {
	c := topicCorpus(t, 52, 30, 20, 3)
	m, _, err := Options{K: 3, Stopping: engine.Stopping{MaxIter: 2, RelTol: engine.DefaultRelTol}, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.FoldIn(context.Background(), randomSparse(1, 2, 29, 0.5)); err == nil || !strings.Contains(err.Error(), "30 terms") {
		t.Errorf("wrong width: err = %v", err)
	}
	bad := randomSparse(1, 2, 30, 0.5)
	bad.Val[0] = math.NaN()
	if _, err := m.FoldIn(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN input: err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.FoldIn(ctx, randomSparse(1, 2, 30, 0.5)); err != context.Canceled {
		t.Errorf("cancelled: err = %v", err)
	}
	empty := &sparse.CSR{Rows: 0, Cols: 30, RowPtr: []int{0}}
	if out, err := m.FoldIn(context.Background(), empty); err != nil || out == nil {
		t.Errorf("zero rows: %v, %v", out, err)
	}
}

func TestValidation(t *testing.T) {
	c := topicCorpus(t, 61, 30, 20, 3)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{K: -1, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "K = -1"},
		{Options{K: 21, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "K = 21 exceeds min(M, N)"},
		{Options{Lambda1: -0.1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "Lambda1"},
		{Options{Lambda1: math.NaN(), Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "Lambda1"},
		{Options{Lambda2: math.Inf(1), Lambda1: DefaultLambda1, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "Lambda2"},
		{Options{Lambda2: -1, Lambda1: DefaultLambda1, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "Lambda2"},
		{Options{Variant: 7, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "Variant"},
		{Options{Variant: -1, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "Variant"},
		{Options{InnerSweeps: -2, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "InnerSweeps"},
		{Options{InnerTol: math.NaN(), Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping()}, "InnerTol"},
		{Options{Stopping: engine.Stopping{MaxIter: -1, RelTol: engine.DefaultRelTol}, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, InnerTol: DefaultInnerTol}, "MaxIter"},
		{Options{K: 3, InitV: mat.NewDense(19, 3, nil), Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "InitV is 19×3"},
		{Options{K: 3, InitV: mat.NewDense(20, 3, []float64{59: math.NaN()}), Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, "InitV[19,2]"},
	} {
		_, _, err := tc.o.Fit(context.Background(), c, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want it to mention %q", tc.o, err, tc.want)
		}
	}
	if _, _, err := (Options{Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}).Fit(context.Background(), nil, nil); err == nil {
		t.Error("nil corpus: no error")
	}
	// Sizes 0 and 1.
	empty := testcorpus.CorpusOf(t, &sparse.CSR{Rows: 0, Cols: 0, RowPtr: []int{0}})
	if _, _, err := (Options{Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}).Fit(context.Background(), empty, nil); err == nil || !strings.Contains(err.Error(), "rlsi: empty corpus (0 terms × 0 documents)") {
		t.Errorf("empty corpus: err = %v", err)
	}
	one := testcorpus.CorpusOf(t, &sparse.CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 1}, ColIdx: []int32{0}, Val: []float64{3}})
	for _, variant := range allVariants {
		m, st, err := Options{K: 1, Variant: variant, Lambda1: 0.5, Lambda2: 1, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}.Fit(context.Background(), one, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != engine.Converged {
			t.Errorf("%v 1×1: %v", variant, st)
		}
		if r, cc := m.TermTopics().Dims(); r != 1 || cc != 1 {
			t.Errorf("%v: U is %d×%d", variant, r, cc)
		}
	}
}

func TestParseVariant(t *testing.T) {
	for in, want := range map[string]Variant{"u1v2": U1V2, "U2V1": U2V1, "Uℓ1-Vℓ1": U1V1, "ul2-vl2": U2V2, " u1_v2 ": U1V2} {
		got, err := ParseVariant(in)
		if err != nil || got != want {
			t.Errorf("ParseVariant(%q) = %v, %v; want %v", in, got, err, want)
		}
		if back, _ := ParseVariant(got.String()); back != got {
			t.Errorf("round trip of %v", got)
		}
	}
	if _, err := ParseVariant("u3v1"); err == nil {
		t.Error("u3v1 accepted")
	}
}

func TestCancellation(t *testing.T) {
	c := topicCorpus(t, 71, 50, 40, 4)
	o := Options{K: 4, Stopping: engine.Stopping{MaxIter: 10, RelTol: -1}, Seed: 5, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, InnerTol: DefaultInnerTol}
	// Cancelled before the start: zero iterations; during iteration 3 (from
	// the recorder after iteration 2): the model is exactly the 2-iteration
	// fit.
	enginetest.Cancellation(t, 2, 10, func(ctx context.Context, iters int, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		oi := o
		oi.Stopping.MaxIter = iters
		return oi.Fit(ctx, c, rec)
	})
	// Cancelled inside UpdateU's parallel loop: lassoRows skips blocks once
	// ctx is done, and Fit returns the previous iterate.
	ctx2, cancel2 := context.WithCancel(context.Background())
	s := newSolverForTest(t, c, o)
	cancel2()
	if err := s.updateU(ctx2); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled UpdateU returned %v, want context.Canceled", err)
	}
	if dense.ZeroFraction(parallel.Default(), s.uNext) != 1 {
		t.Error("cancelled UpdateU still did the coordinate descent")
	}
}

func newSolverForTest(t *testing.T, c *engine.Corpus, o Options) *solver {
	t.Helper()
	set, err := o.resolve(c.Terms(), c.Docs())
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(set, c.D, c.DT)
	s.initV(engine.NewRand(set.seed).NormFloat64)
	return s
}

func TestNumericalFailure(t *testing.T) {
	// Entries near the float64 limit overflow the Gram matrices: the fit
	// stops with NumericalFailure naming the step, returns no error, and
	// leaves the last complete iterate (here V⁽⁰⁾).
	c := topicCorpus(t, 81, 30, 20, 3)
	v0 := mat.NewDense(20, 3, nil)
	for i := 0; i < 20; i++ {
		for j := 0; j < 3; j++ {
			v0.Set(i, j, 1e200*float64(1+i+j))
		}
	}
	for _, variant := range allVariants {
		m, st, err := Options{K: 3, Variant: variant, InitV: v0, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != engine.NumericalFailure || st.Iterations != 0 {
			t.Errorf("%v: status %v, want numerical failure at iteration 1", variant, st)
		}
		if !strings.Contains(st.Detail, "iteration 1") || !(strings.Contains(st.Detail, "UpdateU") || strings.Contains(st.Detail, "UpdateV") || strings.Contains(st.Detail, "objective")) {
			t.Errorf("%v: detail %q does not name the step", variant, st.Detail)
		}
		if !matcmp.BitsEqual(m.DocTopics(), v0) {
			t.Errorf("%v: V is not V⁽⁰⁾", variant)
		}
	}
}

func TestConvergedStatus(t *testing.T) {
	c := topicCorpus(t, 91, 60, 40, 4)
	rec := engine.NewRecorder()
	_, st, err := Options{K: 4, Stopping: engine.Stopping{MaxIter: 500, RelTol: 1e-6}, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	its := rec.Iterations()
	if st.Reason != engine.Converged || st.Iterations != len(its) || st.Iterations >= 500 {
		t.Fatalf("status %v with %d records", st, len(its))
	}
	n := len(its)
	if rel := math.Abs(its[n-2].Objective-its[n-1].Objective) / its[n-2].Objective; rel > 1e-6 {
		t.Errorf("converged with relative change %g", rel)
	}
}

func TestColdStartReachesSameLassoSolutions(t *testing.T) {
	// Algorithm 2 line 4 restarts every row from 0; the default warm start
	// begins at the previous iterate. With converged inner loops both find
	// the unique minimizers of the (strictly convex here) row lassos, so the
	// fits agree to the inner tolerance.
	c := topicCorpus(t, 101, 60, 40, 4)
	for _, variant := range []Variant{U1V2, U1V1} {
		var fits []engine.Model
		for _, cold := range []bool{false, true} {
			m, _, err := Options{K: 4, Lambda1: 1, Lambda2: 0.3, Variant: variant, ColdStart: cold, InnerSweeps: 100000, InnerTol: 1e-14,
				Stopping: engine.Stopping{MaxIter: 3, RelTol: -1}, Seed: 2}.Fit(context.Background(), c, nil)
			if err != nil {
				t.Fatal(err)
			}
			fits = append(fits, m)
		}
		if d := matcmp.MaxAbsDiff(fits[0].TermTopics(), fits[1].TermTopics()); d > 1e-8 {
			t.Errorf("%v: warm and cold U differ by %g", variant, d)
		}
		if d := matcmp.MaxAbsDiff(fits[0].DocTopics(), fits[1].DocTopics()); d > 1e-8 {
			t.Errorf("%v: warm and cold V differ by %g", variant, d)
		}
	}
}

func TestHugeEntries(t *testing.T) {
	// Issue 11: a 3×3 matrix of 1e308 and a 4×4 one with entries around
	// 1e200 used to end in "numerical failure after 0 iterations". ‖D‖²_F
	// overflows for both, so no objective can be evaluated: Fit refuses
	// the data, naming the initialization. At 1e150 ‖D‖²_F is finite and
	// the fit runs; whatever it ends in, the model is finite.
	for _, tc := range enginetest.HugeCases {
		c := testcorpus.Filled(t, tc.M, tc.N, tc.F)
		for _, variant := range allVariants {
			m, st, err := Options{K: 2, Variant: variant, Stopping: engine.Stopping{MaxIter: 5}}.Fit(context.Background(), c, nil)
			what := fmt.Sprintf("%s, %v", tc.Name, variant)
			if tc.WantErr {
				enginetest.WantInitOverflow(t, what, st, err)
				continue
			}
			enginetest.FiniteModel(t, what, m, st, err)
		}
	}
}

func TestEvalEveryLeavesIteratesUnchanged(t *testing.T) {
	// The driver evaluates the objective only every EvalEvery iterations;
	// S = VVᵀ, which the next UpdateU needs, is computed by the step, so
	// the iterates are the same bits whatever the cadence.
	c := topicCorpus(t, 7, 40, 30, 3)
	for _, variant := range allVariants {
		enginetest.EvalEveryUnchanged(t, variant.String(), func(stop engine.Stopping, rec *engine.Recorder) (engine.Model, engine.Status, error) {
			return Options{K: 3, Variant: variant, Seed: 5, Stopping: stop}.Fit(context.Background(), c, rec)
		})
	}
}
