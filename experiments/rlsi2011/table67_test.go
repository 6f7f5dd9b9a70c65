package rlsi2011

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/metrics/topics"
)

func TestDistinctShare(t *testing.T) {
	tt := func(ws ...string) []topics.Term {
		var out []topics.Term
		for _, w := range ws {
			out = append(out, topics.Term{Term: w})
		}
		return out
	}
	if v := distinctShare(nil, 5); !math.IsNaN(v) {
		t.Fatalf("no topics: %v", v)
	}
	// Two topics of 2 slots: {a, b} and {b, c} → 3 distinct of 4.
	if v := distinctShare([][]topics.Term{tt("a", "b"), tt("b", "c")}, 2); v != 0.75 {
		t.Fatalf("got %v, want 0.75", v)
	}
	// An empty topic still counts its slots: {a, b} and {} → 2 of 4.
	if v := distinctShare([][]topics.Term{tt("a", "b"), nil}, 2); v != 0.5 {
		t.Fatalf("got %v, want 0.5", v)
	}
}

// fakeTable67 builds results: per (lambda-scale, λ1) the four variants' avgcomp,
// empty topics and distinct_top5.
func fakeTable67(rows map[string]map[string][3]float64) *experiments.Results {
	e := Table67()
	res := &experiments.Results{Experiment: e}
	for pt, vs := range rows {
		dn, l1, _ := strings.Cut(pt, "/")
		for v, m := range vs {
			j := &experiments.Job{Experiment: e, Method: experiments.MethodSpec{Name: "rlsi", Label: variantLabel(v), Params: map[string]string{"variant": v}},
				Point: map[string]string{"lambda-scale": dn, "lambda1": l1, "lambda2": "0.1"}}
			run := &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "avgcomp", Value: m[0]}, {Name: "empty_topics", Value: m[1]}, {Name: "distinct_top5", Value: m[2]}}}
			res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: run})
		}
	}
	return res
}

func TestTable67Judges(t *testing.T) {
	good := map[string][3]float64{"u1v2": {0.01, 0, 0.9}, "u1v1": {0.02, 0, 0.8}, "u2v1": {1, 0, 0.7}, "u2v2": {1, 0, 0.5}}
	collapsed := map[string][3]float64{"u1v2": {0.5, 0, 0.9}, "u1v1": {0, 20, 0}, "u2v1": {0, 20, 0}, "u2v2": {1, 0, 0.5}}
	bad := map[string][3]float64{"u1v2": {1, 0, 0.4}, "u1v1": {1, 0, 0.4}, "u2v1": {1, 0, 0.4}, "u2v2": {1, 0, 0.6}}

	r := fakeTable67(map[string]map[string][3]float64{"relative/0.1": good, "relative/1": collapsed})
	for i, c := range r.Experiment.Claims[:4] {
		v := c.Judge(r)
		if v.Outcome != experiments.Held {
			t.Errorf("claim %d on good data: %v (%s)", i, v.Outcome, v.Detail)
		}
		// The collapsed point is left out.
		if !strings.Contains(v.Detail, "holds at 1 of 1") || !strings.Contains(v.Detail, "1 points left out") {
			t.Errorf("claim %d detail: %s", i, v.Detail)
		}
	}
	r = fakeTable67(map[string]map[string][3]float64{"l2/0.1": good, "none/0.1": bad})
	want := []experiments.Outcome{experiments.NotHeld, experiments.NotHeld, experiments.Held, experiments.NotHeld}
	for i, c := range r.Experiment.Claims[:4] {
		if v := c.Judge(r); v.Outcome != want[i] {
			t.Errorf("claim %d on mixed data: %v, want %v (%s)", i, v.Outcome, want[i], v.Detail)
		}
	}
	r = fakeTable67(map[string]map[string][3]float64{"l2/1": collapsed})
	for i, c := range r.Experiment.Claims[:4] {
		if v := c.Judge(r); v.Outcome != experiments.Inconclusive {
			t.Errorf("claim %d on collapsed data: %v, want inconclusive", i, v.Outcome)
		}
	}
}

func TestRegistered(t *testing.T) {
	for _, id := range []string{"rlsi2011/table6-7", "rlsi2011/figures3-5", "rlsi2011/table8-figures6-8", "rlsi2011/figure9", "rlsi2011/table8-topics", "rlsi2011/scalability"} {
		es, err := experiments.Get(id)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s not registered: %v", id, err)
		}
		for _, quick := range []bool{false, true} {
			if _, err := es[0].Jobs(quick, 0); err != nil {
				t.Fatalf("%s jobs (quick %v): %v", id, quick, err)
			}
		}
	}
}

