// Package enginetest holds the checks that the tests of several engine
// families make in the same way, beyond what the conformance suite
// (engine/factortest) runs on its own random corpora:
//
//   - a group model refuses a corpus without the class of every document
//     (LabelErrors);
//   - issue 11's degenerate inputs (HugeCases): a fit either refuses the
//     data naming the overflowing initialization (WantInitOverflow) or
//     returns a finite model (FiniteModel), for labelled corpora too
//     (HugeLabelled);
//   - bit-identical fits and fold-ins on pools of 1, 2 and 3 workers
//     (SameAcrossPools), of a one-class group model and its flat family
//     (SameAsFlat), and of two models folding in the same documents
//     (SameFoldIn);
//   - the fold-in errors every family gives (FoldInErrors);
//   - the same iterates whatever the objective's cadence (EvalEveryUnchanged);
//   - probability factors whose columns and rows sum to 1 (Distributions);
//   - a cancelled fit returns its last complete iterate (Cancellation), and
//     a fold-in stops inside a document at its deadline
//     (FoldInStopsWithinARow);
//   - a group model recognises the class of held-out documents
//     (HeldOutClasses), a per-class baseline is its single-class
//     family fitted class by class (PerClassMatches), a group model's
//     block updates lower its objective, class by class (NotRaised), and
//     its E(d; Ũ_p) meets a direct evaluation for every class
//     (EachClassError);
//   - a K whose factors cannot fit in memory refused before they are
//     allocated, where a family checks K itself (RefusesHugeK);
//   - factors of the right shapes (Shapes) and without a negative entry
//     (NonNegative). (A recorded objective that never rises is
//     factortest.NonIncreasing, which the tests above the engine use too.)
//
// It is imported by test files only.
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// HugeCase is one of issue 11's inputs: the m×n matrix with entries f(i,
// j). WantErr: ‖D‖²_F overflows, so no objective can be evaluated and a
// fit must refuse the data.
type HugeCase struct {
	Name    string
	M, N    int
	F       func(i, j int) float64
	WantErr bool
}

// HugeCases are a 3×3 matrix of 1e308 and a 4×4 one with entries around
// 1e200 (‖D‖²_F overflows for both), and a 4×4 one around 1e150 (‖D‖²_F is
// finite and a fit runs).
var HugeCases = []HugeCase{
	{"3x3 of 1e308", 3, 3, func(i, j int) float64 { return 1e308 }, true},
	{"4x4 around 1e200", 4, 4, func(i, j int) float64 { return 1e200 * float64(1+i+2*j) }, true},
	{"4x4 around 1e150", 4, 4, func(i, j int) float64 { return 1e150 * float64(1+i+2*j) }, false},
}

// WantInitOverflow checks that a fit refused its data with an error naming
// the overflowing initialization; what names the fit in the message.
func WantInitOverflow(t *testing.T, what string, st engine.Status, err error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "initialization") || !strings.Contains(err.Error(), "overflows float64") {
		t.Errorf("%s: err = %v, status %v; want an error naming the overflowing initialization", what, err, st)
	}
}

// FiniteModel checks that a fit returned a model without error, that
// every entry of its factors is finite and that its objective is finite
// unless the status is a NumericalFailure; what names the fit in the
// message.
func FiniteModel(t *testing.T, what string, m engine.Model, st engine.Status, err error) {
	t.Helper()
	if err != nil || m == nil {
		t.Fatalf("%s: model %v, err %v", what, m, err)
	}
	for _, f := range []*mat.Dense{m.TermTopics(), m.DocTopics()} {
		if r, k, bad := dense.FirstNonFinite(nil, f); bad {
			t.Errorf("%s: status %v, factor entry (%d, %d) = %v", what, st, r, k, f.At(r, k))
		}
	}
	if st.Reason != engine.NumericalFailure && (math.IsNaN(st.Objective) || math.IsInf(st.Objective, 0)) {
		t.Errorf("%s: status %v with a non-finite objective", what, st)
	}
}

