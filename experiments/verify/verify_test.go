package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
)

// toy's jobs store score = k/10 + replicate/100 and a machine-dependent
// fit_seconds that differs on every run.
func toy() *experiments.Experiment {
	return &experiments.Experiment{
		ID: "toy/a", Title: "Toy", Version: "1",
		Checksums: func(*experiments.Job) ([]store.Checksum, error) {
			return []store.Checksum{{Name: "toy", SHA256: "00"}}, nil
		},
		Grid:       map[string][]string{"k": {"5", "10"}},
		TaskParams: []string{"k"},
		Replicates: 2,
		Task: func(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
			k, _ := j.IntParam("k", 0)
			res := &experiments.Result{}
			res.AddMetric("score", float64(k)/10+float64(j.Replicate)/100)
			res.AddMetric("fit_seconds", float64(time.Now().UnixNano()))
			res.PerQuery = []experiments.QueryMetric{{Query: "q1", Metric: "ap", Value: float64(k) / 7}}
			return res, nil
		},
		Metrics: []experiments.MetricDef{{Name: "score", Definition: "k/10"}, {Name: "fit_seconds", Definition: "wall-clock seconds"}},
		Tables:  []experiments.Table{{Name: "scores", Rows: []string{"k"}, Metrics: []string{"score"}}},
	}
}

// committedToy runs toy's full run and renders it under a results root, as
// a committed report.
func committedToy(t *testing.T) (string, *experiments.Experiment) {
	t.Helper()
	e := toy()
	root := t.TempDir()
	s, err := store.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&experiments.Runner{Store: s, Pool: parallel.NewPool(1)}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := report.Render(res, report.PaperDir(root, e)); err != nil {
		t.Fatal(err)
	}
	return root, e
}

func load(t *testing.T, root string, e *experiments.Experiment) []*Committed {
	t.Helper()
	c, without, err := Load(root, []*experiments.Experiment{e})
	if err != nil || len(without) > 0 || len(c) != 1 {
		t.Fatalf("Load: %v, without %v, %d committed", err, without, len(c))
	}
	return c
}

// TestVerifyAgreesAndCatchesAnAlteredMetric: recomputing the committed jobs
// agrees (the machine-dependent fit_seconds left out), and one metric
// altered by hand in provenance.json is named with its job.
func TestVerifyAgreesAndCatchesAnAlteredMetric(t *testing.T) {
	root, e := committedToy(t)
	res, err := Run(context.Background(), load(t, root, e), time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed() || len(res.Checks) != 4 || len(res.Unsampled) != 0 {
		t.Fatalf("unaltered: %+v", res)
	}
	for _, c := range res.Checks {
		if c.Metrics != 2 { // score and the per-query ap
			t.Fatalf("%s: %d metrics compared, want 2", c.Job, c.Metrics)
		}
	}

	path := filepath.Join(root, "toy", "a", report.ProvenanceFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// k=10 rep 1: score = 1 + 0.01 = 1.01.
	altered := strings.Replace(string(b), `"score":"1.01"`, `"score":"1.0100000000000002"`, 1)
	if altered == string(b) {
		t.Fatalf("no score 1.01 in %s", b)
	}
	if err := os.WriteFile(path, []byte(altered), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), load(t, root, e), time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	var diffs []string
	for _, c := range res.Checks {
		for _, d := range c.Diffs {
			diffs = append(diffs, d.String())
		}
	}
	if !res.Failed() || len(diffs) != 1 || !strings.Contains(diffs[0], "k=10 rep 1") || !strings.Contains(diffs[0], "metric score: committed 1.0100000000000002, recomputed 1.01") {
		t.Fatalf("altered metric: %q", diffs)
	}
}

// TestVerifyCatchesPerQueryAndGridChanges: a changed per-query value and a
// grid that no longer expands to the committed jobs are differences.
func TestVerifyCatchesPerQueryAndGridChanges(t *testing.T) {
	root, e := committedToy(t)
	c := load(t, root, e)
	c[0].Provenance.Jobs[0].PerQuery["ap"] = "0000"
	res, err := Run(context.Background(), c, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Failed() || len(res.Checks[0].Diffs)+len(res.Checks[1].Diffs)+len(res.Checks[2].Diffs)+len(res.Checks[3].Diffs) != 1 {
		t.Fatalf("per-query change not caught: %+v", res.Checks)
	}

	e.Grid = map[string][]string{"k": {"5", "20"}}
	res, err = Run(context.Background(), load(t, root, e), time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Failed() || len(res.Unmatched) != 4 { // 2 committed k=10 jobs gone, 2 k=20 jobs new
		t.Fatalf("grid change: %v", res.Unmatched)
	}
}

// TestPlanCheapestFirstRoundRobin: every experiment's cheapest job comes
// before any experiment's second, each round cheapest first, within the
// budget of recorded seconds.
func TestPlanCheapestFirstRoundRobin(t *testing.T) {
	mk := func(id string, secs ...float64) []sample {
		c := &Committed{Experiment: &experiments.Experiment{ID: id}}
		var out []sample
		for i, s := range secs {
			out = append(out, sample{c: c, committed: report.JobProvenance{Label: id + string(rune('0'+i)), Seconds: s}})
		}
		return out
	}
	got := plan([][]sample{mk("a", 5, 1, 9), mk("b", 3, 2), mk("c", 100)}, 12*time.Second)
	var labels []string
	for _, s := range got {
		labels = append(labels, s.committed.Label)
	}
	// Round 1: a1 (1 s), b1 (2 s); c0 (100 s) does not fit. Round 2: b0
	// (3 s), a0 (5 s): 11 s. Round 3: a2 (9 s) does not fit.
	if strings.Join(labels, " ") != "a1 b1 b0 a0" {
		t.Fatalf("plan %v", labels)
	}
}
