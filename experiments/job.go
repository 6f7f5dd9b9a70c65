package experiments

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/experiments/store"
)

// Job is one run of an experiment's task: one data set, one method with
// one point of the grid, one replicate.
type Job struct {
	Experiment *Experiment
	// Index is the job's position in expansion order (stable).
	Index   int
	Dataset string
	// Method holds the family name, its label, and its parameters: the
	// fixed ones, the Quick ones and the grid values the family declares.
	// The seed is not among them; NewMethod adds it.
	Method MethodSpec
	// TaskParams are the grid (and Quick) values of names in
	// Experiment.TaskParams.
	TaskParams map[string]string
	// Point is the part of the grid point that applies to this job (model
	// and task parameters), by grid name.
	Point     map[string]string
	Replicate int // 0-based
	Quick     bool
	RootSeed  uint64
	// Seed is engine.DeriveSeed(RootSeed, experiment ID, canonical job
	// configuration without replicate and seeds, replicate).
	Seed uint64
	// Pool is the shared worker pool; the task hands it to the model so
	// that job-level and model-level parallelism share its slots.
	Pool *parallel.Pool
	// OnIteration, when set by the runner, should be called by the task
	// for progress display (pass it to the Recorder).
	OnIteration func(engine.Iteration)
}

// JobConfig is the canonical configuration of a job: config.json of its run.
type JobConfig struct {
	Experiment string            `json:"experiment"`
	Dataset    string            `json:"dataset,omitempty"`
	Method     string            `json:"method,omitempty"`
	Params     map[string]string `json:"params,omitempty"`
	Task       map[string]string `json:"task,omitempty"`
	Quick      bool              `json:"quick"`
	Replicate  int               `json:"replicate"`
	RootSeed   uint64            `json:"root_seed"`
	Seed       uint64            `json:"seed"`
}

// Config returns the job's configuration.
func (j *Job) Config() JobConfig {
	return JobConfig{
		Experiment: j.Experiment.ID, Dataset: j.Dataset, Method: j.Method.Name,
		Params: j.Method.Params, Task: j.TaskParams, Quick: j.Quick,
		Replicate: j.Replicate, RootSeed: j.RootSeed, Seed: j.Seed,
	}
}

// seedConfig is the canonical configuration the seed is derived from.
func (j *Job) seedConfig() (string, error) {
	c := j.Config()
	c.Replicate, c.RootSeed, c.Seed = 0, 0, 0
	b, err := store.Canonical(c)
	return string(b), err
}

// NewMethod builds the job's model through the catalog, with the job's
// seed when the family takes a "seed" parameter.
func (j *Job) NewMethod() (engine.Method, error) {
	if j.Method.Name == "" {
		return nil, fmt.Errorf("experiment %s: job has no method", j.Experiment.ID)
	}
	f, err := catalog.Lookup(j.Method.Name)
	if err != nil {
		return nil, err
	}
	p := catalog.Params(maps.Clone(j.Method.Params))
	if p == nil {
		p = catalog.Params{}
	}
	for _, k := range f.Params {
		if k.Key == "seed" {
			p["seed"] = strconv.FormatUint(j.Seed, 10)
		}
	}
	return catalog.New(j.Method.Name, p)
}

// Param returns a task parameter, or def when absent.
func (j *Job) Param(key, def string) string {
	if v, ok := j.TaskParams[key]; ok {
		return v
	}
	return def
}

// IntParam returns a task parameter as an int, or def when absent; the
// error names the experiment and parameter.
func (j *Job) IntParam(key string, def int) (int, error) {
	v, ok := j.TaskParams[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("experiment %s: task parameter %s = %q: want an integer", j.Experiment.ID, key, v)
	}
	return n, nil
}

// IntParamIn is IntParam for a value that must lie in [lo, hi] (hi =
// math.MaxInt: no upper bound); the error names the experiment, the
// parameter and the range.
func (j *Job) IntParamIn(key string, def, lo, hi int) (int, error) {
	n, err := j.IntParam(key, def)
	if err != nil {
		return 0, err
	}
	if n < lo || n > hi {
		want := fmt.Sprintf("%d to %d", lo, hi)
		if hi == math.MaxInt {
			want = fmt.Sprintf("≥ %d", lo)
		}
		return 0, fmt.Errorf("experiment %s: task parameter %s = %d: want %s", j.Experiment.ID, key, n, want)
	}
	return n, nil
}

