// Package cost tells where a reproduction's time goes: it sums the wall-clock
// and CPU seconds of every job, per experiment and per paper, from the
// per-job provenance the results store writes (runs/<id>/provenance.json)
// and from the committed reports' provenance.json
// (<paper>/<experiment>/provenance.json), and lays the sums out as a table
// sorted by cost (`topicmf runs --cost`).
//
// An experiment's elapsed time is the span from its first job's start to its
// last job's end; topicmf run computes experiments one after another, so a
// paper's or the total's elapsed time is the sum of its experiments', and the
// total is the wall time of a whole reproduction (`./run_all.sh`), the
// rendering of the reports aside. CPU over elapsed (Row.Cores) is the
// number of cores an experiment kept busy on average, which shows the
// experiments that leave a core idle.
//
// A job's CPU time is the process's CPU time while it was computed, shared
// evenly with the jobs computed beside it (store.Provenance.CPUSeconds), so
// an experiment's sum is exact when experiments run one after another, as
// `topicmf run` runs them. Runs recorded before CPU time was measured carry
// none; a table with such jobs is ordered and shared by wall time instead,
// and says so.
package cost

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
)

// Sources of a group's jobs.
const (
	SourceRuns   = "runs"   // the results store's run directories
	SourceReport = "report" // a report's committed provenance.json
)

// Job is the cost of one job (or one topicmf fit).
type Job struct {
	// Label names the job within its experiment, e.g.
	// "[sttm-searchsnippets LDA k=100 rep 3]".
	Label string
	Wall  float64 // seconds
	CPU   float64 // seconds; 0 when not measured
}

// Group is the jobs of one experiment, full or quick, from one source.
type Group struct {
	Paper      string // the part of the experiment id before "/"; "fit" for topicmf fit
	Experiment string // the experiment id; "fit/<model>" for topicmf fit
	Quick      bool
	Source     string
	Jobs       []Job
	// Start and End span the jobs' computation (zero when unknown).
	Start, End time.Time
}

// Elapsed is the group's span End − Start in seconds, and false when
// either end is unknown.
func (g Group) Elapsed() (float64, bool) {
	if g.Start.IsZero() || g.End.IsZero() || g.End.Before(g.Start) {
		return 0, false
	}
	return g.End.Sub(g.Start).Seconds(), true
}

// span widens [start, end] to cover a job computed from jobStart to jobEnd
// (RFC 3339 times as provenance records them). A time that does not parse
// is skipped, so a group none of whose starts (or ends) parse keeps a zero
// time and an unknown span.
func span(start, end *time.Time, jobStart, jobEnd string) {
	if t, err := time.Parse(time.RFC3339, jobStart); err == nil && (start.IsZero() || t.Before(*start)) {
		*start = t
	}
	if t, err := time.Parse(time.RFC3339, jobEnd); err == nil && t.After(*end) {
		*end = t
	}
}

// Row is the summed cost of an experiment or a paper.
type Row struct {
	Name  string // experiment id (with " (quick)" for a quick run) or paper
	Paper string
	// Source is where the jobs came from (for an experiment's row).
	Source string
	// Experiments is the number of experiments summed (for a paper's row).
	Experiments int
	Jobs        int
	// Elapsed is the experiment's span (Group.Elapsed), or for a paper's
	// row and the total the sum of its experiments' spans, in seconds.
	Elapsed   float64
	Wall, CPU float64 // sums, seconds
	// CPUMissing is the number of jobs without a CPU time, ElapsedMissing
	// the number of experiments without a span.
	CPUMissing, ElapsedMissing int
	// Largest is the job of largest cost (CPU, or wall without CPU); for a
	// paper's row its label starts with the experiment id.
	Largest Job
}

