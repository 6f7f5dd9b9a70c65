package experiments

import (
	"context"
	"fmt"
	"strings"

	"github.com/topicmf/topicmf/experiments/store"
)

// Experiment describes one paper artifact (a table, a figure, a claim) as
// data: which data, which methods with which parameter grid, how many
// replicates, what to render and what the paper reported. Only Task is
// code. The zero value of every optional field is valid.
type Experiment struct {
	// ID is "<paper>/<artifact>", e.g. "rlsi2011/figure6". The part before
	// the slash names the paper's report directory (results/<paper>/).
	ID    string
	Title string
	Paper PaperRef
	// Version is bumped by hand whenever the Task (or anything it calls
	// that the code version would not capture) changes what it computes;
	// it is part of every run id, so old runs are not reused.
	Version string

	// Datasets are the data sets the jobs run on; jobs are expanded over
	// them. Names known to datasets.Lookup get their file checksums from
	// the registry, and a declared Corpus (synthetic included) adds its
	// own; a data set that is neither needs Checksums.
	Datasets []string
	// Checksums returns the checksums of what the task derives beyond its
	// declared Corpus, given the job (for its Quick flag and parameters):
	// CorpusChecksums for the corpora a Task builds itself, or
	// DescribedChecksum for a pipeline. Required for a data set that is
	// neither registered nor declared; optional otherwise.
	Checksums func(job *Job) ([]store.Checksum, error)
	// Methods are the model families (catalog names) with fixed
	// parameters; jobs are expanded over them.
	Methods []MethodSpec
	// Grid maps a parameter name to the values it takes; jobs are expanded
	// over the Cartesian product (names in sorted order, the last name
	// varying fastest, values in the order given). A name is a model
	// parameter of the methods whose family declares it, or a task
	// parameter listed in TaskParams; any other name is an error.
	Grid map[string][]string
	// TaskParams lists grid names (and Quick.Params names) meant for the
	// task rather than a model.
	TaskParams []string
	// Keep, when set, selects the jobs of a design that is not a full
	// Cartesian product (e.g. one-factor-at-a-time sweeps through a centre
	// point): a grid point of a data set is expanded only when
	// Keep(dataset, point) is true, point holding the grid values that
	// apply (by grid name). Optional; nil keeps every point.
	Keep func(dataset string, point map[string]string) bool
	// Sequential runs the experiment's jobs one at a time (each still uses
	// the whole pool for its model's parallel loops), so that measured
	// times and memory are not disturbed by the experiment's other jobs.
	Sequential bool
	// Replicates is the number of runs of each configuration with
	// different derived seeds; 0 means 1.
	Replicates int
	// ReplicatesAt, when set, replaces Replicates (and Quick.Replicates)
	// per configuration: it is given the configuration's first job
	// (replicate 0) and returns its number of runs (below 1 means 1). It
	// lets a grid that selects a setting on one seed run more seeds at
	// the selected setting only; replicate 0 keeps the seed and store key
	// it has without it.
	ReplicatesAt func(first *Job) int
	// Seed is the root seed; each job's seed is derived from it (see
	// SeedScheme).
	Seed uint64
	// SeedScheme says how a job's seed comes from the root seed:
	// SeedPerJob (the zero value, the papers' experiments) or SeedPerReplicate.
	SeedScheme SeedScheme

	// Task computes one job's result. An experiment that fits a catalog
	// model sets Corpus and Fit instead: the runner builds the corpus, fits
	// the job's method and hands the fit to Fit.
	Task Task
	// Corpus declares the job's corpus as data (see CorpusSpec); the runner
	// builds each distinct corpus once and adds its checksums to the store
	// key. Required with Fit; a Task may build it itself (BuildCorpus).
	Corpus func(j *Job) (CorpusSpec, error)
	// Fit scores the job's fitted model; exactly one of Task and Fit is set.
	Fit FitTask

	// Metrics define the metric names the task reports, for report footers.
	Metrics []MetricDef
	// Tables and Figures are rendered from the results.
	Tables []Table
	// TextTables are tables of text read from the runs (the top words of
	// each topic, as the papers' topic tables), rendered after Tables.
	TextTables []TextTable
	Figures    []Figure
	// PaperValues are the paper's reported numbers, printed beside ours.
	PaperValues []PaperValue
	// Claims are statements from the paper (or about the method) judged
	// from our results.
	Claims []Claim
	// Quick overrides the above for `topicmf run --quick`.
	Quick Quick

	// Protocol describes how the runs are made (one paragraph, for the
	// report footer); Substitutes says which public data stand in for the
	// paper's and how they differ.
	Protocol    string
	Substitutes string
}

// Task computes one job: it reads the data, fits, evaluates, and returns
// rows and artifacts. It must honour ctx (return ctx.Err() when cancelled)
// and use job.Seed for all randomness.
type Task func(ctx context.Context, job *Job) (*Result, error)

