// Package exptest helps the tests of the per-paper experiment packages:
// skip (never pass silently) when a collection is absent, and run an
// experiment's quick variant end to end in a temporary results store.
package exptest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

// NeedData skips the test, saying which file is missing, unless every file
// of the named registered collections is in $TOPICMF_DATA.
func NeedData(t testing.TB, names ...string) {
	t.Helper()
	dir := os.Getenv("TOPICMF_DATA")
	if dir == "" {
		t.Skipf("TOPICMF_DATA is not set; this test needs %v", names)
	}
	for _, name := range names {
		src, err := datasets.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range src.Files {
			if _, err := os.Stat(filepath.Join(dir, f.Path)); err != nil {
				t.Skipf("%s is absent from TOPICMF_DATA=%s (needed by %s)", f.Path, dir, name)
			}
		}
	}
}

// RunQuick runs the quick variant of e in a fresh results store under
// t.TempDir and returns its results; an error fails the test.
func RunQuick(t testing.TB, e *experiments.Experiment) *experiments.Results {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&experiments.Runner{Store: st, Quick: true}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// RunQuickJobs runs the quick variant of e (RunQuick) and fails the test
// unless the run has the given number of jobs. A non-empty cost says why a
// -short run skips it (e.g. "fits 8 models on 400 × 2,400").
func RunQuickJobs(t testing.TB, e *experiments.Experiment, jobs int, cost string) *experiments.Results {
	t.Helper()
	if cost != "" && testing.Short() {
		t.Skipf("%s; skipped in -short", cost)
	}
	res := RunQuick(t, e)
	if len(res.Jobs) != jobs {
		t.Fatalf("%s: %d quick jobs, want %d", e.ID, len(res.Jobs), jobs)
	}
	return res
}