// TestTable67Quick runs the quick variant end to end on Reuters-21578.
func TestTable67Quick(t *testing.T) {
	exptest.NeedData(t, "reuters21578", "stopwords")
	res := exptest.RunQuickJobs(t, Table67(), 16, "fits 16 RLSI models on Reuters (several seconds)")
	for _, j := range res.Jobs {
		a, ok := j.Run.Metric("avgcomp")
		if !ok || a < 0 || a > 1 {
			t.Fatalf("%s: avgcomp %v %v", j.Job.Label(), a, ok)
		}
		// ℓ2 on U never gives an exact zero unless the topic is empty.
		if v := j.Job.Method.Params["variant"]; (v == "u2v2") && a != 1 {
			t.Errorf("%s: Uℓ2-Vℓ2 AvgComp %v, want 1", j.Job.Label(), a)
		}
		if _, err := os.Stat(filepath.Join(j.Dir, "topics.txt")); err != nil {
			t.Errorf("%s: %v", j.Job.Label(), err)
		}
	}
	for i, v := range res.Verdicts() {
		t.Logf("claim %d: %s (%s)", i, v.Outcome, v.Detail)
	}
}

func TestJudgeTable8Compact(t *testing.T) {
	e := Table8Topics()
	mk := func(vals map[string]float64) *experiments.Results {
		r := &experiments.Results{Experiment: e}
		for m, v := range vals {
			j := &experiments.Job{Experiment: e, Method: experiments.MethodSpec{Label: m}}
			r.Jobs = append(r.Jobs, &experiments.JobResult{Job: j, Run: &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "avgcomp", Value: v}, {Name: "distinct_top5", Value: v}}}})
		}
		return r
	}
	if v := judgeTable8Compact(mk(map[string]float64{labelRLSI: 0.01, labelLSI: 1, labelPLSI: 0.995, labelLDA: 1})); v.Outcome != experiments.Held {
		t.Errorf("%v (%s)", v.Outcome, v.Detail)
	}
	// The paper's own values (RLSI 0.0075, PLSI 0.9534, LDA 1) hold; LSI
	// is not judged.
	if v := judgeTable8Compact(mk(map[string]float64{labelRLSI: 0.0075, labelLSI: 0.5, labelPLSI: 0.9534, labelLDA: 1})); v.Outcome != experiments.Held {
		t.Errorf("%v (%s)", v.Outcome, v.Detail)
	}
	// Ours (PLSI 0.8644) is below the threshold: not held.
	if v := judgeTable8Compact(mk(map[string]float64{labelRLSI: 0.0783, labelLSI: 1, labelPLSI: 0.8644, labelLDA: 1})); v.Outcome != experiments.NotHeld {
		t.Errorf("%v (%s)", v.Outcome, v.Detail)
	}
	if v := judgeTable8Compact(mk(map[string]float64{labelRLSI: 0.01})); v.Outcome != experiments.Inconclusive {
		t.Errorf("%v (%s)", v.Outcome, v.Detail)
	}
	if v := judgeLess("distinct_top5", labelPLSI, labelLDA)(mk(map[string]float64{labelPLSI: 0.3, labelLDA: 0.5})); v.Outcome != experiments.Held {
		t.Errorf("%v (%s)", v.Outcome, v.Detail)
	}
}

// variantLabel is the label of an RLSI variant ("u1v2", ...).
func variantLabel(v string) string {
	for _, x := range variants {
		if x.Variant == v {
			return x.Label
		}
	}
	return v
}

// TestTable6PaperBesideItsSetting: the paper's Table 6 AvgComp is printed
// beside the one row per variant that we show as Table 6 (relative λ,
// λ1 = WorkingLambda1, λ2 = PaperLambda2), blank beside the other 23.
func TestTable6PaperBesideItsSetting(t *testing.T) {
	e := Table67()
	jobs, err := e.Jobs(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	res := &experiments.Results{Experiment: e}
	for _, j := range jobs {
		res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "avgcomp", Value: 0.5}}}})
	}
	td := report.BuildTable(res, e.Tables[0])
	var with []string
	for r, row := range td.Rows {
		if !math.IsNaN(td.Paper[r][0]) {
			with = append(with, strings.Join(row, " "))
		}
	}
	want := []string{"relative 0.1 1 RLSI (Uℓ1-Vℓ2)", "relative 0.1 1 RLSI (Uℓ2-Vℓ1)", "relative 0.1 1 RLSI (Uℓ1-Vℓ1)", "relative 0.1 1 RLSI (Uℓ2-Vℓ2)"}
	if strings.Join(with, "; ") != strings.Join(want, "; ") || len(td.Rows) != 96 {
		t.Errorf("%d rows, paper values beside %v, want beside %v", len(td.Rows), with, want)
	}
}