// Cores is the average number of cores a row's jobs kept busy: its CPU
// seconds over its elapsed seconds, CPU/Elapsed. On w workers a value well
// below w means cores waited: jobs computed one at a time, a long last job,
// or other work on the machine taking the CPU. It is false when a job has
// no CPU time or an experiment no span.
func (r Row) Cores() (float64, bool) {
	if r.CPUMissing > 0 || r.ElapsedMissing > 0 || r.Elapsed <= 0 {
		return 0, false
	}
	return r.CPU / r.Elapsed, true
}

// Table is the per-experiment and per-paper rows, sorted by cost.
type Table struct {
	Experiments []Row
	Papers      []Row
	Total       Row
	// ByCPU is true when every job has a CPU time: rows are then ordered
	// and shared by CPU time, else by wall time.
	ByCPU bool
	// Superseded counts the store's runs left out because a later run of
	// the same job configuration (under other code) was counted instead.
	Superseded int
}

// Cost is the measure rows are ordered and shared by.
func (t *Table) Cost(r Row) float64 {
	if t.ByCPU {
		return r.CPU
	}
	return r.Wall
}

// Share is r's cost as a fraction of the total's (0 when the total is 0).
func (t *Table) Share(r Row) float64 {
	if c := t.Cost(t.Total); c > 0 {
		return t.Cost(r) / c
	}
	return 0
}

// Summarize sums the groups per experiment and per paper. Two groups of
// the same experiment and quick flag are an error (pick one source per
// experiment first, see Merge).
func Summarize(groups []Group) (*Table, error) {
	t := &Table{ByCPU: true, Total: Row{Name: "total"}}
	seen := map[string]bool{}
	for _, g := range groups {
		for _, j := range g.Jobs {
			if j.CPU == 0 {
				t.ByCPU = false
			}
		}
	}
	byPaper := map[string]*Row{}
	for _, g := range groups {
		name := g.Experiment
		if g.Quick {
			name += " (quick)"
		}
		if seen[name] {
			return nil, fmt.Errorf("cost: experiment %s appears twice", name)
		}
		seen[name] = true
		r := Row{Name: name, Paper: g.Paper, Source: g.Source, Experiments: 1}
		for _, j := range g.Jobs {
			r.add(j, t.ByCPU)
		}
		if e, ok := g.Elapsed(); ok {
			r.Elapsed = e
		} else {
			r.ElapsedMissing = 1
		}
		t.Experiments = append(t.Experiments, r)
		p := byPaper[g.Paper]
		if p == nil {
			p = &Row{Name: g.Paper, Paper: g.Paper}
			byPaper[g.Paper] = p
		}
		p.merge(r, name, t.ByCPU)
		t.Total.merge(r, name, t.ByCPU)
	}
	for _, p := range byPaper {
		t.Papers = append(t.Papers, *p)
	}
	byCost := func(a, b Row) int {
		if c := cmp.Compare(t.Cost(b), t.Cost(a)); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	}
	slices.SortFunc(t.Experiments, byCost)
	slices.SortFunc(t.Papers, byCost)
	return t, nil
}

// cost is a job's cost: CPU when byCPU, else wall.
func (j Job) cost(byCPU bool) float64 {
	if byCPU {
		return j.CPU
	}
	return j.Wall
}

// add counts one job.
func (r *Row) add(j Job, byCPU bool) {
	r.Jobs++
	r.Wall += j.Wall
	r.CPU += j.CPU
	if j.CPU == 0 {
		r.CPUMissing++
	}
	if r.Jobs == 1 || j.cost(byCPU) > r.Largest.cost(byCPU) {
		r.Largest = j
	}
}

// merge adds an experiment's row (named name) to a paper's or the total.
func (r *Row) merge(e Row, name string, byCPU bool) {
	if e.Jobs > 0 && (r.Jobs == 0 || e.Largest.cost(byCPU) > r.Largest.cost(byCPU)) {
		r.Largest = e.Largest
		r.Largest.Label = name + " " + e.Largest.Label
	}
	r.Experiments++
	r.Jobs += e.Jobs
	r.Elapsed += e.Elapsed
	r.ElapsedMissing += e.ElapsedMissing
	r.Wall += e.Wall
	r.CPU += e.CPU
	r.CPUMissing += e.CPUMissing
}

