package onlinelda

import (
	"bufio"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

func TestDigamma(t *testing.T) {
	// ψ(1) = −γ (Euler's constant), ψ(1/2) = −γ − 2 log 2, ψ(10) = H_9 − γ
	// (A&S 6.3.2–6.3.3).
	const euler = 0.57721566490153286061
	h9 := 1 + 1.0/2 + 1.0/3 + 1.0/4 + 1.0/5 + 1.0/6 + 1.0/7 + 1.0/8 + 1.0/9
	for _, c := range []struct{ x, want float64 }{
		{1, -euler}, {0.5, -euler - 2*math.Ln2}, {10, h9 - euler},
	} {
		if got := digamma(c.x); math.Abs(got-c.want) > 1e-13*math.Max(1, math.Abs(c.want)) {
			t.Errorf("ψ(%v) = %.17g, want %.17g", c.x, got, c.want)
		}
	}
}

func readRows(t *testing.T, name string) *sparse.CSR {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := sparse.ReadMM(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// reference reads testdata/reference.txt (made by
// testdata/sklearn_reference.py): scikit-learn's held-out perplexity of
// test.mtx for random states 0..4.
func reference(t *testing.T) []float64 {
	f, err := os.Open("testdata/reference.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ref []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			v, err := strconv.ParseFloat(line, 64)
			if err != nil {
				t.Fatal(err)
			}
			ref = append(ref, v)
		}
	}
	if len(ref) != 5 {
		t.Fatalf("reference.txt has %d values, want 5", len(ref))
	}
	return ref
}

// With scikit-learn's own fitted λ (random state 0), the transform and the
// bound here give its held-out perplexity to rounding: the E-step, the
// evidence lower bound and the perplexity are the same computations.
func TestPerplexityMatchesScikitLearn(t *testing.T) {
	test := readRows(t, "test.mtx")
	lambdaKW, err := sparse.ReadDenseMMFile("testdata/lambda0.mtx")
	if err != nil {
		t.Fatal(err)
	}
	k, w := lambdaKW.Dims()
	set, err := Options{K: k, Alpha: 0.1, Eta: 0.1, MeanChangeTol: DefaultMeanChangeTol}.resolve(w, 1000)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{lambda: mat.DenseCopyOf(lambdaKW.T()), expElogBeta: mat.NewDense(w, k, nil), set: set}
	expDirichlet(nil, m.expElogBeta, m.lambda)
	got, err := m.Perplexity(context.Background(), test)
	if err != nil {
		t.Fatal(err)
	}
	if want := reference(t)[0]; math.Abs(got-want) > 1e-9*want {
		t.Errorf("held-out perplexity with scikit-learn's λ: %.15g, scikit-learn %.15g", got, want)
	}
}

// Fitted from scratch with the same settings, held-out perplexity agrees with
// scikit-learn's in distribution: the mean over five seeds within 3 % of
// scikit-learn's mean over five random states (whose own spread is ±5 %:
// online VB finds different local optima), every run within 10 % of
// scikit-learn's range.
func TestFitMatchesScikitLearnInDistribution(t *testing.T) {
	train, test := readRows(t, "train.mtx"), readRows(t, "test.mtx")
	ref := reference(t)
	refMean, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	for _, v := range ref {
		refMean += v / float64(len(ref))
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	c := testcorpus.CorpusOf(t, train.T())
	mean := 0.0
	var ours []float64
	for seed := uint64(0); seed < 5; seed++ {
		o := Options{K: 10, Alpha: 0.1, Eta: 0.1, Tau0: 10, Kappa: 0.7, BatchSize: 64, Passes: 30, MeanChangeTol: DefaultMeanChangeTol, Seed: seed}
		m, _, err := o.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.(*Model).Perplexity(context.Background(), test)
		if err != nil {
			t.Fatal(err)
		}
		ours = append(ours, p)
		mean += p / 5
		if p < 0.9*lo || p > 1.1*hi {
			t.Errorf("seed %d: held-out perplexity %.2f outside scikit-learn's range [%.2f, %.2f] ± 10 %%", seed, p, lo, hi)
		}
	}
	t.Logf("held-out perplexity: ours %.2f (mean %.2f), scikit-learn %.2f (mean %.2f)", ours, mean, ref, refMean)
	if math.Abs(mean-refMean) > 0.03*refMean {
		t.Errorf("mean held-out perplexity %.2f, scikit-learn's %.2f: more than 3 %% apart", mean, refMean)
	}
}

// The recorded objective is the negative bound of the candidate, and the
// perplexity diagnostic is exp(bound/words) of the same bound.
func TestRecordsBoundAndPerplexity(t *testing.T) {
	c := factortest.Corpus(t, 80, 150, 3, 9)
	rec := engine.NewRecorder()
	m, st, err := Options{K: 3, Passes: 4, EvalEvery: 2, MeanChangeTol: DefaultMeanChangeTol, Pool: parallel.NewPool(1)}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	its := rec.Iterations()
	if len(its) != 4 || st.Reason != engine.IterationLimit {
		t.Fatalf("%d iterations, status %v", len(its), st)
	}
	if !math.IsNaN(its[0].Objective) || math.IsNaN(its[1].Objective) || len(its[0].Diagnostics) != 0 || len(its[1].Diagnostics) != 1 {
		t.Fatalf("passes 1 and 2: %+v %+v; want the bound and perplexity only on pass 2", its[0], its[1])
	}
	words := 0.0
	for _, v := range c.D.Val {
		words += v
	}
	p, err := m.(*Model).Perplexity(context.Background(), c.DT)
	if err != nil {
		t.Fatal(err)
	}
	if last := its[3]; math.Abs(last.Diagnostics[0].Value-math.Exp(last.Objective/words)) > 1e-9*last.Diagnostics[0].Value ||
		math.Abs(p-last.Diagnostics[0].Value) > 1e-9*p {
		t.Errorf("pass 4: perplexity %v, exp(−bound/words) %v, Perplexity() %v", last.Diagnostics[0].Value, math.Exp(last.Objective/words), p)
	}
}

// TestTransformRejectsBadInput: a negative count and a wrong width are
// errors naming what is wrong, an empty X gives an empty result.
func TestTransformRejectsBadInput(t *testing.T) {
	c := factortest.Corpus(t, 20, 15, 2, 3)
	m, _, err := Options{K: 2, Passes: 1, MeanChangeTol: DefaultMeanChangeTol, Pool: parallel.NewPool(1)}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	model := m.(*Model)
	neg, err := sparse.FromTriplets(1, 20, []sparse.Triplet{{Row: 0, Col: 4, Val: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.Transform(context.Background(), neg); err == nil || !strings.Contains(err.Error(), "onlinelda: FoldIn: X[0,4] = -1, want finite and non-negative") {
		t.Errorf("negative count: error %v", err)
	}
	wide, err := sparse.FromTriplets(1, 21, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.Transform(context.Background(), wide); err == nil || !strings.Contains(err.Error(), "want the 20 terms") {
		t.Errorf("21 columns: error %v", err)
	}
	empty, err := sparse.FromTriplets(0, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := model.Transform(context.Background(), empty); err != nil || !got.IsEmpty() {
		t.Errorf("no rows: %v, %v", got, err)
	}
}

// TestOptionsErrorsNameTheKey: an option out of range is named by its Go
// field and its catalog key, the name a catalog or CLI user typed.
func TestOptionsErrorsNameTheKey(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{BatchSize: -3}, "onlinelda: BatchSize (batch) = -3, want ≥ 1 (0 for the default 128)"},
		{Options{MaxDocIters: -1}, "onlinelda: MaxDocIters (max-doc-iters) = -1, want ≥ 1 (0 for the default 100)"},
		{Options{EvalEvery: -2}, "onlinelda: EvalEvery (eval-every) = -2, want ≥ 1 (0 for the default: Passes)"},
		{Options{Alpha: math.NaN()}, "onlinelda: Alpha (alpha) = NaN, want a finite number > 0 (0: the default 1/K)"},
		{Options{MeanChangeTol: -1}, "onlinelda: MeanChangeTol (mean-change-tol) = -1, want a finite number > 0 (0: every E-step runs MaxDocIters iterations)"},
		{Options{Kappa: 0.4}, "onlinelda: Kappa (kappa) = 0.4, want 0.5 < κ ≤ 1"},
	} {
		if _, err := tc.o.resolve(10, 10); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
}
