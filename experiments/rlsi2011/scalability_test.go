package rlsi2011

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
)

// TestRLSIMemoryHand checks the formula against a hand computation:
// M = 3, N = 4, nnz = 5, K = 2, P = 2:
//
//	D and Dᵀ: 8·(3+1) + 12·5 + 8·(4+1) + 12·5 = 32 + 60 + 40 + 60 = 192
//	U, U_next, R: 3·8·3·2 = 144;  Vᵀ, V_next, Φ: 3·8·4·2 = 192
//	S, S_next, UᵀU: 3·8·2·2 = 96;  scratch: 2 workers × 12·2 = 48
//
// total 672 bytes.
func TestRLSIMemoryHand(t *testing.T) {
	if got := rlsiMemory(3, 4, 5, 2, 2); got != 672 {
		t.Fatalf("rlsiMemory(3, 4, 5, 2, 2) = %v, want 672", got)
	}
	// The paper's web set, K = 500, 16 workers: M = 7e6, N = 1.6e6 and
	// (our assumption) 200 non-zeros per document:
	// 24·3.2e8 + 8·(8.6e6+2) + 24·500·8.6e6 + 24·500² + 12·500·16
	// = 7.68e9 + 6.88e7 + 1.032e11 + 6e6 + 96000 = 110,954,896,016 bytes.
	if got := rlsiMemory(7e6, 1.6e6, 3.2e8, 500, 16); got != 110954896016 {
		t.Fatalf("web-set size: %v, want 110954896016", got)
	}
}

// TestMaxDocsInMemory: the returned N fits and N+1 does not.
func TestMaxDocsInMemory(t *testing.T) {
	for _, c := range []struct {
		limit     float64
		m, k, p   int
		nnzPerDoc int
	}{{MachineBytes, 100000, 50, 2, 76}, {1e6, 100, 5, 1, 3}, {MachineBytes, 10000, 500, 2, 80}} {
		n := maxDocsInMemory(c.limit, c.m, c.k, c.p, float64(c.nnzPerDoc))
		if n <= 0 {
			t.Fatalf("%+v: no document fits", c)
		}
		if rlsiMemory(c.m, n, n*c.nnzPerDoc, c.k, c.p) > c.limit {
			t.Errorf("%+v: N = %d does not fit", c, n)
		}
		if rlsiMemory(c.m, n+1, (n+1)*c.nnzPerDoc, c.k, c.p) <= c.limit {
			t.Errorf("%+v: N = %d is not the largest", c, n)
		}
	}
	if n := maxDocsInMemory(1000, 1000, 50, 2, 10); n != 0 {
		t.Fatalf("the fixed part alone exceeds the limit: got N = %d, want 0", n)
	}
}

// TestRLSIMemoryMatchesSolver measures the live heap of a real fit (the
// same way the task does) on a small synthetic corpus and compares it with
// the formula's solver part, 24K(M+N) + 24K² + 12KP.
func TestRLSIMemoryMatchesSolver(t *testing.T) {
	c, _, err := synthetic.Generate(scaleConfig(3000, 4000))
	if err != nil {
		t.Fatal(err)
	}
	const k = 40
	var peak float64
	opts := rlsi.Options{K: k, Lambda1: 0.01, Lambda2: 0.1, RelativeLambda: true, BalancedInit: true, Seed: 3, Stopping: engine.DefaultStopping(), InnerTol: rlsi.DefaultInnerTol}
	opts.Stopping.MaxIter = 2
	before := experiments.LiveHeap()
	rec := newPeakRecorder(&peak)
	if _, _, err := opts.Fit(context.Background(), c, rec); err != nil {
		t.Fatal(err)
	}
	M, N := c.D.Rows, c.D.Cols
	p := parallel.Default().Workers()
	want := rlsiMemory(M, N, 0, k, p) - rlsiMemory(M, N, 0, 0, 0)
	got := peak - before
	if math.Abs(got/want-1) > 0.05 {
		t.Fatalf("measured solver memory %.0f bytes, formula %.0f (M = %d, N = %d, K = %d)", got, want, M, N, k)
	}
	// D and Dᵀ: the arrays hold at least the formula's bytes.
	if d := csrBytes(c.D) + csrBytes(c.DT); d < rlsiMemory(M, N, c.D.NNZ(), 0, 0) {
		t.Fatalf("CSR arrays %.0f bytes < formula %.0f", d, rlsiMemory(M, N, c.D.NNZ(), 0, 0))
	}
}

