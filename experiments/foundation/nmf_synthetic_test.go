package foundation

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
)

func TestMonotone(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		obj                   []float64
		steps, strict, beyond int
		maxRel                float64
	}{
		{nil, 0, 0, 0, nan},
		{[]float64{5}, 0, 0, 0, nan},
		{[]float64{4, 2, 1}, 2, 0, 0, -0.5},
		// NaN entries (not evaluated) are skipped: 4 → 2 → 3 is one rise of 50%.
		{[]float64{4, nan, 2, nan, 3}, 2, 1, 1, 0.5},
		// A rise of 1e-14 relative is rounding: counted as strict, not beyond.
		{[]float64{1, 1 + 1e-14, 0.5}, 2, 1, 0, 1e-14},
		{[]float64{2, 2}, 1, 0, 0, 0},
	} {
		steps, strict, beyond, m := monotone(c.obj)
		if steps != c.steps || strict != c.strict || beyond != c.beyond {
			t.Errorf("%v: steps %d strict %d beyond %d", c.obj, steps, strict, beyond)
		}
		if math.IsNaN(c.maxRel) != math.IsNaN(m) || (!math.IsNaN(m) && math.Abs(m-c.maxRel) > 1e-15) {
			t.Errorf("%v: max relative change %v, want %v", c.obj, m, c.maxRel)
		}
	}
}

// fakeResults builds results with the given recovery per job at K = k and
// one objective trace per job.
func fakeResults(k string, recovery []float64, traces [][]float64) *experiments.Results {
	e := NMFSynthetic()
	res := &experiments.Results{Experiment: e}
	for i, rv := range recovery {
		j := &experiments.Job{Experiment: e, Point: map[string]string{"k": k}, Replicate: i, Method: experiments.MethodSpec{Name: "nmf", Label: "NMF"}}
		run := &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "recovery", Value: rv}}}
		if i < len(traces) {
			run.IterHeader = []string{"iter", "seconds", "objective"}
			for it, f := range traces[i] {
				run.Iterations = append(run.Iterations, []float64{float64(it + 1), 0, f})
			}
		}
		res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: run})
	}
	return res
}

func TestJudges(t *testing.T) {
	k := strconv.Itoa(plantedK())
	if k != "15" {
		t.Fatalf("synthetic.Default() plants %s topics; the experiment text assumes 15", k)
	}
	down := []float64{10, 8, 7, 6.5}
	up := []float64{10, 8, 8.5, 6}
	v := judgeMonotone(fakeResults(k, []float64{1, 1}, [][]float64{down, down}))
	if v.Outcome != experiments.Held || !strings.Contains(v.Detail, "0 increases beyond 1e-12 relative in 6 steps of 2 runs") {
		t.Fatalf("monotone: %+v", v)
	}
	v = judgeMonotone(fakeResults(k, []float64{1, 1}, [][]float64{down, up}))
	// 8 → 8.5 is +6.25%.
	if v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "1 increases") || !strings.Contains(v.Detail, "+0.0625") {
		t.Fatalf("increase: %+v", v)
	}
	if v := judgeMonotone(fakeResults(k, []float64{1}, nil)); v.Outcome != experiments.Inconclusive {
		t.Fatalf("no traces: %+v", v)
	}
	// Recovery: mean of 0.95, 0.93, 0.80 is 0.8933 < 0.9.
	v = judgeRecovery(fakeResults(k, []float64{0.95, 0.93, 0.80}, nil))
	if v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "mean 0.893 over 3 runs (0.800, 0.930, 0.950)") {
		t.Fatalf("recovery: %+v", v)
	}
	if v := judgeRecovery(fakeResults(k, []float64{0.95, 0.91}, nil)); v.Outcome != experiments.Held {
		t.Fatalf("recovery: %+v", v)
	}
	if v := judgeRecovery(fakeResults("10", []float64{0.99}, nil)); v.Outcome != experiments.Inconclusive {
		t.Fatalf("recovery at other K: %+v", v)
	}
}

func TestRegistered(t *testing.T) {
	es, err := experiments.Get("foundation/nmf-synthetic")
	if err != nil || len(es) != 1 {
		t.Fatalf("not registered: %v", err)
	}
}

// TestQuickRun runs the experiment in quick mode end to end.
func TestQuickRun(t *testing.T) {
	res := exptest.RunQuickJobs(t, NMFSynthetic(), 2, "fits NMF on 2,000 × 1,500")
	for _, j := range res.Jobs {
		rv, ok := j.Run.Metric("recovery")
		if !ok || rv < -1 || rv > 1 {
			t.Fatalf("recovery %v %v", rv, ok)
		}
		if n := len(j.Run.IterColumn("objective")); n != 60 {
			t.Fatalf("%d iterations, want 60", n)
		}
	}
	for i, v := range res.Verdicts() {
		t.Logf("claim %d: %s (%s)", i, v.Outcome, v.Detail)
	}
}
