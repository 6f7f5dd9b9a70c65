package gmf2012

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

func TestGroupSplit(t *testing.T) {
	for k, want := range map[int][2]int{110: {10, 4}, 220: {20, 8}, 550: {50, 20}, 1100: {100, 40}} {
		ks, kc, err := groupSplit(k)
		if err != nil || ks != want[0] || kc != want[1] || ks+wikiClasses*kc != k {
			t.Errorf("groupSplit(%d) = %d, %d, %v; want %v", k, ks, kc, err, want)
		}
	}
	for _, k := range []int{0, 100, 111, -110} {
		if _, _, err := groupSplit(k); err == nil || !strings.Contains(err.Error(), "ktotal") {
			t.Errorf("groupSplit(%d): error %v, want one naming ktotal", k, err)
		}
	}
}

func TestMeanAfterFirst(t *testing.T) {
	if v := meanAfterFirst([]float64{9, 1, 2, 3}); v != 2 {
		t.Errorf("mean of iterations 2..4 = %v, want 2", v)
	}
	if v := meanAfterFirst([]float64{5}); v != 5 {
		t.Errorf("one iteration: %v, want 5", v)
	}
	if v := meanAfterFirst(nil); !math.IsNaN(v) {
		t.Errorf("no iteration: %v, want NaN", v)
	}
}

// timingResults builds results with the given seconds per iteration by
// method label and K (one job each, λ1 = 0.01 for the RLSI methods).
func timingResults(secs map[string]map[string]float64) *experiments.Results {
	e := Tables67()
	res := &experiments.Results{Experiment: e}
	for label, byK := range secs {
		for k, s := range byK {
			point := map[string]string{"ktotal": k}
			if label == labelRLSI || label == labelGRLSI {
				point["lambda1"] = "0.01"
			}
			j := &experiments.Job{Experiment: e, Point: point, Method: experiments.MethodSpec{Label: label}, TaskParams: map[string]string{"ktotal": k}}
			run := &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "sec_per_iter", Value: s}}}
			res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: run})
		}
	}
	return res
}

func TestJudgeSpeedup(t *testing.T) {
	// 4/2 = 2×, 12/4 = 3×, 40/10 = 4×: held.
	r := timingResults(map[string]map[string]float64{
		labelRLSI:  {"110": 4, "220": 12, "1100": 40},
		labelGRLSI: {"110": 2, "220": 4, "1100": 10},
	})
	v := judgeSpeedup(r, labelRLSI, labelGRLSI, true)
	if v.Outcome != experiments.Held || !strings.Contains(v.Detail, "K=110: 2.00× (paper at λ1 = 0.01: 1.30×), K=220: 3.00×") || !strings.Contains(v.Detail, "K=1100: 4.00× (paper at λ1 = 0.01: 3.23×)") {
		t.Fatalf("held: %+v", v)
	}
	// 4/2 = 2×, 6/4 = 1.5×: falls.
	r = timingResults(map[string]map[string]float64{labelNMF: {"110": 4, "220": 6}, labelGNMF: {"110": 2, "220": 4}})
	if v := judgeSpeedup(r, labelNMF, labelGNMF, false); v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "falls from K = 110 to K = 220") {
		t.Fatalf("falling: %+v", v)
	}
	// Group slower at K = 110.
	r = timingResults(map[string]map[string]float64{labelNMF: {"110": 1, "220": 6}, labelGNMF: {"110": 2, "220": 4}})
	if v := judgeSpeedup(r, labelNMF, labelGNMF, false); v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "not faster at K = 110") {
		t.Fatalf("slower: %+v", v)
	}
	r = timingResults(map[string]map[string]float64{labelNMF: {"110": 4}, labelGNMF: {"110": 2}})
	if v := judgeSpeedup(r, labelNMF, labelGNMF, false); v.Outcome != experiments.Inconclusive {
		t.Fatalf("one K: %+v", v)
	}
}

func TestTables67Jobs(t *testing.T) {
	e := Tables67()
	full, err := e.Jobs(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	// RLSI and GRLSI: 4 K × 4 λ1; NMF and GNMF: 4 K (λ1 does not apply).
	if len(full) != 2*16+2*4 {
		t.Errorf("%d full jobs, want 40", len(full))
	}
	quick, err := e.Jobs(true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(quick) != 8 {
		t.Errorf("%d quick jobs, want 8", len(quick))
	}
}

// TestTables67Quick runs the quick variant end to end (a few seconds).
func TestTables67Quick(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 8 models on a 1,000 × 1,000 corpus; skipped in -short")
	}
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&experiments.Runner{Store: st, Quick: true}).Run(context.Background(), Tables67())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 8 {
		t.Fatalf("%d jobs, want 8", len(res.Jobs))
	}
	for _, j := range res.Jobs {
		s, ok := j.Run.Metric("sec_per_iter")
		if !ok || !(s > 0) {
			t.Errorf("%s: sec_per_iter %v %v", j.Job.Label(), s, ok)
		}
		if n := len(j.Run.IterColumn("objective")); n != 3 {
			t.Errorf("%s: %d iterations, want 3", j.Job.Label(), n)
		}
	}
	for _, v := range res.Verdicts() {
		t.Logf("%s: %s", v.Outcome, v.Detail)
	}
}