// TestScalabilityDesign: the full and quick designs expand to the sweeps
// through their centres, the largest run and the NPL K values, once each.
func TestScalabilityDesign(t *testing.T) {
	e := Scalability()
	for _, quick := range []bool{false, true} {
		d := fullDesign
		if quick {
			d = quickDesign
		}
		jobs, err := e.Jobs(quick, 0)
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for _, j := range jobs {
			key := j.Dataset + "/" + j.Point["sweep"]
			count[key]++
			n, m, k := j.Point["docs"], j.Point["terms"], j.Method.Params["k"]
			n0, m0, k0 := strconv.Itoa(d.n0), strconv.Itoa(d.m0), strconv.Itoa(d.k0)
			// Each sweep holds two of (N, M, K) at fixed values.
			fixed := map[string]struct {
				got, want [2]string
				what      string
			}{
				scaleData + "/" + sweepN:       {[2]string{m, k}, [2]string{m0, k0}, "N sweep job %s off the centre"},
				scaleData + "/" + sweepM:       {[2]string{n, k}, [2]string{n0, k0}, "M sweep job %s off the centre"},
				scaleData + "/" + sweepK:       {[2]string{n, m}, [2]string{n0, m0}, "K sweep job %s off the centre"},
				scaleData + "/" + sweepLargest: {[2]string{n, m}, [2]string{strconv.Itoa(d.bigN), strconv.Itoa(d.bigM)}, "largest job %s"},
				nplData + "/" + sweepK:         {[2]string{n, m}, [2]string{wholeCollection, wholeCollection}, "NPL job %s"},
			}
			if f, ok := fixed[key]; !ok {
				t.Errorf("quick=%v: unexpected job %s", quick, j.Label())
			} else if f.got != f.want {
				t.Errorf("quick=%v: "+f.what, quick, j.Label())
			}
			if j.Method.Params["lambda-scale"] != LambdaRelative || j.Method.Params["init-scale"] != "balanced" {
				t.Errorf("quick=%v: job %s params %v", quick, j.Label(), j.Method.Params)
			}
		}
		want := map[string]int{scaleData + "/" + sweepN: len(d.docs), scaleData + "/" + sweepM: len(d.terms),
			scaleData + "/" + sweepK: len(d.ks), scaleData + "/" + sweepLargest: 1, nplData + "/" + sweepK: len(d.nplK)}
		for key, w := range want {
			if count[key] != w {
				t.Errorf("quick=%v: %d jobs of %s, want %d", quick, count[key], key, w)
			}
		}
		if !e.Sequential {
			t.Error("the scalability jobs must run one at a time")
		}
	}
}

// fakeScale builds results from (dataset, sweep, docs, terms, k, metrics).
type scaleRun struct {
	ds, sweep, docs, terms, k string
	m                         map[string]float64
}

func fakeScale(runs []scaleRun) *experiments.Results {
	e := Scalability()
	res := &experiments.Results{Experiment: e}
	for _, r := range runs {
		j := &experiments.Job{Experiment: e, Dataset: r.ds, Method: experiments.MethodSpec{Name: "rlsi", Label: labelRLSI, Params: map[string]string{"k": r.k}},
			Point: map[string]string{"sweep": r.sweep, "docs": r.docs, "terms": r.terms, "k": r.k}}
		run := &experiments.StoredRun{}
		for name, v := range r.m {
			run.Metrics = append(run.Metrics, experiments.Metric{Name: name, Value: v})
		}
		res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: run})
	}
	return res
}

