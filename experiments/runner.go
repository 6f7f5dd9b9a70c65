package experiments

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/experiments/store"
)

// Progress events.
const (
	EventStart  = "start"  // a job started computing
	EventIter   = "iter"   // a computing job finished an iteration
	EventDone   = "done"   // a job finished computing and was stored
	EventCached = "cached" // a job was found finished in the store
	// EventRecomputed: a job's stored run did not match its manifest (or
	// had failed before) and is being computed again; Detail says why.
	EventRecomputed = "recomputed"
)

// Progress is reported to Runner.Progress.
type Progress struct {
	Experiment string
	Event      string
	Job        string // label of the job the event is about
	Iter       int    // for EventIter
	Detail     string // for EventRecomputed: why the stored run was not served
	Done       int    // jobs finished so far (computed or cached)
	Cached     int    // of which found in the store
	Total      int
}

// Runner runs experiments' jobs through the store on the shared pool.
type Runner struct {
	Store *store.Store
	// Pool is the shared worker pool; nil means parallel.Default().
	// Every job runs inside Pool.Do, so jobs and the parallel loops inside
	// models share its slots. Models built through the catalog run their
	// loops on parallel.Default(), so another pool is only for tests or for
	// tasks that hand Job.Pool to their model's options.
	Pool *parallel.Pool
	// Quick applies the experiments' Quick overrides.
	Quick bool
	// Seed replaces each experiment's root seed when non-zero.
	Seed uint64
	// Progress, when set, is called (serially) on every event.
	Progress func(Progress)
}

// Run runs every job of e that the store does not already hold and returns
// the results of all jobs, read back from their run directories. Every
// error names the experiment (or the job, which names it). A job
// found finished is not recomputed; a job interrupted earlier left nothing
// and is computed afresh, so re-running an interrupted experiment resumes
// it. The first failing job cancels the others; its error names the job.
// When ctx is cancelled, Run returns ctx.Err() and stores nothing partial.
func (r *Runner) Run(ctx context.Context, e *Experiment) (*Results, error) {
	jobs, err := e.Jobs(r.Quick, r.Seed)
	if err != nil {
		return nil, err
	}
	out, err := r.RunJobs(ctx, e, jobs)
	if err != nil {
		return nil, err
	}
	return &Results{Experiment: e, Quick: r.Quick, Jobs: out}, nil
}