// WithTopics returns a copy of the job whose method has, in its family's
// parameters, the topic counts of a setting of Ks shared topics and Kc
// topics per class over classes classes (GMF 2012 §7, GNMFNC 2014 §3), and
// the method's total number of topics K:
//   - a flat model (nmf, rlsi): k = K = Ks + classes·Kc;
//   - a per-class model (cnmf, crlsi): kc = Kc, K = classes·Kc;
//   - a group model (groupnmf, grouprlsi): ks = Ks, kc = Kc, K = Ks + classes·Kc;
//   - gnmfnc: ks = Ks, kp = Kc, K = Ks + classes·Kc.
//
// Another family is an error naming it.
func (j *Job) WithTopics(ks, kc, classes int) (*Job, int, error) {
	jc := *j
	p := maps.Clone(j.Method.Params)
	if p == nil {
		p = map[string]string{}
	}
	k := ks + classes*kc
	switch j.Method.Name {
	case "nmf", "rlsi":
		p["k"] = strconv.Itoa(k)
	case "cnmf", "crlsi":
		p["kc"] = strconv.Itoa(kc)
		k = classes * kc
	case "groupnmf", "grouprlsi":
		p["ks"], p["kc"] = strconv.Itoa(ks), strconv.Itoa(kc)
	case "gnmfnc":
		p["ks"], p["kp"] = strconv.Itoa(ks), strconv.Itoa(kc)
	default:
		return nil, 0, fmt.Errorf("experiment %s: method %q has no shared and per-class topic counts", j.Experiment.ID, j.Method.Name)
	}
	jc.Method.Params = p
	return &jc, k, nil
}

// Column is the job's value in a results column: "dataset", "method" (the
// display name), "replicate", or a grid name ("" when the name does not
// apply to this job).
func (j *Job) Column(name string) string {
	switch name {
	case ColDataset:
		return j.Dataset
	case ColMethod:
		return j.Method.DisplayName()
	case ColReplicate:
		return strconv.Itoa(j.Replicate)
	}
	return j.Point[name]
}

// PointLabel names the job's grid point: "name=value" for each grid name
// that applies to the job, in sorted order, joined by spaces ("" when
// none applies). It tells a method's configurations apart.
func (j *Job) PointLabel() string {
	keys := slices.Sorted(maps.Keys(j.Point))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + j.Point[k]
	}
	return strings.Join(parts, " ")
}

// Label is a one-line description for progress and error messages.
func (j *Job) Label() string {
	var parts []string
	if j.Dataset != "" {
		parts = append(parts, j.Dataset)
	}
	if j.Method.Name != "" {
		parts = append(parts, j.Method.DisplayName())
	}
	if len(j.Point) > 0 {
		parts = append(parts, j.PointLabel())
	}
	parts = append(parts, "rep "+strconv.Itoa(j.Replicate))
	return j.Experiment.ID + " [" + strings.Join(parts, " ") + "]"
}