func TestJudgeSweepSlope(t *testing.T) {
	mk := func(f func(x float64) float64) *experiments.Results {
		var runs []scaleRun
		for _, n := range []float64{1000, 2000, 4000, 8000} {
			runs = append(runs, scaleRun{scaleData, sweepN, strconv.Itoa(int(n)), "10", "5", map[string]float64{"sec_per_iter": f(n)}})
			// Another sweep and data set must not enter the fit.
			runs = append(runs, scaleRun{scaleData, sweepM, "10", strconv.Itoa(int(n)), "5", map[string]float64{"sec_per_iter": n * n}})
			runs = append(runs, scaleRun{nplData, sweepN, strconv.Itoa(int(n)), "10", "5", map[string]float64{"sec_per_iter": n * n}})
		}
		return fakeScale(runs)
	}
	judge := judgeSweepSlope(scaleData, sweepN, "docs", "sec_per_iter", 1.3)
	// y = 0.5 + x/1000: slope between 0 and 1 → held.
	v := judge(mk(func(x float64) float64 { return 0.5 + x/1000 }))
	if v.Outcome != experiments.Held || !strings.Contains(v.Detail, "docs=8000: 8.5") {
		t.Fatalf("affine: %v (%s)", v.Outcome, v.Detail)
	}
	// y = x^1.5: slope exactly 1.5 → not held.
	v = judge(mk(func(x float64) float64 { return math.Pow(x, 1.5) }))
	if v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "slope 1.500") {
		t.Fatalf("x^1.5: %v (%s)", v.Outcome, v.Detail)
	}
	// One point: no slope → inconclusive.
	v = judge(fakeScale([]scaleRun{{scaleData, sweepN, "1000", "10", "5", map[string]float64{"sec_per_iter": 1}}}))
	if v.Outcome != experiments.Inconclusive {
		t.Fatalf("one point: %v (%s)", v.Outcome, v.Detail)
	}
}

func TestJudgeMemFormulaAndCollapse(t *testing.T) {
	ok := []scaleRun{
		{scaleData, sweepN, "1000", "10", "5", map[string]float64{"mem_mib": 105, "mem_formula_mib": 100, "avgcomp": 0.5}},
		{nplData, sweepK, wholeCollection, wholeCollection, "5", map[string]float64{"mem_mib": 90, "mem_formula_mib": 100, "avgcomp": 0.1}},
	}
	if v := judgeMemFormula(fakeScale(ok)); v.Outcome != experiments.Held || !strings.Contains(v.Detail, "-10.0%") {
		t.Fatalf("within 15%%: %v (%s)", v.Outcome, v.Detail)
	}
	if v := judgeNoCollapse(fakeScale(ok)); v.Outcome != experiments.Held {
		t.Fatalf("no collapse: %v (%s)", v.Outcome, v.Detail)
	}
	bad := append(ok, scaleRun{scaleData, sweepK, "1000", "10", "50", map[string]float64{"mem_mib": 120, "mem_formula_mib": 100, "avgcomp": 0}})
	if v := judgeMemFormula(fakeScale(bad)); v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "+20.0%") || !strings.Contains(v.Detail, "K=50") {
		t.Fatalf("20%% off: %v (%s)", v.Outcome, v.Detail)
	}
	if v := judgeNoCollapse(fakeScale(bad)); v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "1 of 3") {
		t.Fatalf("collapse: %v (%s)", v.Outcome, v.Detail)
	}
	if v := judgeMemFormula(fakeScale(nil)); v.Outcome != experiments.Inconclusive {
		t.Fatalf("no runs: %v", v.Outcome)
	}
}

// TestScalabilityQuick runs the quick variant end to end (synthetic
// corpora and NPL) and checks the numbers every claim needs.
func TestScalabilityQuick(t *testing.T) {
	exptest.NeedData(t, nplData)
	res := exptest.RunQuickJobs(t, Scalability(), 9, "")
	for _, j := range res.Jobs {
		for _, m := range []string{"sec_per_iter", "mem_mib", "mem_formula_mib", "mem_fit_mib", "nnz", "avgcomp"} {
			v, ok := j.Run.Metric(m)
			if !ok || !(v > 0) {
				t.Errorf("%s: %s = %v (present %v), want > 0", j.Job.Label(), m, v, ok)
			}
		}
	}
	verdicts := res.Verdicts()
	for i, c := range res.Experiment.Claims {
		v := verdicts[i]
		t.Logf("claim %d: %s: %s", i, v.Outcome, v.Detail)
		if strings.HasPrefix(c.Statement, "The memory formula") && v.Outcome != experiments.Held {
			t.Errorf("memory formula: %s (%s)", v.Outcome, v.Detail)
		}
		if strings.HasPrefix(c.Statement, "Evidence") && (!strings.Contains(v.Detail, "top-5 terms: 1: w") || !strings.Contains(v.Detail, "NPL at K = 10")) {
			t.Errorf("evidence lacks topics: %s", v.Detail)
		}
	}
}

// newPeakRecorder records the largest live heap after each iteration, as
// scalabilityTask does.
func newPeakRecorder(peak *float64) *engine.Recorder {
	rec := engine.NewRecorder()
	rec.OnIteration = func(engine.Iteration) { *peak = math.Max(*peak, experiments.LiveHeap()) }
	return rec
}