// RunJobs is Run for some of e's jobs (from e.Jobs), e.g. the sample that
// report --verify recomputes; it returns their results in the order given.
func (r *Runner) RunJobs(ctx context.Context, e *Experiment, jobs []*Job) ([]*JobResult, error) {
	if r.Store == nil {
		return nil, errors.New("runner: no results store")
	}
	pool := r.Pool
	if pool == nil {
		pool = parallel.Default()
	}
	code := r.Store.Code().WithExperiment(e.Version)

	var mu sync.Mutex
	prog := Progress{Experiment: e.ID, Total: len(jobs)}
	report := func(ev, label string, iter int, detail ...string) {
		mu.Lock()
		defer mu.Unlock()
		prog.Event, prog.Job, prog.Iter, prog.Detail = ev, label, iter, strings.Join(detail, "")
		switch ev {
		case EventDone:
			prog.Done++
		case EventCached:
			prog.Done++
			prog.Cached++
		}
		if r.Progress != nil {
			r.Progress(prog)
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]*JobResult, len(jobs))
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	var wg sync.WaitGroup
	concurrent := pool.Workers()
	if e.Sequential {
		concurrent = 1
	}
	sem := make(chan struct{}, concurrent)
	for i, j := range jobs {
		j.Pool = pool
		key, err := r.key(e, j, code)
		if err != nil {
			fail(err)
			break
		}
		id, err := key.ID()
		if err != nil {
			fail(fmt.Errorf("%s: %w", j.Label(), err))
			break
		}
		if r.Store.Finished(id) {
			jr, err := readJob(j, id, r.Store.Dir(id), true)
			if err != nil {
				fail(err)
				break
			}
			out[i] = jr
			report(EventCached, j.Label(), 0)
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var jr *JobResult
			var jerr error
			err := pool.Do(ctx, func() { jr, jerr = r.runJob(ctx, e, j, key, report) })
			if err == nil {
				err = jerr
			}
			if err != nil {
				if ctx.Err() == nil || !errors.Is(err, context.Canceled) {
					fail(fmt.Errorf("%s: %w", j.Label(), err))
				}
				return
			}
			out[i] = jr
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("experiment %s interrupted: %w", e.ID, err)
	}
	return out, nil
}

// key is the store key of a job.
func (r *Runner) key(e *Experiment, j *Job, code store.CodeVersion) (store.Key, error) {
	sums, err := checksums(e, j)
	if err != nil {
		return store.Key{}, err
	}
	return store.Key{Config: j.Config(), Datasets: sums, Code: code, Seed: j.Seed}, nil
}

// checksums identifies a job's data: the registry's file digests for a
// registered data set, then those of the declared corpus (its collection's
// files when it is not the job's data set, and CorpusSpec.Checksums), then
// whatever Experiment.Checksums adds.
func checksums(e *Experiment, j *Job) ([]store.Checksum, error) {
	sums, found := registryChecksums(j.Dataset)
	found = found || j.Dataset == ""
	if e.Corpus != nil {
		spec, err := e.Corpus(j)
		if err != nil {
			return nil, fmt.Errorf("%s: corpus: %w", j.Label(), err)
		}
		if spec.Synthetic != nil {
			found = true
		} else if spec.Collection != j.Dataset {
			files, ok := registryChecksums(spec.Collection)
			if !ok {
				return nil, fmt.Errorf("%s: corpus: collection %q is not in the datasets registry", j.Label(), spec.Collection)
			}
			sums = append(sums, files...)
		}
		sums = append(sums, spec.Checksums()...)
	}
	if e.Checksums != nil {
		extra, err := e.Checksums(j)
		if err != nil {
			return nil, fmt.Errorf("%s: data checksums: %w", j.Label(), err)
		}
		found = true
		sums = append(sums, extra...)
	}
	if !found {
		return nil, fmt.Errorf("experiment %s: data set %q is not in the datasets registry and the experiment has no Checksums function", e.ID, j.Dataset)
	}
	return sums, nil
}

// registryChecksums returns the datasets registry's file digests of a data
// set, and whether the registry knows it.
func registryChecksums(name string) ([]store.Checksum, bool) {
	if name == "" {
		return nil, false
	}
	src, err := datasets.Lookup(name)
	if err != nil {
		return nil, false
	}
	var sums []store.Checksum
	for _, f := range src.Files {
		sums = append(sums, store.Checksum{Name: f.Path, SHA256: f.SHA256})
	}
	return sums, true
}

func (r *Runner) runJob(ctx context.Context, e *Experiment, j *Job, key store.Key, report func(string, string, int, ...string)) (*JobResult, error) {
	label := j.Label()
	run, err := r.Store.Do(ctx, key, func(ctx context.Context, w *store.Writer) (err error) {
		if replaced := w.Replaced(); replaced != "" {
			report(EventRecomputed, label, 0, replaced)
		}
		report(EventStart, label, 0)
		j.OnIteration = func(it engine.Iteration) { report(EventIter, label, it.Iter) }
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("task panicked at %s: %v", panicSite(), p)
			}
		}()
		var res *Result
		if e.Fit != nil {
			res, err = runFit(ctx, e, j)
		} else {
			res, err = e.Task(ctx, j)
		}
		if err != nil {
			return err
		}
		if res == nil {
			return errors.New("task returned no result")
		}
		if err := res.Write(w); err != nil {
			return err
		}
		if res.Status != nil && res.Status.Reason == engine.NumericalFailure {
			// Kept for inspection, never stored as done.
			return store.Fail(errors.New(res.Status.String()))
		}
		return nil
	})
	if run.Failed {
		return nil, fmt.Errorf("%w (recorded in %s, not stored as done)", err, run.Dir)
	}
	if err != nil {
		return nil, err
	}
	jr, err := readJob(j, run.ID, run.Dir, run.Cached)
	if err != nil {
		return nil, err
	}
	if run.Cached {
		report(EventCached, label, 0)
	} else {
		report(EventDone, label, 0)
	}
	return jr, nil
}

func readJob(j *Job, id, dir string, cached bool) (*JobResult, error) {
	sr, err := ReadRun(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: reading stored run: %w", j.Label(), err)
	}
	return &JobResult{Job: j, RunID: id, Dir: dir, Cached: cached, Run: sr}, nil
}

// panicSite is "file:line" of the code that panicked, found from a
// deferred recover: the first frame after the runtime's panic machinery.
func panicSite() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	sawPanic := false
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "runtime.") {
			sawPanic = true
		} else if sawPanic {
			return fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		if !more {
			return "unknown location"
		}
	}
}
