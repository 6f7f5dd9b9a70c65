package tnmf2013

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
)

func TestArgmaxRows(t *testing.T) {
	V := mat.NewDense(4, 3, []float64{
		0.1, 0.5, 0.2,
		0, 0, 0, // all zero: topic 0
		0.3, 0.3, 0.1, // tie: lowest index
		0, 0, 2,
	})
	got, zero := argmaxRows(V)
	if !slices.Equal(got, []int{1, 0, 0, 2}) || zero != 1 {
		t.Fatalf("argmax %v zero %d", got, zero)
	}
	U := experiments.UnitDenseRows(V)
	if v := U.At(0, 1); math.Abs(v-0.5/math.Sqrt(0.01+0.25+0.04)) > 1e-15 {
		t.Errorf("unitRows(0,1) = %v", v)
	}
	if U.At(1, 0) != 0 || U.At(3, 2) != 1 || V.At(3, 2) != 2 {
		t.Errorf("unitRows: zero row or copy wrong")
	}
}

// fakeCluster builds results with nmi per (dataset, method, k), two
// replicates each (v−0.01, v+0.01: mean v).
func fakeCluster(vals map[[3]string]float64) *experiments.Results {
	e := Figures58()
	res := &experiments.Results{Experiment: e}
	for key, v := range vals {
		for r, d := range []float64{-0.01, 0.01} {
			j := &experiments.Job{Experiment: e, Dataset: key[0], Method: experiments.MethodSpec{Label: key[1]}, Point: map[string]string{"k": key[2]}, Replicate: r}
			run := &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "nmi", Value: v + d}}}
			res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: run})
		}
	}
	return res
}

func TestJudgeBeatsAll(t *testing.T) {
	vals := map[[3]string]float64{}
	for _, k := range []string{"20", "40"} {
		for i, b := range baselines {
			vals[[3]string{SearchSnippets, b, k}] = 0.3 + 0.01*float64(i)
		}
		vals[[3]string{SearchSnippets, TNMFE, k}] = 0.5
	}
	v := judgeBeatsAll(TNMFE, []string{"nmi"})(fakeCluster(vals))
	if v.Outcome != experiments.Held || !strings.Contains(v.Detail, "2 of 2") {
		t.Fatalf("%+v", v)
	}
	vals[[3]string{SearchSnippets, NMFE, "40"}] = 0.6
	v = judgeBeatsAll(TNMFE, []string{"nmi"})(fakeCluster(vals))
	if v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "K=40 nmi: 0.500 vs NMF_E 0.600") {
		t.Fatalf("%+v", v)
	}
	if v := judgeBeatsAll(TNMFI, []string{"nmi"})(fakeCluster(vals)); v.Outcome != experiments.Inconclusive {
		t.Fatalf("no TNMF_I runs: %+v", v)
	}
	v = judgeBeats(TNMFE, NMFE, SearchSnippets, "nmi")(fakeCluster(vals))
	if v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "K=20 0.500 vs 0.310, K=40 0.500 vs 0.600") {
		t.Fatalf("%+v", v)
	}
	// Margin: best TNMF − best baseline = 0.5 − 0.34 at K=20, 0.5 − 0.6 at K=40: mean +0.03.
	if m, n := margin(fakeCluster(vals), SearchSnippets, "nmi"); n != 2 || math.Abs(m-0.03) > 1e-12 {
		t.Fatalf("margin %v over %d", m, n)
	}
}

// TestFigures58Quick runs the quick clustering and classification experiment end to end: 8
// methods × 2 data sets × 2 replicates at K = 20 on 1,500 sampled
// documents, every score in its range.
func TestFigures58Quick(t *testing.T) {
	exptest.NeedData(t, SearchSnippets, StackOverflow)
	res := exptest.RunQuickJobs(t, Figures58(), 32, "fits 32 models")
	for _, jr := range res.Jobs {
		for _, m := range []string{"purity", "nmi", "ari", "accuracy"} {
			v, ok := jr.Run.Metric(m)
			if !ok || !(v >= -1 && v <= 1) || (m != "ari" && v < 0) {
				t.Errorf("%s: %s = %v (stored %v)", jr.Job.Label(), m, v, ok)
			}
		}
		if d, _ := jr.Run.Metric("documents"); d < 1400 || d > 1500 {
			t.Errorf("%s: %v documents, want the 1,500-document subsample less the emptied ones", jr.Job.Label(), d)
		}
	}
	if v := res.Verdicts(); len(v) != 12 {
		t.Errorf("%d verdicts, want 12", len(v))
	}
}