// Jobs expands the experiment into its jobs: data sets × methods × grid
// points × replicates, in that nesting order (grid names sorted, the last
// varying fastest), with the Quick overrides when quick is set. Jobs whose
// configuration is identical (a grid name that does not apply to a
// method) are kept once; with Experiment.Keep set, only the points it
// keeps are expanded. rootSeed replaces Experiment.Seed when non-zero.
func (e *Experiment) Jobs(quick bool, rootSeed uint64) ([]*Job, error) {
	if err := e.validateShape(); err != nil {
		return nil, err
	}
	if rootSeed == 0 {
		rootSeed = e.Seed
	}
	dsets := e.Datasets
	grid := maps.Clone(e.Grid)
	reps := e.Replicates
	var extra map[string]string
	if quick {
		if len(e.Quick.Datasets) > 0 {
			dsets = e.Quick.Datasets
		}
		for k, v := range e.Quick.Grid {
			if len(v) == 0 {
				return nil, fmt.Errorf("experiment %s: Quick.Grid parameter %s has no values", e.ID, k)
			}
			grid[k] = v
		}
		if e.Quick.Replicates > 0 {
			reps = e.Quick.Replicates
		}
		extra = e.Quick.Params
	}
	if len(dsets) == 0 {
		dsets = []string{""}
	}
	if reps == 0 {
		reps = 1
	}
	methods := e.Methods
	if len(methods) == 0 {
		methods = []MethodSpec{{}}
	}
	taskParam := map[string]bool{}
	for _, k := range e.TaskParams {
		taskParam[k] = true
	}
	declared := make([]map[string]bool, len(methods))
	anyDeclares := map[string]bool{}
	for i, m := range methods {
		declared[i] = map[string]bool{}
		if m.Name == "" {
			continue
		}
		f, err := catalog.Lookup(m.Name)
		if err != nil {
			return nil, fmt.Errorf("experiment %s: %w", e.ID, err)
		}
		for _, p := range f.Params {
			declared[i][p.Key] = true
			anyDeclares[p.Key] = true
		}
		for k := range m.Params {
			if !declared[i][k] {
				return nil, fmt.Errorf("experiment %s: method %s: %s has no parameter %q", e.ID, m.DisplayName(), m.Name, k)
			}
			if k == "seed" {
				return nil, fmt.Errorf("experiment %s: method %s: the seed is derived per job, set Experiment.Seed instead", e.ID, m.DisplayName())
			}
		}
	}
	names := slices.Sorted(maps.Keys(grid))
	for _, k := range names {
		if taskParam[k] == anyDeclares[k] {
			if taskParam[k] {
				return nil, fmt.Errorf("experiment %s: grid parameter %q is both a task parameter and a model parameter", e.ID, k)
			}
			return nil, fmt.Errorf("experiment %s: grid parameter %q is neither a parameter of its methods nor listed in TaskParams", e.ID, k)
		}
	}
	for k := range e.Quick.Params {
		if !taskParam[k] && !anyDeclares[k] {
			return nil, fmt.Errorf("experiment %s: Quick.Params %q is neither a parameter of its methods nor listed in TaskParams", e.ID, k)
		}
	}

	var jobs []*Job
	seen := map[string]bool{}
	point := make([]int, len(names))
	for _, ds := range dsets {
		for mi, m := range methods {
			for i := range point {
				point[i] = 0
			}
			for {
				params := maps.Clone(m.Params)
				if params == nil {
					params = map[string]string{}
				}
				task := map[string]string{}
				applied := map[string]string{}
				for k, v := range extra {
					if declared[mi][k] {
						params[k] = v
					} else if taskParam[k] {
						task[k] = v
					}
				}
				for i, k := range names {
					v := grid[k][point[i]]
					switch {
					case declared[mi][k]:
						params[k] = v
						applied[k] = v
					case taskParam[k]:
						task[k] = v
						applied[k] = v
					}
				}
				keep := e.Keep == nil || e.Keep(ds, maps.Clone(applied))
				n := reps
				if keep && e.ReplicatesAt != nil {
					n = max(1, e.ReplicatesAt(&Job{Experiment: e, Dataset: ds,
						Method:     MethodSpec{Label: m.Label, Name: m.Name, Params: maps.Clone(params)},
						TaskParams: maps.Clone(task), Point: maps.Clone(applied), Quick: quick, RootSeed: rootSeed}))
				}
				for r := 0; keep && r < n; r++ {
					j := &Job{
						Experiment: e, Dataset: ds,
						Method:     MethodSpec{Label: m.Label, Name: m.Name, Params: params},
						TaskParams: task, Point: applied, Replicate: r, Quick: quick, RootSeed: rootSeed,
					}
					sc, err := j.seedConfig()
					if err != nil {
						return nil, fmt.Errorf("experiment %s: %w", e.ID, err)
					}
					j.Seed = e.SeedScheme.seed(rootSeed, e.ID, sc, r)
					c, err := store.Canonical(j.Config())
					if err != nil {
						return nil, err
					}
					if seen[string(c)] {
						continue
					}
					seen[string(c)] = true
					j.Index = len(jobs)
					jobs = append(jobs, j)
				}
				// Advance the odometer: last name fastest.
				i := len(names) - 1
				for ; i >= 0; i-- {
					point[i]++
					if point[i] < len(grid[names[i]]) {
						break
					}
					point[i] = 0
				}
				if i < 0 {
					break
				}
			}
		}
	}
	return jobs, nil
}

// seed is the seed of replicate r of the job whose experiment is id and
// whose canonical seed configuration is config, under the scheme.
func (s SeedScheme) seed(root uint64, id, config string, r int) uint64 {
	if s == SeedPerReplicate {
		if r == 0 {
			return root
		}
		return engine.DeriveSeed(root, "replicate", strconv.Itoa(r))
	}
	return engine.DeriveSeed(root, id, config, strconv.Itoa(r))
}
