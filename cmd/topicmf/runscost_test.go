package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunsCostAfterRun: after a quick run, runs --cost finds the
// experiment's one job in the store and in the quick report's
// provenance.json, with the same wall time and a CPU time from each.
func TestRunsCostAfterRun(t *testing.T) {
	toyExperiment()
	res := filepath.Join(t.TempDir(), "res")
	ctx := context.Background()
	if _, _, err := runTopicmf(ctx, "run", "clitest/toy", "--quick", "--results", res, "--quiet"); err != nil {
		t.Fatal(err)
	}
	row := func(from string) []string {
		t.Helper()
		out, _, err := runTopicmf(ctx, "runs", "--cost", "--from", from, "--results", res)
		if err != nil {
			t.Fatalf("--from %s: %v", from, err)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "clitest/toy (quick)") {
				return strings.Fields(strings.TrimPrefix(l, "clitest/toy (quick)"))
			}
		}
		t.Fatalf("--from %s: no row of clitest/toy (quick):\n%s", from, out)
		return nil
	}
	runs, reports := row("runs"), row("reports")
	// SOURCE JOBS ELAPSED WALL CPU CORES CPU% [LARGEST JOB...]
	if runs[0] != "runs" || reports[0] != "report" || runs[1] != "1" || reports[1] != "1" {
		t.Errorf("rows %q and %q, want one job from runs and from the report", runs, reports)
	}
	if runs[2] != reports[2] || runs[2] == "-" {
		t.Errorf("elapsed from runs %q, from the report %q: want equal and known", runs[2], reports[2])
	}
	if runs[3] != reports[3] || runs[4] != reports[4] || runs[4] == "-" {
		t.Errorf("wall and CPU from runs %q, from the report %q: want equal, with a CPU time", runs[3:5], reports[3:5])
	}
	if runs[5] != reports[5] || runs[5] == "-" {
		t.Errorf("cores from runs %q, from the report %q: want equal and known", runs[5], reports[5])
	}
	if runs[6] != "100.0" {
		t.Errorf("share %s, want 100.0 (the only experiment)", runs[6])
	}
}
