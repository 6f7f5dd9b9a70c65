package experiments

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/experiments/store"
)

// fakeExperiment has no model: its task turns its parameters into numbers,
// so the tests can predict every value.
func fakeExperiment(calls *atomic.Int32, hook func(ctx context.Context, j *Job) error) *Experiment {
	return &Experiment{
		ID:         "test/fake",
		Title:      "fake",
		Version:    "1",
		Datasets:   []string{"toy"},
		Checksums:  func(j *Job) ([]store.Checksum, error) { return []store.Checksum{{Name: "toy", SHA256: "00"}}, nil },
		Grid:       map[string][]string{"b": {"1", "2"}, "a": {"x", "y"}},
		TaskParams: []string{"a", "b"},
		Replicates: 2,
		Seed:       42,
		Task: func(ctx context.Context, j *Job) (*Result, error) {
			calls.Add(1)
			if hook != nil {
				if err := hook(ctx, j); err != nil {
					return nil, err
				}
			}
			b, _ := j.IntParam("b", 0)
			rec := engine.NewRecorder()
			for it := 1; it <= 3; it++ {
				rec.Record(engine.Iteration{Iter: it, Seconds: 0.5, Objective: float64(10*b - it - j.Replicate)})
			}
			res := &Result{Iterations: rec, Notes: []string{"note " + j.Param("a", "")}}
			res.AddMetric("score", float64(b)+float64(j.Replicate)/10)
			res.PerQuery = []QueryMetric{{Query: "q1", Metric: "ap", Value: 0.5}}
			res.Artifacts = []Artifact{{Name: "topics.txt", Write: func(w io.Writer) error {
				_, err := io.WriteString(w, "topic 0: a b c\n")
				return err
			}}}
			return res, nil
		},
		Quick: Quick{Grid: map[string][]string{"b": {"1"}}, Replicates: 1},
	}
}

