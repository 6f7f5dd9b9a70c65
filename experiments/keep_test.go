package experiments

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/experiments/store"
)

// TestJobsKeep: Keep selects a one-factor-at-a-time design out of the
// Cartesian grid, per data set, and sees only the names that apply.
func TestJobsKeep(t *testing.T) {
	var calls atomic.Int32
	e := fakeExperiment(&calls, nil)
	e.Datasets = []string{"toy", "other"}
	e.Replicates = 1
	e.Grid = map[string][]string{"a": {"x", "y", "z"}, "b": {"1", "2", "3"}}
	var seen []map[string]string
	e.Keep = func(ds string, p map[string]string) bool {
		seen = append(seen, p)
		if ds == "other" {
			return p["a"] == "x" && p["b"] == "1"
		}
		return p["a"] == "x" || p["b"] == "1" // two sweeps through (x, 1)
	}
	jobs, err := e.Jobs(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range jobs {
		got = append(got, j.Dataset+":"+j.Point["a"]+j.Point["b"])
	}
	want := []string{"toy:x1", "toy:x2", "toy:x3", "toy:y1", "toy:z1", "other:x1"}
	if len(got) != len(want) {
		t.Fatalf("jobs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("jobs %v, want %v", got, want)
		}
		if jobs[i].Index != i {
			t.Fatalf("job %d has Index %d", i, jobs[i].Index)
		}
	}
	if len(seen) != 18 {
		t.Fatalf("Keep called %d times, want 18 (2 data sets × 9 points)", len(seen))
	}
	seen[0]["a"] = "mutated" // Keep gets a copy: the jobs are unaffected
	if jobs[0].Point["a"] != "x" {
		t.Fatal("Keep's point aliases the job's")
	}
}

// TestRunnerSequential: with Sequential, at most one job computes at a
// time even on a pool of several workers; without it, jobs overlap.
func TestRunnerSequential(t *testing.T) {
	for _, seq := range []bool{true, false} {
		var calls atomic.Int32
		var mu sync.Mutex
		cur, peak := 0, 0
		e := fakeExperiment(&calls, func(ctx context.Context, j *Job) error {
			mu.Lock()
			cur++
			peak = max(peak, cur)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			cur--
			mu.Unlock()
			return nil
		})
		e.Sequential = seq
		s, err := store.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (&Runner{Store: s, Pool: parallel.NewPool(4)}).Run(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 8 {
			t.Fatalf("Sequential=%v: %d jobs ran, want 8", seq, calls.Load())
		}
		if seq && peak != 1 {
			t.Fatalf("Sequential: %d jobs ran at once, want 1", peak)
		}
		if !seq && peak < 2 {
			t.Fatalf("not Sequential on 4 workers: at most %d job at once, want ≥ 2", peak)
		}
	}
}

// TestJobsReplicatesAt: more seeds at one selected configuration only;
// replicate 0 of every configuration keeps the seed it has without
// ReplicatesAt, and the extra replicates follow their configuration.
func TestJobsReplicatesAt(t *testing.T) {
	var calls atomic.Int32
	e := fakeExperiment(&calls, nil)
	e.Datasets = []string{"toy"}
	e.Replicates = 1
	e.Grid = map[string][]string{"a": {"x", "y"}, "b": {"1", "2"}}
	plain, err := e.Jobs(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	e.ReplicatesAt = func(j *Job) int {
		if j.Replicate != 0 {
			t.Errorf("ReplicatesAt given replicate %d", j.Replicate)
		}
		if j.Point["a"] == "y" && j.Point["b"] == "1" {
			return 3
		}
		return 0
	}
	jobs, err := e.Jobs(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	seeds := map[uint64]bool{}
	for i, j := range jobs {
		got = append(got, j.Point["a"]+j.Point["b"]+"/"+j.Column(ColReplicate))
		if j.Index != i {
			t.Fatalf("job %d has Index %d", i, j.Index)
		}
		seeds[j.Seed] = true
	}
	want := []string{"x1/0", "x2/0", "y1/0", "y1/1", "y1/2", "y2/0"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("jobs %v, want %v", got, want)
	}
	if len(seeds) != len(jobs) {
		t.Errorf("%d distinct seeds for %d jobs", len(seeds), len(jobs))
	}
	for i, k := range []int{0, 1, 2, 5} {
		if jobs[k].Seed != plain[i].Seed {
			t.Errorf("replicate 0 of %s: seed %d, without ReplicatesAt %d", jobs[k].PointLabel(), jobs[k].Seed, plain[i].Seed)
		}
	}
}
