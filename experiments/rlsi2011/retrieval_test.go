package rlsi2011

import (
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
	"github.com/topicmf/topicmf/experiments/retrieval"
)

// fakeRun stores, for each term model, per-query MAP (and the other
// measures equal to it) at α = 0 (base[q]) and α > 0 (base[q] + gain·α).
func fakeRun(base []float64, gain float64) *experiments.StoredRun {
	run := &experiments.StoredRun{Dir: "fake"}
	for _, tm := range termModels {
		for _, a := range retrieval.DefaultAlphas() {
			for _, m := range retrieval.Measures {
				for q, b := range base {
					run.PerQuery = append(run.PerQuery, experiments.QueryMetric{Query: string(rune('a' + q)), Metric: experiments.SweepMetric(tm, a, m), Value: b + gain*a})
				}
			}
		}
	}
	return run
}

func TestRebuildSweep(t *testing.T) {
	run := fakeRun([]float64{0.1, 0.2, 0.3}, 0.5)
	alphas, evals, err := experiments.SweepEvaluations(run, "vsm")
	if err != nil {
		t.Fatal(err)
	}
	if len(alphas) != 11 || alphas[0] != 0 || alphas[10] != 1 {
		t.Fatalf("alphas %v", alphas)
	}
	// At α = 1: 0.1+0.5, 0.2+0.5, 0.3+0.5 → mean 0.7.
	if m := evals[1].Mean("map"); math.Abs(m-0.7) > 1e-12 {
		t.Fatalf("mean at α=1: %v", m)
	}
	if q := evals[0].Queries; len(q) != 3 || q[0] != "a" || q[2] != "c" {
		t.Fatalf("queries %v", q)
	}
	// A missing value is an error naming the measure.
	run.PerQuery = run.PerQuery[1:]
	if _, _, err := experiments.SweepEvaluations(run, "bm25"); err == nil || !strings.Contains(err.Error(), "lacks map") {
		t.Fatalf("missing value: %v", err)
	}
}

// fakeFigures35 has one collection, the four variants, each with one
// configuration whose α > 0 adds gains[variant]·α to every query.
func fakeFigures35(gains map[string]float64) *experiments.Results {
	e := Figures35()
	res := &experiments.Results{Experiment: e, Quick: true} // quick: no pinned selection to check
	base := []float64{0.1, 0.3, 0.2, 0.5, 0.4, 0.35, 0.15, 0.25}
	for _, v := range variants {
		j := &experiments.Job{Experiment: e, Dataset: "med", Method: experiments.MethodSpec{Name: "rlsi", Label: v.Label, Params: map[string]string{"variant": v.Variant}},
			Point: map[string]string{"k": "10"}}
		// Make the gain vary by query so the t-test has variance.
		run := fakeRun(base, gains[v.Variant])
		for i := range run.PerQuery {
			if run.PerQuery[i].Query == "a" {
				run.PerQuery[i].Value += 0.01 * float64(i%3)
			}
		}
		res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: run})
	}
	return res
}

func TestFigures35Judges(t *testing.T) {
	r := fakeFigures35(map[string]float64{"u1v2": 0.2, "u2v1": 0.1, "u1v1": 0.05, "u2v2": 0.01})
	cl := r.Experiment.Claims
	for i, want := range []experiments.Outcome{experiments.Held, experiments.Held, experiments.Held, experiments.Held, experiments.Inconclusive, experiments.Inconclusive} {
		if v := cl[i].Judge(r); v.Outcome != want {
			t.Errorf("claim %d: %v, want %v (%s)", i, v.Outcome, want, v.Detail)
		}
	}
	// Best α is 1 for every variant (gain grows with α): u1v2's MAP is
	// 0.28125 + 0.2 = 0.48125 under the best setting.
	if v := cl[1].Judge(r); !strings.Contains(v.Detail, "RLSI (Uℓ1-Vℓ2) 0.4813") {
		t.Errorf("rank detail: %s", v.Detail)
	}
	// A variant that only hurts: the improvement claims fail, and u2v2
	// becomes... still lowest.
	r = fakeFigures35(map[string]float64{"u1v2": 0.2, "u2v1": -0.1, "u1v1": 0.05, "u2v2": -0.2})
	if v := cl[0].Judge(r); v.Outcome != experiments.NotHeld {
		t.Errorf("improvement with a harmful variant: %v (%s)", v.Outcome, v.Detail)
	}
	if v := cl[2].Judge(r); v.Outcome != experiments.Held {
		t.Errorf("worst: %v (%s)", v.Outcome, v.Detail)
	}
	if v := cl[1].Judge(&experiments.Results{Experiment: r.Experiment}); v.Outcome != experiments.Inconclusive {
		t.Errorf("no runs: %v", v.Outcome)
	}
}

// TestFigures35Quick runs the quick variant end to end on MED.
func TestFigures35Quick(t *testing.T) {
	exptest.NeedData(t, "med", "stopwords")
	res := exptest.RunQuickJobs(t, Figures35(), 8*QuickSeeds, "fits 8 RLSI configurations × 2 seeds on MED and sweeps α (several seconds)")
	out, err := outcomes(res)
	if err != nil {
		t.Fatal(err)
	}
	co := out[0]
	// MED has 30 judged queries; α = 0 is BM25 alone, whose MAP every job
	// records as bm25_map.
	if n := len(co.Baseline["bm25"].Queries); n != 30 {
		t.Fatalf("%d MED queries, want 30", n)
	}
	for _, j := range res.Jobs {
		if m, _ := j.Run.Metric("bm25_map"); math.Abs(m-co.Baseline["bm25"].Mean("map")) > 1e-12 {
			t.Fatalf("stored bm25_map %v, rebuilt baseline %v", m, co.Baseline["bm25"].Mean("map"))
		}
	}
	for i, v := range res.Verdicts() {
		t.Logf("claim %d: %s", i, v.Outcome)
	}
}