func TestJobsExpansion(t *testing.T) {
	var calls atomic.Int32
	e := fakeExperiment(&calls, nil)
	jobs, err := e.Jobs(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Names sorted (a, b), b fastest, replicates innermost.
	want := []string{"a=x b=1 rep 0", "a=x b=1 rep 1", "a=x b=2 rep 0", "a=x b=2 rep 1",
		"a=y b=1 rep 0", "a=y b=1 rep 1", "a=y b=2 rep 0", "a=y b=2 rep 1"}
	if len(jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(jobs), len(want))
	}
	seeds := map[uint64]bool{}
	for i, j := range jobs {
		if got := j.Label(); got != "test/fake [toy "+want[i]+"]" {
			t.Errorf("job %d = %s, want %s", i, got, want[i])
		}
		if j.Index != i {
			t.Errorf("job %d has Index %d", i, j.Index)
		}
		seeds[j.Seed] = true
	}
	if len(seeds) != len(jobs) {
		t.Fatal("seeds are not distinct")
	}
	// The seed is DeriveSeed(root, id, canonical config minus replicate and
	// seeds, replicate), written out here by hand for job 3.
	j := jobs[3]
	cfg := `{"dataset":"toy","experiment":"test/fake","quick":false,"replicate":0,"root_seed":0,"seed":0,"task":{"a":"x","b":"2"}}`
	if want := engine.DeriveSeed(42, "test/fake", cfg, "1"); j.Seed != want {
		t.Fatalf("seed %d, want %d", j.Seed, want)
	}
	// Stable across calls; a root seed override changes every seed.
	again, _ := e.Jobs(false, 0)
	other, _ := e.Jobs(false, 7)
	for i := range jobs {
		if again[i].Seed != jobs[i].Seed {
			t.Fatal("expansion not stable")
		}
		if other[i].Seed == jobs[i].Seed || other[i].RootSeed != 7 {
			t.Fatal("root seed override ignored")
		}
	}
	quick, err := e.Jobs(true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(quick) != 2 || quick[0].Point["b"] != "1" || !quick[0].Quick {
		t.Fatalf("quick jobs: %d %v", len(quick), quick[0].Point)
	}
}

func TestJobsErrors(t *testing.T) {
	var calls atomic.Int32
	cases := map[string]func(e *Experiment){
		"not a task or model parameter": func(e *Experiment) { e.TaskParams = []string{"a"} },
		"unknown model":                 func(e *Experiment) { e.Methods = []MethodSpec{{Name: "no-such-family"}} },
		"reserved":                      func(e *Experiment) { e.Grid["method"] = []string{"x"} },
		"no values":                     func(e *Experiment) { e.Grid["b"] = nil },
		"quick grid":                    func(e *Experiment) { e.Quick.Grid = map[string][]string{"zz": {"1"}} },
		"quick params":                  func(e *Experiment) { e.Quick.Params = map[string]string{"zz": "1"} },
		"bad id":                        func(e *Experiment) { e.ID = "nopaper" },
		"no task":                       func(e *Experiment) { e.Task = nil },
		"figure kind": func(e *Experiment) {
			e.Figures = []Figure{{Name: "f", Kind: "pie", Source: FromMetrics, X: "a", Y: "b"}}
		},
		"scaling bars": func(e *Experiment) {
			e.Figures = []Figure{{Name: "f", Kind: Bar, Source: FromMetrics, X: "a", Y: "b", Scaling: true}}
		},
	}
	for name, f := range cases {
		e := fakeExperiment(&calls, nil)
		f(e)
		if _, err := e.Jobs(false, 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	var calls atomic.Int32
	mk := func(id string) *Experiment {
		e := fakeExperiment(&calls, nil)
		e.ID = id
		return e
	}
	for _, id := range []string{"rlsi2011/figure6", "rlsi2011/table7", "gmf2012/table6"} {
		if err := r.Register(mk(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Register(mk("rlsi2011/table7")); err == nil {
		t.Fatal("duplicate accepted")
	}
	if err := r.Register(mk("bad id/x")); err == nil {
		t.Fatal("bad id accepted")
	}
	ids := func(es []*Experiment) string {
		var s []string
		for _, e := range es {
			s = append(s, e.ID)
		}
		return strings.Join(s, ",")
	}
	if got := ids(r.All()); got != "gmf2012/table6,rlsi2011/figure6,rlsi2011/table7" {
		t.Fatalf("All = %s", got)
	}
	for pat, want := range map[string]string{
		"rlsi2011/*":       "rlsi2011/figure6,rlsi2011/table7",
		"rlsi2011":         "rlsi2011/figure6,rlsi2011/table7",
		"*/table*":         "gmf2012/table6,rlsi2011/table7",
		"gmf2012/table6":   "gmf2012/table6",
		"rlsi2011/figure6": "rlsi2011/figure6",
	} {
		got, err := r.Get(pat)
		if err != nil || ids(got) != want {
			t.Errorf("Get(%q) = %s, %v; want %s", pat, ids(got), err, want)
		}
	}
	if _, err := r.Get("nope/*"); err == nil || !strings.Contains(err.Error(), "gmf2012/table6") {
		t.Fatalf("no match: %v", err)
	}
	if _, err := r.Get("[bad"); err == nil {
		t.Fatal("malformed pattern accepted")
	}
}

func newStore(t *testing.T) *store.Store {
	s, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// runEntries lists runs/ without the lock directory.
func runEntries(t *testing.T, s *store.Store) (finished, other []string) {
	ents, err := os.ReadDir(filepath.Join(s.Root(), "runs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		switch {
		case e.Name() == ".locks":
		case s.Finished(e.Name()):
			finished = append(finished, e.Name())
		default:
			other = append(other, e.Name())
		}
	}
	return finished, other
}

func TestRunnerCachesAndReadsBack(t *testing.T) {
	var calls atomic.Int32
	e := fakeExperiment(&calls, nil)
	s := newStore(t)
	var events []Progress
	r := &Runner{Store: s, Pool: parallel.NewPool(2), Progress: func(p Progress) { events = append(events, p) }}
	res, err := r.Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 8 || len(res.Jobs) != 8 {
		t.Fatalf("calls %d, jobs %d", calls.Load(), len(res.Jobs))
	}
	last := events[len(events)-1]
	if last.Done != 8 || last.Total != 8 || last.Cached != 0 {
		t.Fatalf("last progress %+v", last)
	}
	starts := 0
	for _, ev := range events {
		if ev.Event == EventStart {
			starts++
		}
	}
	if starts != 8 {
		t.Fatalf("%d start events", starts)
	}
	j := res.Jobs[3] // a=x b=2 rep 1
	if v, ok := j.Run.Metric("score"); !ok || v != 2.1 {
		t.Fatalf("score = %v %v", v, ok)
	}
	if obj := j.Run.IterColumn("objective"); len(obj) != 3 || obj[0] != 18 {
		t.Fatalf("objective = %v", obj)
	}
	if len(j.Run.PerQuery) != 1 || len(j.Run.Notes) != 1 || j.Run.Notes[0] != "note x" {
		t.Fatalf("per-query %v notes %v", j.Run.PerQuery, j.Run.Notes)
	}
	if b, err := os.ReadFile(filepath.Join(j.Dir, "topics.txt")); err != nil || string(b) != "topic 0: a b c\n" {
		t.Fatalf("artifact: %q %v", b, err)
	}

	// Groups by b: b=1 has scores 1.0, 1.1, 1.0, 1.1 (a = x, y; rep 0, 1).
	g := res.Groups("score", []string{"b"}, nil)
	if len(g) != 2 || g[0].Key[0] != "1" || g[0].N != 4 || math.Abs(g[0].Mean-1.05) > 1e-12 {
		t.Fatalf("groups %+v", g)
	}
	// Sample sd of {1, 1.1, 1, 1.1}: sqrt(4·0.05²/3).
	if want := math.Sqrt(4 * 0.0025 / 3); math.Abs(g[0].SD-want) > 1e-12 {
		t.Fatalf("sd %v, want %v", g[0].SD, want)
	}
	// Curves of b=2 with a=y: objective 20−it−rep, mean over rep 0, 1.
	c := res.Curves("iter", "objective", []string{"b"}, map[string]string{"a": "y"})
	if len(c) != 2 || c[1].Key[0] != "2" || c[1].Mean[0] != 18.5 || c[1].N[0] != 2 || c[1].X[2] != 3 {
		t.Fatalf("curves %+v", c)
	}
	if ct := res.Curves("time", "objective", nil, nil); ct[0].X[2] != 1.5 {
		t.Fatalf("cumulative time %v", ct[0].X)
	}
	mf := res.MetricsFrame()
	// job, run, dataset, method, a, b, replicate, metric, value.
	if r, c := mf.Dims(); r != 8 || c != 9 {
		t.Fatalf("metrics frame %d×%d: %v", r, c, mf.Names())
	}
	if r, _ := res.IterationsFrame().Dims(); r != 24 {
		t.Fatalf("iterations frame has %d rows", r)
	}
	if r, _ := res.PerQueryFrame().Dims(); r != 8 {
		t.Fatalf("per-query frame has %d rows", r)
	}

	// Second run: everything cached, nothing recomputed, same numbers.
	events = nil
	res2, err := r.Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 8 {
		t.Fatalf("recomputed: %d calls", calls.Load())
	}
	last = events[len(events)-1]
	if last.Cached != 8 || last.Done != 8 {
		t.Fatalf("second run progress %+v", last)
	}
	for i := range res.Jobs {
		if res2.Jobs[i].RunID != res.Jobs[i].RunID || !res2.Jobs[i].Cached {
			t.Fatal("second run differs")
		}
	}
	// A new experiment Version invalidates every run.
	e.Version = "2"
	if _, err := r.Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 16 {
		t.Fatalf("version bump: %d calls", calls.Load())
	}
}

func TestRunnerResumesAfterCancel(t *testing.T) {
	var calls atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := fakeExperiment(&calls, func(tctx context.Context, j *Job) error {
		if j.Index == 5 {
			cancel()
			<-tctx.Done()
			return tctx.Err()
		}
		return nil
	})
	s := newStore(t)
	r := &Runner{Store: s, Pool: parallel.NewPool(1)}
	if _, err := r.Run(ctx, e); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	finished, other := runEntries(t, s)
	if len(finished) != 5 || len(other) != 0 {
		t.Fatalf("after cancel: %d finished, leftovers %v", len(finished), other)
	}
	calls.Store(0)
	e.Task = fakeExperiment(&calls, nil).Task
	res, err := r.Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 {
		t.Fatalf("resume computed %d jobs, want 3", calls.Load())
	}
	cached := 0
	for _, j := range res.Jobs {
		if j.Cached {
			cached++
		}
	}
	if cached != 5 {
		t.Fatalf("%d cached", cached)
	}
}

func TestRunnerJobError(t *testing.T) {
	var calls atomic.Int32
	e := fakeExperiment(&calls, func(ctx context.Context, j *Job) error {
		if j.Point["b"] == "2" && j.Point["a"] == "y" {
			return errors.New("bad record 17")
		}
		return nil
	})
	s := newStore(t)
	_, err := (&Runner{Store: s, Pool: parallel.NewPool(1)}).Run(context.Background(), e)
	if err == nil || !strings.Contains(err.Error(), "a=y b=2") || !strings.Contains(err.Error(), "bad record 17") {
		t.Fatalf("err = %v", err)
	}
	_, other := runEntries(t, s)
	if len(other) != 0 {
		t.Fatalf("leftovers %v", other)
	}
	// A panicking task is an error naming the job, not a crash.
	e = fakeExperiment(&calls, func(ctx context.Context, j *Job) error { panic("index out of range") })
	_, err = (&Runner{Store: s, Pool: parallel.NewPool(1)}).Run(context.Background(), e)
	if err == nil || !strings.Contains(err.Error(), "panicked at ") || !strings.Contains(err.Error(), "experiments_test.go:") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("panic: %v", err)
	}
	// A data set neither registered nor covered by Checksums.
	e = fakeExperiment(&calls, nil)
	e.Checksums = nil
	e.Datasets = []string{"no-such-data"}
	if _, err := (&Runner{Store: s}).Run(context.Background(), e); err == nil || !strings.Contains(err.Error(), "no-such-data") {
		t.Fatalf("unknown data: %v", err)
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize(nil)
	if s.N != 0 || !math.IsNaN(s.Mean) {
		t.Fatal(s)
	}
	s = Summarize([]float64{2})
	if s.Mean != 2 || !math.IsNaN(s.SD) {
		t.Fatal(s)
	}
	// {1, 2, 3, 4}: mean 2.5, sample variance 5/3.
	s = Summarize([]float64{1, 2, 3, 4})
	if s.Mean != 2.5 || math.Abs(s.SD-math.Sqrt(5.0/3)) > 1e-15 {
		t.Fatal(s)
	}
}
