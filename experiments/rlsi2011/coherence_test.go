package rlsi2011

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
)

// TestJudgeCoherentAsDense checks the margin on both sides of the bar
// max(LDA, PLSI) − CoherenceMargin and that the evidence prints it.
func TestJudgeCoherentAsDense(t *testing.T) {
	fake := func(rlsi, lda, plsi float64) *experiments.Results {
		e := Table8Topics()
		r := &experiments.Results{Experiment: e}
		for label, v := range map[string]float64{labelRLSI: rlsi, labelLDA: lda, labelPLSI: plsi} {
			j := &experiments.Job{Experiment: e, Method: experiments.MethodSpec{Name: "x", Label: label}}
			r.Jobs = append(r.Jobs, &experiments.JobResult{Job: j, Run: &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "npmi", Value: v}}}})
		}
		return r
	}
	if v := judgeCoherentAsDense(fake(0.081, 0.10, 0.05)); v.Outcome != experiments.Held || !strings.Contains(v.Detail, "threshold: RLSI ≥ max(LDA, PLSI) − 0.02 = 0.0800") {
		t.Errorf("RLSI 0.081 against bar 0.080: %v (%s)", v.Outcome, v.Detail)
	}
	if v := judgeCoherentAsDense(fake(0.079, 0.05, 0.10)); v.Outcome != experiments.NotHeld {
		t.Errorf("RLSI 0.079 against bar 0.080: %v (%s)", v.Outcome, v.Detail)
	}
}
