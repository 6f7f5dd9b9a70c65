package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

var registerToy sync.Once

// toyExperiment is registered once in the default registry as
// "clitest/toy": a task without a model whose numbers follow from its
// parameters, so that run can be tested without fitting anything.
func toyExperiment() {
	registerToy.Do(func() {
		experiments.Register(&experiments.Experiment{
			ID:       "clitest/toy",
			Title:    "CLI toy",
			Version:  "1",
			Datasets: []string{"toy"},
			Checksums: func(*experiments.Job) ([]store.Checksum, error) {
				return []store.Checksum{{Name: "toy", SHA256: "00"}}, nil
			},
			Grid:       map[string][]string{"k": {"2", "4", "8"}},
			TaskParams: []string{"k"},
			Replicates: 2,
			Task: func(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
				k, err := j.IntParam("k", 0)
				if err != nil {
					return nil, err
				}
				rec := engine.NewRecorder()
				for it := 1; it <= 5; it++ {
					rec.Record(engine.Iteration{Iter: it, Objective: float64(k) / float64(it)})
				}
				res := &experiments.Result{Iterations: rec, Artifacts: []experiments.Artifact{{Name: "a.txt", Write: func(w io.Writer) error {
					_, err := io.WriteString(w, "x\n")
					return err
				}}}}
				res.AddMetric("score", float64(k)+float64(j.Replicate))
				return res, nil
			},
			Tables:  []experiments.Table{{Name: "scores", Rows: []string{"k"}, Metrics: []string{"score"}}},
			Figures: []experiments.Figure{{Name: "objective", Kind: experiments.Line, Source: experiments.FromIterations, X: "iter", Y: "objective", Series: []string{"k"}, ErrorBars: true}},
			Claims: []experiments.Claim{{Statement: "scores are positive", Judge: func(r *experiments.Results) experiments.Verdict {
				for _, v := range r.Values("score", nil) {
					if v <= 0 {
						return experiments.Verdict{Outcome: experiments.NotHeld, Detail: "a score ≤ 0"}
					}
				}
				return experiments.Verdict{Outcome: experiments.Held, Detail: "all > 0"}
			}}},
			Quick: experiments.Quick{Grid: map[string][]string{"k": {"2"}}, Replicates: 1},
		})
	})
}

func TestRunCmd(t *testing.T) {
	toyExperiment()
	res := t.TempDir()
	stdout, stderr, err := runTopicmf(context.Background(), "run", "clitest/*", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "clitest/toy: 6 jobs (6 computed, 0 cached) -> "+filepath.Join(res, "clitest", "REPORT.md")) ||
		!strings.Contains(stdout, `claim "scores are positive": held (all > 0)`) {
		t.Fatalf("stdout:\n%s", stdout)
	}
	// Not a terminal: plain progress lines.
	done := 0
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "clitest/toy ") && strings.Contains(l, "  done [toy k=") {
			done++
		}
	}
	if done != 6 || !strings.Contains(stderr, "clitest/toy 6/6  elapsed ") {
		t.Fatalf("stderr:\n%s", stderr)
	}
	for _, f := range []string{"clitest/REPORT.md", "clitest/toy/section.md", "clitest/toy/scores.csv", "clitest/toy/objective.png", "clitest/toy/objective.svg"} {
		if _, err := os.Stat(filepath.Join(res, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	rep, _ := os.ReadFile(filepath.Join(res, "clitest", "REPORT.md"))
	if !strings.Contains(string(rep), "| 8 | 8.500 ± 0.707 | 2 |") {
		t.Fatalf("REPORT.md:\n%s", rep)
	}
	// Again: everything from the store.
	stdout, stderr, err = runTopicmf(context.Background(), "run", "clitest/toy", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "6 jobs (0 computed, 6 cached)") || strings.Count(stderr, "cached [") != 1 || !strings.HasPrefix(stderr, "clitest/toy 6/6  elapsed ") {
		t.Fatalf("second run:\n%s\n%s", stdout, stderr)
	}
	// Quick: reduced grid, reports under quick/.
	stdout, _, err = runTopicmf(context.Background(), "run", "clitest/toy", "--quick", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "1 jobs (1 computed, 0 cached) -> "+filepath.Join(res, "quick", "clitest", "REPORT.md")) {
		t.Fatalf("quick:\n%s", stdout)
	}
	// No temporary directories anywhere in runs/.
	ents, _ := os.ReadDir(filepath.Join(res, "runs"))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("left %s", e.Name())
		}
	}
}

func TestRunCmdErrors(t *testing.T) {
	toyExperiment()
	checkCLIErrors(t, []cliError{
		{[]string{"run"}, "topicmf list shows them"},
		{[]string{"run", "nope/*"}, `no experiment matches "nope/*"`},
		{[]string{"run", "clitest/toy", "--workers", "-2"}, "--workers"},
	})
}

// TestRunCancelResumes cancels a run after its first job: the finished
// job stays, nothing partial is left, and the next run computes the rest.
func TestRunCancelResumes(t *testing.T) {
	toyExperiment()
	res := t.TempDir()
	st, err := store.Open(res)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := experiments.Get("clitest/toy")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &experiments.Runner{Store: st, Progress: func(p experiments.Progress) {
		if p.Event == experiments.EventDone && p.Done == 1 {
			cancel()
		}
	}}
	if _, err := r.Run(ctx, e[0]); err == nil {
		t.Fatal("cancelled run returned no error")
	}
	ids, _ := st.Runs()
	if len(ids) == 0 || len(ids) == 6 {
		t.Fatalf("%d runs finished before the cancel took effect", len(ids))
	}
	stdout, _, err := runTopicmf(context.Background(), "run", "clitest/toy", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "6 jobs (") || strings.Contains(stdout, "(6 computed") {
		t.Fatalf("resume:\n%s", stdout)
	}
}

func TestSuggest(t *testing.T) {
	for pat, want := range map[string]string{
		"rlsi2011/figure3-5":      "; did you mean rlsi2011/figures3-5?",
		"rlsi2012":                "; did you mean rlsi2011?",
		"foundation/nmf-synthetc": "; did you mean foundation/nmf-synthetic?",
		"nope/*":                  "",
	} {
		if got := suggest(pat); got != want {
			t.Errorf("suggest(%q) = %q, want %q", pat, got, want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"λx", "λy", 1}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
