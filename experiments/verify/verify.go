// Package verify is the drift check behind `topicmf report --verify`: it
// recomputes, from scratch and with today's code, a deterministic sample of
// the jobs behind the committed full-run reports and compares every stored
// metric exactly with the committed values.
//
// # What is compared
//
// Each committed experiment folder results/<paper>/<experiment>/ holds
// provenance.json (report.Provenance), written when the section was
// rendered: per job, the SHA-256 of its canonical configuration, its
// recorded wall time, its metrics as stored (shortest round-trip text, so
// equal text means equal float64 bits) and, per per-query metric, a
// truncated SHA-256 of its values.
// Verify expands the experiment's full-run jobs again with the recorded
// root seed, finds each committed job among them by its configuration
// digest, recomputes the sampled ones in a temporary results store (so
// nothing is served from a cache), and compares metric by metric. Metrics
// that measure the machine rather than the method (wall-clock times,
// measured memory, worker counts: experiments.Experiment.MachineDependent)
// are left out, as in the quick pins.
//
// A committed job no longer in today's expansion, or a job of today's
// expansion not in the committed file, is a difference too: the
// experiment's grid changed and its report must be recomputed.
//
// # Sample
//
// Jobs are chosen from their recorded wall times, so the sample depends on
// the committed files only: round by round, each experiment (cheapest next
// job first) contributes its next-cheapest job (ties in job order) while
// the recorded times fit in the budget. Every experiment whose cheapest job
// fits is therefore checked before any gets a second job. The budget
// counts recorded times; the recomputation on another machine may take
// longer or shorter.
package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
)

// Committed is one experiment's committed full-run record.
type Committed struct {
	Experiment *experiments.Experiment
	Provenance *report.Provenance
}

// Difference is one disagreement between a recomputed (or expanded) job
// and the committed record.
type Difference struct {
	Experiment string
	Job        string // the job's label
	What       string // e.g. `metric recovery: committed 0.9, recomputed 0.8`
}

// String is "<job label>: <what>" (the label names the experiment).
func (d Difference) String() string { return d.Job + ": " + d.What }

// Check is the outcome for one sampled job.
type Check struct {
	Experiment string
	Job        string
	Recorded   time.Duration // the committed wall time
	Metrics    int           // metrics compared (machine-dependent ones left out)
	Diffs      []Difference
}

// sample is one committed job chosen for recomputation.
type sample struct {
	c         *Committed
	job       *experiments.Job
	committed report.JobProvenance
}

// expand matches the committed jobs of c with today's expansion. It
// returns the candidates (committed jobs found again) and a difference for
// every job on one side only.
func expand(c *Committed) ([]sample, []Difference, error) {
	e, p := c.Experiment, c.Provenance
	if p.Quick {
		return nil, nil, fmt.Errorf("%s: the committed provenance.json is of a quick run; verify checks full runs", e.ID)
	}
	jobs, err := e.Jobs(false, p.RootSeed)
	if err != nil {
		return nil, nil, err
	}
	byConfig := map[string]*experiments.Job{}
	for _, j := range jobs {
		d, err := report.ConfigSHA256(j)
		if err != nil {
			return nil, nil, err
		}
		byConfig[d] = j
	}
	var out []sample
	var diffs []Difference
	for _, cj := range p.Jobs {
		j, ok := byConfig[cj.ConfigSHA256]
		if !ok {
			diffs = append(diffs, Difference{e.ID, cj.Label, "committed job is not in today's expansion of the experiment (its configuration changed)"})
			continue
		}
		delete(byConfig, cj.ConfigSHA256)
		out = append(out, sample{c: c, job: j, committed: cj})
	}
	for _, j := range jobs {
		if d, _ := report.ConfigSHA256(j); byConfig[d] != nil {
			diffs = append(diffs, Difference{e.ID, j.Label(), "job of today's expansion is not in the committed provenance.json"})
		}
	}
	return out, diffs, nil
}

// plan chooses the sample: per experiment the candidates sorted by
// recorded seconds (stable, so ties stay in job order), taken round by
// round while their recorded times fit in budget.
func plan(cands [][]sample, budget time.Duration) []sample {
	for _, cs := range cands {
		slices.SortStableFunc(cs, func(a, b sample) int {
			switch {
			case a.committed.Seconds < b.committed.Seconds:
				return -1
			case a.committed.Seconds > b.committed.Seconds:
				return 1
			}
			return 0
		})
	}
	left := budget.Seconds()
	var out []sample
	for round := 0; ; round++ {
		var next []sample
		for _, cs := range cands {
			if round < len(cs) {
				next = append(next, cs[round])
			}
		}
		slices.SortStableFunc(next, func(a, b sample) int {
			switch {
			case a.committed.Seconds < b.committed.Seconds:
				return -1
			case a.committed.Seconds > b.committed.Seconds:
				return 1
			}
			return 0
		})
		took := false
		for _, s := range next {
			if s.committed.Seconds <= left {
				left -= s.committed.Seconds
				out = append(out, s)
				took = true
			}
		}
		if !took {
			return out
		}
	}
}