// Merge picks one source per experiment (and quick flag): the committed
// report where there is one (the record of one complete run of the
// experiment as it is now), else the store's runs (which may also hold
// runs of configurations the experiment no longer has).
func Merge(reports, runs []Group) []Group {
	have := map[string]bool{}
	out := slices.Clone(reports)
	for _, g := range reports {
		have[groupKey(g)] = true
	}
	for _, g := range runs {
		if !have[groupKey(g)] {
			out = append(out, g)
		}
	}
	return out
}

func groupKey(g Group) string { return fmt.Sprintf("%s\x00%t", g.Experiment, g.Quick) }

// FromReports reads every committed report's provenance.json under the
// results root: <root>/<paper>/<experiment>/provenance.json and, for quick
// runs, <root>/quick/<paper>/<experiment>/provenance.json. A file that
// cannot be read is an error naming it.
func FromReports(root string) ([]Group, error) {
	var paths []string
	for _, pattern := range []string{"*/*/" + report.ProvenanceFile, "quick/*/*/" + report.ProvenanceFile} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			return nil, err
		}
		for _, path := range m {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return nil, err
			}
			// runs/<id>/provenance.json is a run's, not a report's;
			// quick/<paper>/provenance.json is no report's.
			if first, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); pattern[0] == '*' && (first == "runs" || first == "quick") {
				continue
			}
			paths = append(paths, path)
		}
	}
	var out []Group
	for _, path := range paths {
		p, err := report.ReadProvenance(filepath.Dir(path))
		if err != nil {
			return nil, fmt.Errorf("cost: %w", err)
		}
		paper, _, _ := strings.Cut(p.Experiment, "/")
		g := Group{Paper: paper, Experiment: p.Experiment, Quick: p.Quick, Source: SourceReport}
		span(&g.Start, &g.End, p.Start, p.End)
		for _, j := range p.Jobs {
			g.Jobs = append(g.Jobs, Job{Label: strings.TrimPrefix(j.Label, p.Experiment+" "), Wall: j.Seconds, CPU: j.CPUSeconds})
		}
		out = append(out, g)
	}
	return out, nil
}

// runConfig is what FromStore reads of a run's config.json: an experiment
// job's (experiments.JobConfig), a topicmf fit's ("model") or a scoring of
// a fit's ({"command": "score"}).
type runConfig struct {
	experiments.JobConfig
	Model   string `json:"model"`
	Command string `json:"command"`
}

// storedRun is one run directory with a provenance.
type storedRun struct {
	cfg    runConfig
	sha    string // SHA-256 of the canonical configuration
	prov   store.Provenance
	failed bool
}