func TestJudgeRLSICompact(t *testing.T) {
	e := Table8Figures68()
	mk := func(vals map[string][]float64) *experiments.Results {
		r := &experiments.Results{Experiment: e}
		for m, vs := range vals {
			for _, v := range vs {
				j := &experiments.Job{Experiment: e, Dataset: "med", Method: experiments.MethodSpec{Label: m, Name: strings.ToLower(m)}, Point: map[string]string{"k": "20"}}
				r.Jobs = append(r.Jobs, &experiments.JobResult{Job: j, Run: &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "avgcomp", Value: v}}}})
			}
		}
		return r
	}
	for _, c := range []struct {
		vals map[string][]float64
		want experiments.Outcome
	}{
		{map[string][]float64{labelRLSI: {0.01, 0.05}, labelLSI: {1}, labelPLSI: {0.95}}, experiments.Held},
		// One λ setting suffices (the paper reports one): another above
		// the sparsity threshold does not matter.
		{map[string][]float64{labelRLSI: {0.01, 0.5}, labelLSI: {1}, labelPLSI: {0.95}}, experiments.Held},
		// No RLSI setting below the sparsity threshold.
		{map[string][]float64{labelRLSI: {0.2, 0.5}, labelLSI: {1}, labelPLSI: {0.95}}, experiments.NotHeld},
		// Sparse but not below another method.
		{map[string][]float64{labelRLSI: {0.05}, labelLDA: {0.04}}, experiments.NotHeld},
		{map[string][]float64{labelRLSI: {0.05}}, experiments.Inconclusive},
	} {
		if v := judgeRLSICompact(mk(c.vals)); v.Outcome != c.want {
			t.Errorf("%v: %v, want %v (%s)", c.vals, v.Outcome, c.want, v.Detail)
		}
	}
}

// TestSelectedSettingsInGrid: every pinned selection is a configuration
// of its full grid, so that each full run fits Seeds seeds at 16 settings
// (4 collections × 4 methods) and one seed elsewhere; --quick fits
// QuickSeeds at every configuration.
func TestSelectedSettingsInGrid(t *testing.T) {
	for _, e := range []*experiments.Experiment{Figures35(), Table8Figures68()} {
		jobs, err := e.Jobs(false, 0)
		if err != nil {
			t.Fatal(err)
		}
		extra, grid := 0, 0
		for _, j := range jobs {
			if j.Replicate > 0 {
				extra++
			} else {
				grid++
			}
		}
		if extra != 16*(Seeds-1) {
			t.Errorf("%s: %d extra replicates, want %d (16 settings × %d)", e.ID, extra, 16*(Seeds-1), Seeds-1)
		}
		quick, err := e.Jobs(true, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range quick {
			if j.Replicate >= QuickSeeds {
				t.Errorf("%s quick: replicate %d", e.ID, j.Replicate)
			}
		}
		t.Logf("%s: %d grid jobs + %d replicates; quick %d jobs", e.ID, grid, extra, len(quick))
	}
}

// TestPooledSeeds: the replicates at the chosen setting are pooled per
// query (the grid's choice sees seed 0 only), the MAP interval is over the
// seeds, and a choice that moved away from the seeded setting makes the
// claims inconclusive.
func TestPooledSeeds(t *testing.T) {
	r := fakeFigures35(map[string]float64{"u1v2": 0.2, "u2v1": 0.1, "u1v1": 0.05, "u2v2": 0.01})
	e := r.Experiment
	best := r.Jobs[0].Job
	// Two more seeds of u1v2 with gains 0.1 and 0.3 instead of 0.2.
	base := []float64{0.1, 0.3, 0.2, 0.5, 0.4, 0.35, 0.15, 0.25}
	for i, g := range []float64{0.1, 0.3} {
		j := *best
		j.Replicate = i + 1
		r.Jobs = append(r.Jobs, &experiments.JobResult{Job: &j, Run: fakeRun(base, g)})
	}
	out, err := computeOutcomes(r)
	if err != nil {
		t.Fatal(err)
	}
	mo := out[0].Methods[out[0].Term]["RLSI (Uℓ1-Vℓ2)"]
	if mo.Configs != 1 || mo.Seeds != 3 {
		t.Fatalf("configs %d seeds %d, want 1 and 3", mo.Configs, mo.Seeds)
	}
	// Seed MAPs at α = 1: 0.28125 + 0.2 (+ seed 0's noise on query a:
	// 0.01·(i mod 3) summed over a's measures, read back below), 0.38125,
	// 0.58125.
	seed0 := mo.BestEval.Mean("map")
	want := (seed0 + 0.38125 + 0.58125) / 3
	if math.Abs(mo.MAP.Mean-want) > 1e-12 || mo.MAP.N != 3 || !(mo.MAP.Lo < want && want < mo.MAP.Hi) {
		t.Errorf("MAP interval %+v, want mean %v", mo.MAP, want)
	}
	if p := mo.Pooled.Mean("map"); math.Abs(p-want) > 1e-12 {
		t.Errorf("pooled MAP %v, want %v", p, want)
	}
	// A full run whose grid chooses k=10 while the seeds were pinned
	// elsewhere: the claims that use the seeds say so and stay inconclusive.
	r.Quick = false
	r2 := &experiments.Results{Experiment: e, Jobs: r.Jobs}
	for _, i := range []int{0, 1, 2} {
		if v := e.Claims[i].Judge(r2); v.Outcome != experiments.Inconclusive || !strings.Contains(v.Detail, "update selectedSettings") {
			t.Errorf("claim %d with a moved choice: %v (%s)", i, v.Outcome, v.Detail)
		}
	}
}