// Result is what Run found.
type Result struct {
	Checks []Check
	// Unmatched are the jobs on one side only (see the package doc).
	Unmatched []Difference
	// Unsampled names the experiments none of whose jobs fit the budget.
	Unsampled []string
}

// Failed reports whether any difference was found.
func (r *Result) Failed() bool {
	if len(r.Unmatched) > 0 {
		return true
	}
	for _, c := range r.Checks {
		if len(c.Diffs) > 0 {
			return true
		}
	}
	return false
}

// Run plans the sample of the committed experiments within budget,
// recomputes it in a temporary store and compares. progress, when set, is
// called after each job is checked. An error is a failure to check (a job
// that fails to compute, an unreadable file), not a difference.
func Run(ctx context.Context, committed []*Committed, budget time.Duration, progress func(Check)) (*Result, error) {
	if budget <= 0 {
		return nil, fmt.Errorf("verify: budget %v: want a positive duration", budget)
	}
	res := &Result{}
	var cands [][]sample
	for _, c := range committed {
		cs, diffs, err := expand(c)
		if err != nil {
			return nil, err
		}
		res.Unmatched = append(res.Unmatched, diffs...)
		cands = append(cands, cs)
	}
	chosen := plan(cands, budget)
	sampled := map[string]bool{}
	for _, s := range chosen {
		sampled[s.c.Experiment.ID] = true
	}
	for _, c := range committed {
		if !sampled[c.Experiment.ID] {
			res.Unsampled = append(res.Unsampled, c.Experiment.ID)
		}
	}
	tmp, err := os.MkdirTemp("", "topicmf-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	st, err := store.Open(tmp)
	if err != nil {
		return nil, err
	}
	for _, s := range chosen {
		e := s.c.Experiment
		r := &experiments.Runner{Store: st}
		jrs, err := r.RunJobs(ctx, e, []*experiments.Job{s.job})
		if err != nil {
			return nil, err
		}
		ch := Compare(e, s.committed, jrs[0].Run)
		ch.Recorded = time.Duration(s.committed.Seconds * float64(time.Second))
		res.Checks = append(res.Checks, ch)
		if progress != nil {
			progress(ch)
		}
	}
	return res, nil
}

// Compare compares a recomputed run of one job with its committed record:
// every metric and per-query digest that is not machine-dependent, by
// exact text, and a metric present on one side only.
func Compare(e *experiments.Experiment, committed report.JobProvenance, fresh *experiments.StoredRun) Check {
	ch := Check{Experiment: e.ID, Job: committed.Label}
	diff := func(format string, args ...any) {
		ch.Diffs = append(ch.Diffs, Difference{e.ID, committed.Label, fmt.Sprintf(format, args...)})
	}
	now := map[string]string{}
	for _, m := range fresh.Metrics {
		now[m.Name] = store.FormatFloat(m.Value)
	}
	for _, name := range sortedKeys(committed.Metrics, now) {
		if e.MachineDependent(name) {
			continue
		}
		was, inCommitted := committed.Metrics[name]
		v, inFresh := now[name]
		switch {
		case !inFresh:
			diff("metric %s: committed %s, not recomputed", name, was)
		case !inCommitted:
			diff("metric %s: recomputed %s, not committed", name, v)
		case v != was:
			diff("metric %s: committed %s, recomputed %s", name, was, v)
		}
		if inCommitted {
			ch.Metrics++
		}
	}
	digests := report.PerQueryDigests(fresh)
	for _, name := range sortedKeys(committed.PerQuery, digests) {
		if e.MachineDependent(name) {
			continue
		}
		ch.Metrics++
		if committed.PerQuery[name] != digests[name] {
			diff("per-query metric %s: the values differ (SHA-256 committed %s…, recomputed %s…)", name, committed.PerQuery[name], digests[name])
		}
	}
	return ch
}

func sortedKeys(a, b map[string]string) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// Load reads the committed record of every experiment of exps that has a
// committed section under resultsRoot (results/<paper>/<experiment>/).
// without names the experiments whose section has no provenance.json
// (rendered before provenance was recorded: they cannot be verified until
// recomputed).
func Load(resultsRoot string, exps []*experiments.Experiment) (committed []*Committed, without []string, err error) {
	for _, e := range exps {
		dir := filepath.Join(report.PaperDir(resultsRoot, e), e.Name())
		if _, err := os.Stat(filepath.Join(dir, report.SectionFile)); err != nil {
			continue // no committed report
		}
		p, err := report.ReadProvenance(dir)
		if errors.Is(err, os.ErrNotExist) {
			without = append(without, e.ID)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if p.Experiment != e.ID {
			return nil, nil, fmt.Errorf("%s: records experiment %q, want %q", filepath.Join(dir, report.ProvenanceFile), p.Experiment, e.ID)
		}
		committed = append(committed, &Committed{Experiment: e, Provenance: p})
	}
	return committed, without, nil
}