// FromStore reads the provenance of every run of the store under root
// (<root>/runs/<id>/) that has one: finished, failed or damaged (its
// time was spent all the same); a run still being computed has none yet.
// When several runs share a job configuration (computed by different
// code), the one that started last counts and the others are counted in
// the second result. Runs are grouped by experiment and quick flag;
// topicmf fit's runs by model ("fit/<model>"), its scorings of a fit as
// "fit/scores". A job is labelled as its
// experiment labels it when the experiment is registered and still
// expands to it, else by its data set, method, parameters and replicate.
func FromStore(root string) ([]Group, int, error) {
	dir := filepath.Join(root, "runs")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, fmt.Errorf("cost: %w", err)
	}
	latest := map[string]storedRun{}
	superseded := 0
	for _, e := range ents {
		if !e.IsDir() || !store.IsRunID(e.Name()) {
			continue
		}
		runDir := filepath.Join(dir, e.Name())
		prov, err := store.ReadProvenance(runDir)
		if os.IsNotExist(err) {
			continue // not finished
		}
		if err != nil {
			return nil, 0, fmt.Errorf("cost: %w", err)
		}
		raw, err := os.ReadFile(filepath.Join(runDir, store.ConfigFile))
		if err != nil {
			return nil, 0, fmt.Errorf("cost: %w", err)
		}
		var r storedRun
		if err := json.Unmarshal(raw, &r.cfg); err != nil {
			return nil, 0, fmt.Errorf("cost: %s: %w", filepath.Join(runDir, store.ConfigFile), err)
		}
		canon, err := store.Canonical(json.RawMessage(raw))
		if err != nil {
			return nil, 0, fmt.Errorf("cost: %s: %w", filepath.Join(runDir, store.ConfigFile), err)
		}
		sum := sha256.Sum256(canon)
		r.sha, r.prov = hex.EncodeToString(sum[:]), prov
		if prev, ok := latest[r.sha]; ok {
			superseded++
			if prev.prov.Start > r.prov.Start {
				continue
			}
		}
		latest[r.sha] = r
	}
	byGroup := map[string]*Group{}
	var order []string
	labels := labeller{}
	for _, sha := range sortedKeys(latest) {
		r := latest[sha]
		g := Group{Experiment: r.cfg.Experiment, Quick: r.cfg.Quick, Source: SourceRuns}
		label := ""
		if r.cfg.Experiment == "" {
			name := cmp.Or(r.cfg.Model, "unknown")
			if r.cfg.Command == "score" {
				name = "scores"
			}
			g.Paper, g.Experiment = "fit", "fit/"+name
			label = "[run " + r.prov.RunID[:min(12, len(r.prov.RunID))] + "]"
		} else {
			g.Paper, _, _ = strings.Cut(r.cfg.Experiment, "/")
			label = labels.label(r.cfg.JobConfig, sha)
		}
		k := groupKey(g)
		if byGroup[k] == nil {
			byGroup[k] = &g
			order = append(order, k)
		}
		bg := byGroup[k]
		bg.Jobs = append(bg.Jobs, Job{Label: label, Wall: r.prov.Seconds, CPU: r.prov.CPUSeconds})
		span(&bg.Start, &bg.End, r.prov.Start, r.prov.End)
	}
	out := make([]Group, len(order))
	for i, k := range order {
		out[i] = *byGroup[k]
	}
	return out, superseded, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// labeller names stored jobs as their experiment does, expanding each
// registered experiment's jobs once per (quick, root seed).
type labeller map[string]map[string]string // expansion key → config SHA-256 → label

func (l labeller) label(c experiments.JobConfig, sha string) string {
	key := fmt.Sprintf("%s\x00%t\x00%d", c.Experiment, c.Quick, c.RootSeed)
	byConfig, ok := l[key]
	if !ok {
		byConfig = map[string]string{}
		if es, err := experiments.Get(c.Experiment); err == nil && len(es) == 1 && es[0].ID == c.Experiment {
			if jobs, err := es[0].Jobs(c.Quick, c.RootSeed); err == nil {
				for _, j := range jobs {
					if s, err := report.ConfigSHA256(j); err == nil {
						byConfig[s] = strings.TrimPrefix(j.Label(), c.Experiment+" ")
					}
				}
			}
		}
		l[key] = byConfig
	}
	if s, ok := byConfig[sha]; ok {
		return s
	}
	return configLabel(c)
}

// configLabel is "[dataset method p=v … task=v … rep r]" from a job's
// configuration.
func configLabel(c experiments.JobConfig) string {
	var parts []string
	if c.Dataset != "" {
		parts = append(parts, c.Dataset)
	}
	if c.Method != "" {
		parts = append(parts, c.Method)
	}
	for _, m := range []map[string]string{c.Params, c.Task} {
		for _, k := range sortedKeys(m) {
			parts = append(parts, k+"="+m[k])
		}
	}
	parts = append(parts, fmt.Sprintf("rep %d", c.Replicate))
	return "[" + strings.Join(parts, " ") + "]"
}
