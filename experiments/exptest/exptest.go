// Package exptest helps the tests of the per-paper experiment packages:
// skip (never pass silently) when a collection is absent, and run an
// experiment's quick variant end to end in a temporary results store.
package exptest

import (
	"context"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/realdata"
)

// NeedData skips the test (fails it under CI=true), saying which file is
// missing, unless every file of the named registered collections is in
// $TOPICMF_DATA; a relative $TOPICMF_DATA is taken relative to the module
// root, as the README's test command passes it (internal/realdata).
func NeedData(t testing.TB, names ...string) {
	t.Helper()
	var files []string
	for _, name := range names {
		src, err := datasets.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range src.Files {
			files = append(files, f.Path)
		}
	}
	realdata.Dir(t, files...)
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
