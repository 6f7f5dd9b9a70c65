package quality

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
)

// noteResults has one job per method with the given metrics.
func noteResults(metrics map[string]map[string]float64) *experiments.Results {
	e := &experiments.Experiment{ID: "toy/note"}
	r := &experiments.Results{Experiment: e}
	for _, method := range []string{"A", "B", "C"} {
		ms, ok := metrics[method]
		if !ok {
			continue
		}
		run := &experiments.StoredRun{}
		for _, name := range []string{"share", "npmi", "cv", "td25"} {
			if v, ok := ms[name]; ok {
				run.Metrics = append(run.Metrics, experiments.Metric{Name: name, Value: v})
			}
		}
		r.Jobs = append(r.Jobs, &experiments.JobResult{Job: &experiments.Job{Experiment: e, Method: experiments.MethodSpec{Name: "x", Label: method}}, Run: run})
	}
	return r
}

// TestCoherenceNote checks the evidence by hand: the per-method means, the
// first by the paper's measure (either direction) against the first by
// NPMI, C_V and TD@25, and an undecided note without coherence.
func TestCoherenceNote(t *testing.T) {
	r := noteResults(map[string]map[string]float64{
		"A": {"share": 0.9, "npmi": 0.10, "cv": 0.50, "td25": 0.7},
		"B": {"share": 0.8, "npmi": 0.20, "cv": 0.40, "td25": 0.9},
	})
	note := CoherenceNote(experiments.ColMethod, "share", false, nil)
	v := note.Judge(r)
	want := "A: share 0.9000, npmi 0.1000, cv 0.5000, td25 0.7000; B: share 0.8000, npmi 0.2000, cv 0.4000, td25 0.9000; first by share: A, by NPMI: B (not the same: coherence changes the picture), by C_V: A, by TD@25: B"
	if v.Outcome != experiments.Inconclusive || v.Detail != want {
		t.Errorf("higher share better:\n%v %s\nwant\n%s", v.Outcome, v.Detail, want)
	}
	if c := CoherenceNote(experiments.ColMethod, "share", true, map[string]string{"k": "30", "dataset": "d"}); !strings.Contains(c.Statement, "(lowest best; dataset = d, k = 30);") {
		t.Errorf("statement: %s", c.Statement)
	}
	if v := CoherenceNote(experiments.ColMethod, "share", true, nil).Judge(r); !strings.Contains(v.Detail, "first by share: B, by NPMI: B (the same)") {
		t.Errorf("lower share better: %s", v.Detail)
	}
	old := noteResults(map[string]map[string]float64{"A": {"share": 0.9}, "B": {"share": 0.8}})
	if v := note.Judge(old); v.Outcome != experiments.Inconclusive || !strings.Contains(v.Detail, "fewer than two") {
		t.Errorf("no npmi: %v %s", v.Outcome, v.Detail)
	}
}