// SameAcrossPools fits c with fit on pools of 1, 2 and 3 workers, folds the
// training documents in, and checks that the factors, the fold-in and the
// recorded objectives are the same bits for every pool. It returns the
// model and fold-in of the 1-worker pool.
func SameAcrossPools(t *testing.T, c *engine.Corpus, fit func(p *parallel.Pool, rec *engine.Recorder) (engine.Model, error)) (engine.Model, *mat.Dense) {
	t.Helper()
	var ref engine.Model
	var refObj []float64
	var refFold *mat.Dense
	for _, workers := range []int{1, 2, 3} {
		rec := engine.NewRecorder()
		m, err := fit(parallel.NewPool(workers), rec)
		if err != nil {
			t.Fatal(err)
		}
		fold, err := m.FoldIn(context.Background(), c.DT)
		if err != nil {
			t.Fatal(err)
		}
		var obj []float64
		for _, it := range rec.Iterations() {
			obj = append(obj, it.Objective)
		}
		if ref == nil {
			ref, refObj, refFold = m, obj, fold
			continue
		}
		if !matcmp.BitsEqual(m.TermTopics(), ref.TermTopics()) || !matcmp.BitsEqual(m.DocTopics(), ref.DocTopics()) || !matcmp.BitsEqual(fold, refFold) {
			t.Errorf("%d workers: factors or fold-in differ from 1 worker", workers)
		}
		for i := range obj {
			if math.Float64bits(obj[i]) != math.Float64bits(refObj[i]) {
				t.Errorf("%d workers: objective %d differs", workers, i)
			}
		}
	}
	return ref, refFold
}

// SameAsFlat checks that a group model with one class and no class topics
// is its flat family (Group NMF and engine/nmf, GRLSI and engine/rlsi):
// group and flat, fitted on c with the stopping rule stop, end in the same
// status with the same bits of the objective (converged, when stop.RelTol
// > 0), record as many iterations with the same bits of every objective,
// and give the same bits of both factors and of the fold-in of x. It
// returns both records for the family's checks of the terms; what names
// the case in messages.
func SameAsFlat(t *testing.T, what string, c *engine.Corpus, stop engine.Stopping, group, flat engine.Method, x *sparse.CSR) (groupIts, flatIts []engine.Iteration) {
	t.Helper()
	grec, frec := engine.NewRecorder(), engine.NewRecorder()
	gm, gst, err := group.Fit(context.Background(), c, grec)
	if err != nil {
		t.Fatal(err)
	}
	fm, fst, err := flat.Fit(context.Background(), c, frec)
	if err != nil {
		t.Fatal(err)
	}
	name := flat.Name()
	if gst.Reason != fst.Reason || gst.Iterations != fst.Iterations || math.Float64bits(gst.Objective) != math.Float64bits(fst.Objective) {
		t.Fatalf("%s: status %v, %s %v", what, gst, name, fst)
	}
	if stop.RelTol > 0 && fst.Reason != engine.Converged {
		t.Fatalf("%s: %s did not converge (%v); the test wants the tolerance to stop both", what, name, fst)
	}
	if !matcmp.BitsEqual(gm.TermTopics(), fm.TermTopics()) {
		t.Errorf("%s: U differs from %s (max %g)", what, name, matcmp.MaxAbsDiff(gm.TermTopics(), fm.TermTopics()))
	}
	if !matcmp.BitsEqual(gm.DocTopics(), fm.DocTopics()) {
		t.Errorf("%s: V differs from %s (max %g)", what, name, matcmp.MaxAbsDiff(gm.DocTopics(), fm.DocTopics()))
	}
	groupIts, flatIts = grec.Iterations(), frec.Iterations()
	if len(groupIts) != len(flatIts) {
		t.Fatalf("%s: %d recorded iterations, %s %d", what, len(groupIts), name, len(flatIts))
	}
	for i := range flatIts {
		if math.Float64bits(groupIts[i].Objective) != math.Float64bits(flatIts[i].Objective) {
			t.Errorf("%s: iteration %d: objective %.17g, %s %.17g", what, i+1, groupIts[i].Objective, name, flatIts[i].Objective)
		}
	}
	SameFoldIn(t, what+": fold-in", gm, fm, x)
	return groupIts, flatIts
}