// PaperRef locates an artifact in a paper.
type PaperRef struct {
	Reference Reference // the paper in full (authors, title, venue); zero when it is not one of ours
	Cite      string    // short citation, e.g. "Wang et al., SIGIR 2011"
	Where     string    // section, figure or table, e.g. "Figure 6", "§5.3, Table 7"
}

// String is "Cite, Where" (either may be absent).
func (p PaperRef) String() string {
	var parts []string
	for _, s := range []string{p.Cite, p.Where} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// MethodSpec is one model family with fixed parameters.
type MethodSpec struct {
	// Label names the method in tables and legends; "" means Name.
	Label string
	// Name is the catalog family, e.g. "nmf".
	Name string
	// Params are fixed family parameters (catalog.Params strings).
	Params map[string]string
}

// DisplayName is Label, or Name when Label is empty.
func (m MethodSpec) DisplayName() string {
	if m.Label != "" {
		return m.Label
	}
	return m.Name
}

// MetricDef states what a metric name means, for report footers.
type MetricDef struct {
	Name       string
	Definition string
}

// Quick are the overrides applied with --quick, to finish in minutes.
type Quick struct {
	// Grid replaces the values of the named grid parameters.
	Grid map[string][]string
	// Replicates replaces Replicates when > 0.
	Replicates int
	// Datasets replaces Datasets when non-empty.
	Datasets []string
	// Params are added to (or override) every method's parameters, or set
	// task parameters (names listed in TaskParams).
	Params map[string]string
}

// Columns that identify a job in results, besides the grid names.
const (
	ColDataset   = "dataset"
	ColMethod    = "method"
	ColReplicate = "replicate"
)

// Table is a rendered table: one row per distinct value of Rows, and for
// each metric our mean ± standard deviation over the jobs in the row (the
// replicates), beside the paper's value when one is given.
type Table struct {
	Name    string   // file stem: <Name>.csv; also the anchor
	Title   string   // caption
	Rows    []string // job columns grouping rows, e.g. ["method", "k"]
	Metrics []string // metric names, one column (pair) each
	// Where keeps only jobs whose columns have these values.
	Where map[string]string
	// Digits after the decimal point in the Markdown rendering; 0 means 3.
	Digits int
}

// TextTable is a table of text built from the results rather than of
// metric means: Build returns its header and rows (e.g. method, topic and
// the topic's top words, read from each run's artifacts). It is rendered
// as Markdown in the section and as <Name>.csv beside it.
type TextTable struct {
	Name  string // file stem: <Name>.csv
	Title string // caption
	Build func(r *Results) (header []string, rows [][]string, err error)
}

// Figure kinds.
const (
	Line = "line"
	Bar  = "bar"
)

// Figure sources.
const (
	FromIterations = "iterations" // per-iteration trace (iterations.csv)
	FromMetrics    = "metrics"    // one value per job (metrics.csv)
)

// Figure is a rendered figure, saved as PNG, SVG and PDF.
type Figure struct {
	Name  string // file stem: <Name>.png, <Name>.svg, <Name>.pdf
	Title string
	Kind  string // Line or Bar
	// Source is FromIterations (X is "iter" or "seconds", Y an iteration
	// column such as "objective") or FromMetrics (X a job column, Y a
	// metric name).
	Source string
	X, Y   string
	// Series are the job columns whose distinct values make one line (or
	// bar colour) each.
	Series []string
	Where  map[string]string
	// ErrorBars draws mean ± one standard deviation over the jobs that
	// share a point (the replicates).
	ErrorBars      bool
	XLabel, YLabel string
	LogY           bool
	// Scaling marks a figure of a cost (time, memory) against a size: it
	// is drawn on log–log axes, where a power law is a straight line, when
	// it has more than two x values; with two or fewer (a quick run) on
	// linear axes, and its caption says so.
	Scaling bool
}

// PaperValue is one number the paper reports.
type PaperValue struct {
	// Where identifies the table row (job column values), e.g.
	// {"method": "RLSI", "dataset": "AP"}.
	Where  map[string]string
	Metric string
	Value  float64
	// Note says where the number comes from, e.g. "Table 6" or "read off
	// Figure 4".
	Note string
}

// Outcome of judging a claim.
type Outcome int

const (
	Inconclusive Outcome = iota
	Held
	NotHeld
)

func (o Outcome) String() string {
	switch o {
	case Held:
		return "held"
	case NotHeld:
		return "not held"
	}
	return "inconclusive"
}

// Verdict is a claim's outcome with the numbers behind it.
type Verdict struct {
	Outcome Outcome
	Detail  string
}

// Claim is a statement judged from our results.
type Claim struct {
	Statement string
	// Source says where the paper makes the claim (or "" for a property of
	// the method we check).
	Source string
	Judge  func(r *Results) Verdict
}

// Paper is the report directory of the experiment: ID up to the first "/".
func (e *Experiment) PaperKey() string {
	p, _, _ := strings.Cut(e.ID, "/")
	return p
}

// Name is the part of ID after the first "/".
func (e *Experiment) Name() string {
	_, n, _ := strings.Cut(e.ID, "/")
	return n
}

// validateShape checks what can be checked without the catalog.
// MachineDependent reports whether a metric measures the machine (time,
// measured memory, worker count) rather than the method, so that two
// correct runs of one job may differ in it: by name (…sec…, workers) or by
// its registered definition (wall-clock, measured, or built from the
// measured mem_fit_mib). The quick pins and report --verify leave these
// out of their exact comparisons.
func (e *Experiment) MachineDependent(metric string) bool {
	if strings.Contains(metric, "sec") || metric == "workers" {
		return true
	}
	for _, d := range e.Metrics {
		if d.Name == metric {
			def := strings.ToLower(d.Definition)
			return strings.Contains(def, "wall-clock") || strings.Contains(def, "measured") || strings.Contains(def, "mem_fit_mib")
		}
	}
	return false
}

func (e *Experiment) validateShape() error {
	p, n, ok := strings.Cut(e.ID, "/")
	if !ok || p == "" || n == "" || strings.ContainsAny(e.ID, " \t*?[]\\") {
		return fmt.Errorf("experiment %q: ID must be \"<paper>/<name>\" without spaces or glob characters", e.ID)
	}
	if e.Title == "" {
		return fmt.Errorf("experiment %s: empty Title", e.ID)
	}
	if (e.Task == nil) == (e.Fit == nil) {
		return fmt.Errorf("experiment %s: want exactly one of Task and Fit", e.ID)
	}
	if e.Fit != nil && e.Corpus == nil {
		return fmt.Errorf("experiment %s: Fit needs a Corpus", e.ID)
	}
	if e.Replicates < 0 || e.Quick.Replicates < 0 {
		return fmt.Errorf("experiment %s: negative Replicates", e.ID)
	}
	names := map[string]bool{}
	for _, t := range e.Tables {
		if t.Name == "" || names[t.Name] {
			return fmt.Errorf("experiment %s: table name %q empty or repeated", e.ID, t.Name)
		}
		names[t.Name] = true
		if len(t.Metrics) == 0 {
			return fmt.Errorf("experiment %s: table %s has no metrics", e.ID, t.Name)
		}
	}
	for _, t := range e.TextTables {
		if t.Name == "" || names[t.Name] {
			return fmt.Errorf("experiment %s: table name %q empty or repeated", e.ID, t.Name)
		}
		names[t.Name] = true
		if t.Build == nil {
			return fmt.Errorf("experiment %s: text table %s has no Build", e.ID, t.Name)
		}
	}
	fnames := map[string]bool{}
	for _, f := range e.Figures {
		if f.Name == "" || fnames[f.Name] {
			return fmt.Errorf("experiment %s: figure name %q empty or repeated", e.ID, f.Name)
		}
		fnames[f.Name] = true
		if f.Kind != Line && f.Kind != Bar {
			return fmt.Errorf("experiment %s: figure %s: Kind %q, want %q or %q", e.ID, f.Name, f.Kind, Line, Bar)
		}
		if f.Source != FromIterations && f.Source != FromMetrics {
			return fmt.Errorf("experiment %s: figure %s: Source %q, want %q or %q", e.ID, f.Name, f.Source, FromIterations, FromMetrics)
		}
		if f.X == "" || f.Y == "" {
			return fmt.Errorf("experiment %s: figure %s: X and Y are required", e.ID, f.Name)
		}
		if f.Scaling && f.Kind != Line {
			return fmt.Errorf("experiment %s: figure %s: Scaling needs Kind %q (a cost against a size)", e.ID, f.Name, Line)
		}
	}
	for _, c := range e.Claims {
		if c.Statement == "" || c.Judge == nil {
			return fmt.Errorf("experiment %s: a claim needs a Statement and a Judge", e.ID)
		}
	}
	for name, vals := range e.Grid {
		if len(vals) == 0 {
			return fmt.Errorf("experiment %s: grid parameter %s has no values", e.ID, name)
		}
		switch name {
		case ColDataset, ColMethod, ColReplicate, "seed":
			return fmt.Errorf("experiment %s: grid parameter %q is reserved", e.ID, name)
		}
	}
	for name := range e.Quick.Grid {
		if _, ok := e.Grid[name]; !ok {
			return fmt.Errorf("experiment %s: Quick.Grid parameter %s is not in Grid", e.ID, name)
		}
	}
	return nil
}

// SeedScheme is how Experiment.Jobs derives each job's seed from the root
// seed.
type SeedScheme int

const (
	// SeedPerJob gives every job its own seed,
	// engine.DeriveSeed(root, experiment ID, canonical job configuration
	// without replicate and seeds, replicate): no two configurations share
	// a random start. The papers' experiments use it; their committed
	// numbers depend on it.
	SeedPerJob SeedScheme = iota
	// SeedPerReplicate gives every configuration the same seed for a
	// replicate: the root seed itself for replicate 0, and
	// engine.DeriveSeed(root, "replicate", r) for replicate r ≥ 1. A job
	// then equals a single fit of its configuration with that seed, grid
	// points differ only by their parameters (common random numbers), and
	// the experiment ID (a notebook sweep's name) does not enter.
	SeedPerReplicate
)
