package rlsi2011

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
)

func TestKeepColumns(t *testing.T) {
	m, err := sparse.FromTriplets(2, 3, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 0, Col: 2, Val: 2}, {Row: 1, Col: 1, Val: 3}})
	if err != nil {
		t.Fatal(err)
	}
	k, err := keepColumns(m, []bool{true, false, true})
	if err != nil {
		t.Fatal(err)
	}
	if k.Rows != 2 || k.Cols != 3 || k.NNZ() != 2 || k.At(0, 0) != 1 || k.At(0, 2) != 2 || k.At(1, 1) != 0 {
		t.Fatalf("got %+v", k)
	}
}

func fakeFigure9(rows map[[2]string][2]float64) *experiments.Results {
	return fakeFigure9Noisy(rows, 0)
}

// fakeFigure9Noisy is fakeFigure9 with 6 queries per job whose
// LambdaRank+RLSI NDCG@10 is 0.5 + diff + 0.01·(i mod 3), the reduced
// vocabulary's alternately ± noise.
func fakeFigure9Noisy(rows map[[2]string][2]float64, noise float64) *experiments.Results {
	e := Figure9()
	r := &experiments.Results{Experiment: e}
	for key, v := range rows {
		j := &experiments.Job{Experiment: e, Dataset: key[0], Method: experiments.MethodSpec{Name: "rlsi", Label: labelRLSI}, Point: map[string]string{"vocab": key[1]}}
		run := &experiments.StoredRun{Metrics: []experiments.Metric{
			{Name: "diff_with_vs_without_ndcg_cut_10", Value: v[0]}, {Name: "p_with_vs_without_ndcg_cut_10", Value: v[1]},
			{Name: "lambdarank+rlsi_ndcg_cut_10", Value: 0.5 + v[0]},
		}}
		for i := range 6 {
			v := 0.5 + v[0] + 0.01*float64(i%3)
			if key[1] == VocabReduced {
				v += noise * float64(2*(i%2)-1)
			}
			run.PerQuery = append(run.PerQuery, experiments.QueryMetric{Query: strconv.Itoa(i), Metric: reducedMeasure, Value: v})
		}
		r.Jobs = append(r.Jobs, &experiments.JobResult{Job: j, Run: run})
	}
	return r
}

func TestFigure9Judges(t *testing.T) {
	r := fakeFigure9(map[[2]string][2]float64{{"med", VocabAll}: {0.05, 0.001}, {"med", VocabReduced}: {0.02, 0.2}})
	if v := judgeLTR(VocabAll, "ndcg_cut_10")(r); v.Outcome != experiments.Held {
		t.Errorf("LTR: %v (%s)", v.Outcome, v.Detail)
	}
	// 0.52 < 0.55 on every query: reduced is lower, p = 0.
	if v := judgeReduced(r); v.Outcome != experiments.Held {
		t.Errorf("reduced: %v (%s)", v.Outcome, v.Detail)
	}
	// Lower on average (−0.03) but ± 0.1 per query: not significant at
	// p < 0.01, so not held (the paper's claim includes the test).
	noisy := fakeFigure9Noisy(map[[2]string][2]float64{{"med", VocabAll}: {0.05, 0.001}, {"med", VocabReduced}: {0.02, 0.2}}, 0.1)
	if v := judgeReduced(noisy); v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "p < 0.01") {
		t.Errorf("reduced, not significant: %v (%s)", v.Outcome, v.Detail)
	}
	r = fakeFigure9(map[[2]string][2]float64{{"med", VocabAll}: {0.05, 0.02}, {"cisi", VocabAll}: {0.05, 0.001}})
	if v := judgeLTR(VocabAll, "ndcg_cut_10")(r); v.Outcome != experiments.NotHeld {
		t.Errorf("p = 0.02 ≥ 0.01 at one collection: %v (%s)", v.Outcome, v.Detail)
	}
	if v := judgeReduced(r); v.Outcome != experiments.Inconclusive {
		t.Errorf("no reduced runs: %v", v.Outcome)
	}
}

// TestFigure9ReducedQuick runs the quick job with the reduced vocabulary
// (the quick grid itself runs the full one).
func TestFigure9ReducedQuick(t *testing.T) {
	exptest.NeedData(t, "med", "stopwords")
	if testing.Short() {
		t.Skip("fits RLSI on MED and cross-validates LambdaRank twice (~15 s); skipped in -short")
	}
	e := Figure9()
	e.Quick.Grid = map[string][]string{"vocab": {VocabReduced}}
	res := exptest.RunQuickJobs(t, e, 1, "")
	run := res.Jobs[0].Run
	for _, m := range []string{"baseline_map", "lambdarank_map", "lambdarank+rlsi_map", "p_with_vs_without_ndcg_cut_10"} {
		if v, ok := run.Metric(m); !ok || v < 0 || v > 1 {
			t.Errorf("%s = %v (%v)", m, v, ok)
		}
	}
	if len(run.Notes) == 0 {
		t.Error("no note on the reduced vocabulary")
	}
	t.Logf("notes: %v", run.Notes)
}

func TestReadTopics(t *testing.T) {
	dir := t.TempDir()
	body := "topic 1 (non-zero 0.0100): oil opec barrel\ntopic 2 (non-zero 0.0000): \ntopic 3 (non-zero 1.0000): a b\n"
	if err := os.WriteFile(filepath.Join(dir, "topics.txt"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, err := readTopics(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0] != "oil opec barrel" || ts[1] != "(empty)" {
		t.Fatalf("got %q", ts)
	}
	if _, err := readTopics(t.TempDir(), 2); err == nil {
		t.Fatal("no error for a missing topics.txt")
	}
}