// SameFoldIn checks that the models got and want fold the rows of x in to
// the same bits; what names the case in messages.
func SameFoldIn(t *testing.T, what string, got, want engine.Model, x *sparse.CSR) {
	t.Helper()
	g, errGot := got.FoldIn(context.Background(), x)
	w, errWant := want.FoldIn(context.Background(), x)
	sameBits(t, what, g, errGot, w, errWant)
}

// sameBits fails the test on either error and reports got and want
// (two fold-ins, named what) that are not the same bits.
func sameBits(t *testing.T, what string, got *mat.Dense, errGot error, want *mat.Dense, errWant error) {
	t.Helper()
	if err := errors.Join(errGot, errWant); err != nil {
		t.Fatal(err)
	}
	if !matcmp.BitsEqual(got, want) {
		t.Errorf("%s differs by %g (want identical bits)", what, matcmp.MaxAbsDiff(got, want))
	}
}

// FoldInErrors checks the fold-in errors of a model fitted on a corpus of M
// terms: a matrix of M−1 columns is an error naming them, a 2×M matrix
// whose only entry is bad, at row 1 and column col, is an error naming
// X[1,col], nil is an error, a cancelled context is an error (folding in
// dt, the training documents), and zero rows give an empty result.
func FoldInErrors(t *testing.T, model engine.Model, dt *sparse.CSR, col int, bad float64, badWhat string) {
	t.Helper()
	m := dt.Cols
	wrong, _ := sparse.FromTriplets(1, m-1, nil)
	if _, err := model.FoldIn(context.Background(), wrong); err == nil || !strings.Contains(err.Error(), strconv.Itoa(m-1)+" columns") {
		t.Errorf("wrong width: %v", err)
	}
	x, _ := sparse.FromTriplets(2, m, []sparse.Triplet{{Row: 1, Col: col, Val: bad}})
	if _, err := model.FoldIn(context.Background(), x); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("X[1,%d]", col)) {
		t.Errorf("%s: %v", badWhat, err)
	}
	if _, err := model.FoldIn(context.Background(), nil); err == nil {
		t.Error("nil accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := model.FoldIn(ctx, dt); err == nil {
		t.Error("cancelled fold-in returned no error")
	}
	empty, _ := sparse.FromTriplets(0, m, nil)
	if out, err := model.FoldIn(context.Background(), empty); err != nil || !out.IsEmpty() {
		t.Errorf("zero rows: %v", err)
	}
}

// EvalEveryUnchanged checks that evaluating the objective only every third
// iteration leaves a fit unchanged: fit, called with a stopping rule of
// exactly 7 iterations and EvalEvery 1 and 3, must reach the iteration
// limit, give the same bits of both factors, and record the same objective
// at iterations 3, 6 and 7 and NaN at the others. It returns the two models
// for further family-specific checks; what names the fit in messages.
func EvalEveryUnchanged(t *testing.T, what string, fit func(stop engine.Stopping, rec *engine.Recorder) (engine.Model, engine.Status, error)) (every1, every3 engine.Model) {
	t.Helper()
	run := func(every int) (engine.Model, []engine.Iteration) {
		rec := engine.NewRecorder()
		m, st, err := fit(engine.Stopping{MaxIter: 7, RelTol: -1, EvalEvery: every}, rec)
		if err != nil || st.Reason != engine.IterationLimit || st.Iterations != 7 {
			t.Fatalf("%s, EvalEvery %d: %v, %v", what, every, st, err)
		}
		return m, rec.Iterations()
	}
	m1, its1 := run(1)
	m3, its3 := run(3)
	if !matcmp.BitsEqual(m1.TermTopics(), m3.TermTopics()) || !matcmp.BitsEqual(m1.DocTopics(), m3.DocTopics()) {
		t.Errorf("%s: EvalEvery 3 changed the iterates", what)
	}
	for i, it := range its3 {
		evaluated := (i+1)%3 == 0 || i+1 == 7
		if evaluated && it.Objective != its1[i].Objective || !evaluated && !math.IsNaN(it.Objective) {
			t.Errorf("%s: iteration %d objective %v, want %v (evaluated %v)", what, i+1, it.Objective, its1[i].Objective, evaluated)
		}
	}
	return m1, m3
}

