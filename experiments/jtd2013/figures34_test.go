package jtd2013

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
)

// fakeLDAAccuracies is Figures 3–4's results with one Movie Review run per
// (method, k) and the given accuracy.
func fakeLDAAccuracies(acc map[[2]string]float64) *experiments.Results {
	e := Figures34()
	r := &experiments.Results{Experiment: e}
	for key, a := range acc {
		j := &experiments.Job{Experiment: e, Dataset: MovieReview, Method: experiments.MethodSpec{Name: "onlinelda", Label: key[0]}, Point: map[string]string{"k": key[1]}}
		r.Jobs = append(r.Jobs, &experiments.JobResult{Job: j, Run: &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "accuracy", Value: a}}}})
	}
	return r
}

// TestJudgeOnlineLDAVBGap checks the threshold on both sides (paper
// 0.572 and 0.613, tolerance 0.03) and that a missing k leaves the claim
// undecided.
func TestJudgeOnlineLDAVBGap(t *testing.T) {
	near := fakeLDAAccuracies(map[[2]string]float64{{LDAOnlineLDAVB, "30"}: 0.60, {LDAOnlineLDAVB, "50"}: 0.59, {LDA, "30"}: 0.70, {LDA, "50"}: 0.70})
	if v := judgeOnlineLDAVBGap(near); v.Outcome != experiments.Held || !strings.Contains(v.Detail, "scikit-learn's 0.7000") || !strings.Contains(v.Detail, "within 0.03") {
		t.Errorf("gaps 0.028 and 0.023: %v (%s)", v.Outcome, v.Detail)
	}
	far := fakeLDAAccuracies(map[[2]string]float64{{LDAOnlineLDAVB, "30"}: 0.60, {LDAOnlineLDAVB, "50"}: 0.65})
	if v := judgeOnlineLDAVBGap(far); v.Outcome != experiments.NotHeld {
		t.Errorf("gap 0.037 at k = 50: %v (%s)", v.Outcome, v.Detail)
	}
	half := fakeLDAAccuracies(map[[2]string]float64{{LDAOnlineLDAVB, "30"}: 0.572})
	if v := judgeOnlineLDAVBGap(half); v.Outcome != experiments.Inconclusive {
		t.Errorf("no run at k = 50: %v (%s)", v.Outcome, v.Detail)
	}
}