// Distributions checks that the columns of termTopics (P(w|z), named
// termName) and the rows of docTopics (P(z|d), named docName) each sum to 1
// within 1e-12.
func Distributions(t *testing.T, termTopics, docTopics *mat.Dense, termName, docName string) {
	t.Helper()
	_, k := termTopics.Dims()
	for z := 0; z < k; z++ {
		if s := mat.Sum(termTopics.ColView(z)); math.Abs(s-1) > 1e-12 {
			t.Errorf("column %d of %s sums to %v", z, termName, s)
		}
	}
	n, _ := docTopics.Dims()
	for d := 0; d < n; d++ {
		if s := mat.Sum(docTopics.RowView(d)); math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d of %s sums to %v", d, docName, s)
		}
	}
}

// Cancellation checks how a fit ends when its context is cancelled: before
// the start, it returns a model with Status Cancelled after 0 iterations;
// cancelled from the recorder after iteration `after`, Status Cancelled
// after exactly `after` recorded iterations, and its model is the same bits
// as a fit limited to `after` iterations (the last complete iterate).
// fit(ctx, iters, rec) fits with an iteration limit of iters; iters is more
// than after. It returns the pre-cancelled model, the model cancelled
// after `after` iterations and that (cancelled) context, for
// family-specific checks.
func Cancellation(t *testing.T, after, iters int, fit func(ctx context.Context, iters int, rec *engine.Recorder) (engine.Model, engine.Status, error)) (pre, cancelled engine.Model, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pre, st, err := fit(ctx, iters, nil)
	if err != nil || st.Reason != engine.Cancelled || st.Iterations != 0 || pre == nil {
		t.Fatalf("pre-cancelled: model %v, status %v, err %v", pre, st, err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	t.Cleanup(cancel)
	rec := engine.NewRecorder()
	rec.OnIteration = func(it engine.Iteration) {
		if it.Iter == after {
			cancel()
		}
	}
	cancelled, st, err = fit(ctx, iters, rec)
	if err != nil || st.Reason != engine.Cancelled || st.Iterations != after || len(rec.Iterations()) != after {
		t.Fatalf("cancel after %d: status %v, %d recorded, err %v", after, st, len(rec.Iterations()), err)
	}
	ref, _, err := fit(context.Background(), after, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !matcmp.BitsEqual(cancelled.TermTopics(), ref.TermTopics()) || !matcmp.BitsEqual(cancelled.DocTopics(), ref.DocTopics()) {
		t.Errorf("the model cancelled after %d iterations differs from the %d-iteration fit (not the last complete iterate)", after, after)
	}
	return pre, cancelled, ctx
}

// HugeLabelled fits every method of methods(stop) (stop: 5 iterations) on
// each of the HugeCases laid out as a two-class corpus (document j in class
// j mod 2): where ‖D‖²_F overflows, a method must refuse the data naming
// the initialization (WantInitOverflow) or, when mayFail(method) (a method
// whose per-class fits may run on a finite sub-corpus), end in a
// NumericalFailure; whatever a fit ends in, its model is finite
// (FiniteModel).
func HugeLabelled(t *testing.T, methods func(stop engine.Stopping) []engine.Method, mayFail func(engine.Method) bool) {
	t.Helper()
	for _, tc := range HugeCases {
		labels := make([]int, tc.N)
		for j := range labels {
			labels[j] = j % 2
		}
		c := testcorpus.Labelled(t, testcorpus.FilledMatrix(t, tc.M, tc.N, tc.F), labels, 2)
		for _, meth := range methods(engine.Stopping{MaxIter: 5}) {
			m, st, err := meth.Fit(context.Background(), c, nil)
			what := tc.Name + ", " + meth.Name()
			fails := mayFail != nil && mayFail(meth)
			if tc.WantErr && (!fails || err != nil) {
				WantInitOverflow(t, what, st, err)
				continue
			}
			if tc.WantErr && st.Reason != engine.NumericalFailure {
				t.Errorf("%s: status %v, want an error or a numerical failure", what, st)
			}
			FiniteModel(t, what, m, st, err)
		}
	}
}

// InitOverflowLabelled checks that fit refuses a 3×4 two-class corpus
// (documents in classes 0, 1, 0, 1) whose weights of 1e300 make ‖D‖²_F
// overflow, naming the overflowing initialization (WantInitOverflow), and
// returns the corpus of the same layout with the finite weights 1, 2, 3, 4
// for the family's own numerical-failure checks.
func InitOverflowLabelled(t *testing.T, fit func(c *engine.Corpus) (engine.Model, engine.Status, error)) *engine.Corpus {
	t.Helper()
	d, err := sparse.FromTriplets(3, 4, []sparse.Triplet{{Row: 0, Col: 0, Val: 1e300}, {Row: 1, Col: 1, Val: 1e300}, {Row: 2, Col: 2, Val: 1}, {Row: 0, Col: 3, Val: 1e300}})
	if err != nil {
		t.Fatal(err)
	}
	labels := []int{0, 1, 0, 1}
	_, st, err := fit(testcorpus.Labelled(t, d, labels, 2))
	WantInitOverflow(t, "fit on 1e300 weights", st, err)
	d.Val = []float64{1, 2, 3, 4}
	return testcorpus.Labelled(t, d, labels, 2)
}

// LabelErrors checks that a group model's method refuses a nil corpus, a
// corpus without class labels and one whose document 3 has no class (label
// −1), each with an error naming the problem (grouping.New): the group
// models need the class of every training document (GMF §3.1).
func LabelErrors(t *testing.T, meth engine.Method) {
	t.Helper()
	c := testcorpus.Grouped(t, 1, 2, 5, 1, 1, 3)
	unlabelled, err := engine.NewCorpus("plain", c.Vocab, c.D, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	lab := append([]int(nil), c.Labels...)
	lab[3] = -1
	partly, err := engine.NewCorpus("partly", c.Vocab, c.D, nil, lab, c.ClassNames)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    *engine.Corpus
		want string
	}{{unlabelled, "no class labels"}, {partly, "document 3 (column 3) has no class"}, {nil, "nil corpus"}} {
		if _, _, err := meth.Fit(context.Background(), tc.c, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", meth.Name(), err, tc.want)
		}
	}
}

// HeldOutClasses fits a group model on the training part of
// testcorpus.PlantedClassSplit and checks that it predicts the class of
// every held-out document (ŷ = argmin_p E(d; Ũ_p), GMF §4.3 and §5.3) with
// an accuracy of at least min (grouping.ClassAccuracy), and that FoldIn,
// the class unknown, gives the same bits as FoldInClass with the predicted
// classes. It returns the fitted model.
func HeldOutClasses(t *testing.T, min float64, fit func(train *engine.Corpus) (engine.Model, engine.Status, error)) grouping.GroupModel {
	t.Helper()
	train, test, labels := testcorpus.PlantedClassSplit(t)
	m, st, err := fit(train)
	if err != nil || st.Reason == engine.NumericalFailure {
		t.Fatalf("%v %v", st, err)
	}
	model := m.(grouping.GroupModel)
	acc, counted, err := grouping.ClassAccuracy(context.Background(), model, test, labels)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out class accuracy %.4f over %d documents (%v)", acc, counted, st)
	if counted != test.Rows || acc < min {
		t.Errorf("accuracy %.4f over %d documents, want ≥ %v over %d", acc, counted, min, test.Rows)
	}
	pred, err := model.PredictClasses(context.Background(), test)
	if err != nil {
		t.Fatal(err)
	}
	a, errA := model.FoldIn(context.Background(), test)
	b, errB := model.FoldInClass(context.Background(), test, pred)
	sameBits(t, "FoldIn (against FoldInClass with the predicted classes)", a, errA, b, errB)
	return model
}

// TopicBlocks is a fitted group model's view of its topic blocks
// (grouping.Factors) and its E(d; Ũ_p) (grouping.FoldMethods).
type TopicBlocks interface {
	Shared() *mat.Dense
	ClassTopics(p int) *mat.Dense
	Dims() (ks, kc, p int)
	ReconstructionErrors(ctx context.Context, x *sparse.CSR) (*mat.Dense, error)
}

// EachClassError computes E = m.ReconstructionErrors(x) and calls
// check(i, p, E[i,p], ut, d) for every row d of X (dense) and class p, ut
// being Ũ_p = [U0 | U_p] (M × (Ks+Kc), dense): the family's direct
// evaluation of E(d; Ũ_p) (GMF Eq. 8, Eq. 10) to compare with.
func EachClassError(t *testing.T, m TopicBlocks, x *sparse.CSR, check func(i, p int, e float64, ut *mat.Dense, d *mat.VecDense)) {
	t.Helper()
	e, err := m.ReconstructionErrors(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	xd := testcorpus.DenseOf(x)
	ks, kc, np := m.Dims()
	u0 := m.Shared()
	mm, _ := u0.Dims()
	for i := 0; i < x.Rows; i++ {
		d := mat.VecDenseCopyOf(xd.RowView(i))
		for p := 0; p < np; p++ {
			ut := mat.NewDense(mm, ks+kc, nil)
			ut.Slice(0, mm, 0, ks).(*mat.Dense).Copy(u0)
			ut.Slice(0, mm, ks, ks+kc).(*mat.Dense).Copy(m.ClassTopics(p))
			check(i, p, e.At(i, p), ut, d)
		}
	}
}

// PerClassMatches checks a per-class baseline (CRLSI, CNMF; GMF §7.3) on
// testcorpus.UnevenClasses (class 2 has 3 documents, class 3 none), fitted
// by fit on pools of 1 and 2 workers: class p's model is the same bits as
// single(p, sub), the single-class fit on class p's documents alone
// (grouping.Layout.ClassCorpus); the empty class has no model; the status
// and the last merged record hold the sum of the classes' objectives after
// the most iterations of any class; the training documents' classes are
// predicted with an accuracy of at least minAcc; and 2 workers give the
// topics of 1. It returns the corpus and the 1-worker model.
func PerClassMatches(t *testing.T, minAcc float64, fit func(c *engine.Corpus, pool *parallel.Pool, rec *engine.Recorder) (engine.Model, engine.Status, error),
	single func(p int, sub *engine.Corpus) (engine.Model, engine.Status, error)) (*engine.Corpus, engine.Model) {
	t.Helper()
	c := testcorpus.UnevenClasses(t)
	lay := Layout(t, c)
	var ref engine.Model
	for _, w := range []int{1, 2} {
		rec := engine.NewRecorder()
		m, st, err := fit(c, parallel.NewPool(w), rec)
		if err != nil {
			t.Fatal(err)
		}
		classes := m.(interface{ Class(p int) engine.Model })
		sum, maxIt := 0.0, 0
		for p := 0; p < lay.P; p++ {
			if lay.Size(p) == 0 {
				if classes.Class(p) != nil {
					t.Fatalf("empty class %d has a model", p)
				}
				continue
			}
			sub, err := lay.ClassCorpus(c, p)
			if err != nil {
				t.Fatal(err)
			}
			rm, rst, err := single(p, sub)
			if err != nil {
				t.Fatal(err)
			}
			if got := classes.Class(p); !matcmp.BitsEqual(got.TermTopics(), rm.TermTopics()) || !matcmp.BitsEqual(got.DocTopics(), rm.DocTopics()) {
				t.Errorf("class %d: model differs from the single-class fit on the class", p)
			}
			sum += rst.Objective
			maxIt = max(maxIt, rst.Iterations)
		}
		its := rec.Iterations()
		if st.Objective != sum || st.Iterations != maxIt || len(its) != maxIt || its[len(its)-1].Objective != sum {
			t.Errorf("status %v, %d recorded; want objective %v after %d", st, len(its), sum, maxIt)
		}
		acc, _, err := grouping.ClassAccuracy(context.Background(), m.(grouping.ClassPredictor), c.DT, c.Labels)
		if err != nil || acc < minAcc {
			t.Errorf("training-document class accuracy %v (%v), want ≥ %v", acc, err, minAcc)
		}
		if w == 1 {
			ref = m
		} else if !matcmp.BitsEqual(ref.TermTopics(), m.TermTopics()) {
			t.Error("2 workers differ from 1")
		}
	}
	return c, ref
}

// ClassLosses returns ‖D_p − Ũ_pV_p‖²_F for every class p of a group model,
// entry by entry from dense matrices: d is M×N (corpus order), u = [U0 |
// U_1 … U_P] and vc the compact class-major V of the layout lay (the loss
// of GMF Eq. 3 and Eq. 9, by class).
func ClassLosses(lay *grouping.Layout, b grouping.Blocks, d, u, vc *mat.Dense) []float64 {
	m, _ := d.Dims()
	per := make([]float64, b.P)
	for pos := 0; pos < lay.N; pos++ {
		n := lay.Order[pos]
		p := int(lay.ClassOf[pos])
		for i := 0; i < m; i++ {
			x := d.At(i, n)
			for k := 0; k < b.Ks; k++ {
				x -= u.At(i, k) * vc.At(pos, k)
			}
			for k := 0; k < b.Kc; k++ {
				x -= u.At(i, b.Ks+p*b.Kc+k) * vc.At(pos, b.Ks+k)
			}
			per[p] += x * x
		}
	}
	return per
}

// NotRaised reports a per-class part or the total of a group model's
// objective that an update (named what) raised by more than a relative
// 1e-12, from (f0, per-class pc0) to (f1, pc1): the descent property of
// the block updates of GMF (Proposition 1 for Group NMF, §4.1 for GRLSI).
// With pc1 nil it checks the total alone.
func NotRaised(t *testing.T, what string, f0 float64, pc0 []float64, f1 float64, pc1 []float64) {
	t.Helper()
	const slack = 1e-12
	for p := range pc1 {
		if pc1[p] > pc0[p]*(1+slack) {
			t.Errorf("%s update raised class %d's part %.15g → %.15g", what, p, pc0[p], pc1[p])
		}
	}
	if f1 > f0*(1+slack) {
		t.Errorf("%s update raised the objective %.15g → %.15g", what, f0, f1)
	}
}

// Shapes fails the test unless the model fitted on c has an M×k
// TermTopics and an N×k DocTopics.
func Shapes(t *testing.T, m engine.Model, c *engine.Corpus, k int) {
	t.Helper()
	if r, kk := m.TermTopics().Dims(); r != c.Terms() || kk != k {
		t.Fatalf("U is %d×%d, want %d×%d", r, kk, c.Terms(), k)
	}
	if r, kk := m.DocTopics().Dims(); r != c.Docs() || kk != k {
		t.Fatalf("V is %d×%d, want %d×%d", r, kk, c.Docs(), k)
	}
}

// NonNegative fails the test at the first negative entry of the factors;
// what names them.
func NonNegative(t *testing.T, what string, factors ...*mat.Dense) {
	t.Helper()
	for f, a := range factors {
		r, c := a.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if a.At(i, j) < 0 {
					t.Fatalf("%s: factor %d has the negative entry %v at (%d, %d)", what, f, a.At(i, j), i, j)
				}
			}
		}
	}
}

// Layout is the class-major layout of a labelled test corpus
// (grouping.New), failing the test on an error.
func Layout(t *testing.T, c *engine.Corpus) *grouping.Layout {
	t.Helper()
	lay, err := grouping.New(c, "test")
	if err != nil {
		t.Fatal(err)
	}
	return lay
}

// FoldInStopsWithinARow checks that a model whose fold-in runs an
// unbounded number of iterations per document (set up so by the caller,
// e.g. a fold-in iteration limit of 1e9 and no tolerance) stops inside the
// document at a 50 ms deadline: FoldIn returns context.DeadlineExceeded
// and no rows, and does so long before the next document would begin.
func FoldInStopsWithinARow(t *testing.T, model engine.Model, x *sparse.CSR) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	type result struct {
		rows *mat.Dense
		err  error
	}
	done := make(chan result, 1)
	go func() {
		rows, err := model.FoldIn(ctx, x)
		done <- result{rows, err}
	}()
	select {
	case r := <-done:
		if !errors.Is(r.err, context.DeadlineExceeded) || r.rows != nil {
			t.Errorf("FoldIn past its deadline: %v, %v; want nil and context.DeadlineExceeded", r.rows, r.err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("FoldIn still running 20 s after its 50 ms deadline")
	}
}
