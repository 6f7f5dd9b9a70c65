package notebook

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/metrics/cluster"
	"github.com/topicmf/topicmf/metrics/ir"
	"github.com/topicmf/topicmf/metrics/topics"
)

// ResultsDir is the results root that sweeps and experiments use, the
// same as `topicmf run`'s default: $TOPICMF_RESULTS when set, else
// results/ at the root of the topicmf checkout this package was built
// from (else results/ in the working directory).
func ResultsDir() string {
	if d := os.Getenv("TOPICMF_RESULTS"); d != "" {
		return d
	}
	if root := store.ModuleRoot(); root != "" {
		return filepath.Join(root, "results")
	}
	return "results"
}

// Sweep metrics, per job.
const (
	MetricObjective  = "objective"   // the objective at the last iteration
	MetricIterations = "iterations"  // completed iterations
	MetricAvgComp    = "avgcomp"     // mean fraction of non-zero topic weights (RLSI paper §6.3)
	MetricNMI        = "nmi"         // NMI of argmax-topic clusters against the labels (labelled corpora)
	MetricPurity     = "purity"      // purity of the same clusters
	MetricMAP        = "map"         // MAP of topic-only retrieval (Rank's score) over the judged queries
	MetricNDCG10     = "ndcg_cut_10" // NDCG@10 of the same ranking
)

// SweepSpec is a grid of fits of one family on one corpus.
type SweepSpec struct {
	// Name identifies the sweep in the results store: its experiment id is
	// "notebook/<Name>". Running the same spec again reads its finished
	// jobs back; change Name (or Version) to compute afresh.
	Name string
	// Version is bumped by hand when the same Name should not reuse runs.
	Version string
	Family  string
	// Params are fixed for every job; the keys neither here nor in Grid
	// take the defaults of Fit (workflow.WithFrontEnd).
	Params Params
	// Grid maps a family parameter to the values it takes; jobs are the
	// Cartesian product (names sorted, the last varying fastest).
	Grid map[string][]string
	// Replicates runs each point with that many seeds; 0 means 1.
	Replicates int
	// Seed is the seed of every point's first replicate, so that a job
	// equals Fit of its parameters with Params{"seed": Seed}; replicate
	// r ≥ 1 takes engine.DeriveSeed(Seed, "replicate", r)
	// (experiments.SeedPerReplicate). The sweep's Name does not enter.
	// 0 means workflow.DefaultSeed, the seed Fit uses when its params
	// give none.
	Seed uint64
}

// SweepResult are a sweep's jobs read back from the results store.
type SweepResult struct {
	*experiments.Results
}

// Sweep runs spec on c through the experiments runner and the results
// store at ResultsDir: every job not already stored is fitted (jobs in
// parallel on the shared pool, each with its derived seed) and scored
// (objective, iterations, AvgComp; NMI and purity when c has labels; MAP
// and NDCG@10 of topic-only retrieval when c has judged queries; mean NPMI,
// C_V and TD@25 when c has its texts, so that s.Plot("k", "npmi") shows
// coherence against K).
func Sweep(c *Corpus, spec SweepSpec) (*SweepResult, error) {
	st, err := store.Open(ResultsDir())
	if err != nil {
		return nil, err
	}
	e, err := sweepExperiment(c, spec)
	if err != nil {
		return nil, err
	}
	res, err := (&experiments.Runner{Store: st}).Run(context.Background(), e)
	if err != nil {
		return nil, err
	}
	return &SweepResult{res}, nil
}

func sweepExperiment(c *Corpus, spec SweepSpec) (*experiments.Experiment, error) {
	if spec.Name == "" || strings.ContainsAny(spec.Name, "/ \t*?[]\\") {
		return nil, fmt.Errorf("sweep: Name %q: want a non-empty name without slashes, spaces or glob characters", spec.Name)
	}
	if spec.Family == "" {
		return nil, fmt.Errorf("sweep %s: no Family", spec.Name)
	}
	if err := checkFamily(spec.Family); err != nil {
		return nil, fmt.Errorf("sweep %s: %w", spec.Name, err)
	}
	if _, ok := spec.Params["seed"]; ok {
		return nil, fmt.Errorf("sweep %s: give the seed as SweepSpec.Seed, not in Params", spec.Name)
	}
	seed := spec.Seed
	if seed == 0 {
		seed = workflow.DefaultSeed
	}
	queries, err := judgedQueries(c)
	if err != nil {
		return nil, err
	}
	fam, err := catalog.Lookup(spec.Family)
	if err != nil {
		return nil, fmt.Errorf("sweep %s: %w", spec.Name, err)
	}
	// Every front end's defaults, as Fit: the family's front-end defaults
	// for the keys the spec neither fixes nor varies.
	params := workflow.WithFrontEnd(fam, catalog.Params(spec.Params), slices.Collect(maps.Keys(spec.Grid))...)
	ref, err := sweepReference(c)
	if err != nil {
		return nil, err
	}
	return &experiments.Experiment{
		ID:         "notebook/" + spec.Name,
		Title:      fmt.Sprintf("%s sweep on %s", spec.Family, c.Name),
		Version:    spec.Version,
		Datasets:   []string{c.Name},
		Checksums:  func(*experiments.Job) ([]store.Checksum, error) { return c.Sums, nil },
		Methods:    []experiments.MethodSpec{{Name: spec.Family, Params: params}},
		Grid:       spec.Grid,
		Replicates: spec.Replicates,
		Seed:       seed,
		SeedScheme: experiments.SeedPerReplicate,
		Task: func(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
			f, err := j.FitCorpus(ctx, c.Corpus, nil)
			if err != nil {
				return nil, err
			}
			res := f.NewResult(j)
			if err := score(ctx, res, f, queries); err != nil {
				return nil, err
			}
			if err := scoreQuality(res, f, ref); err != nil {
				return nil, err
			}
			return res, nil
		},
	}, nil
}

// queryTask is a corpus's judged queries, ready for fold-in.
type queryTask struct {
	ids, texts []string
	qrels      ir.Qrels
	opts       ir.Options
}

func judgedQueries(c *Corpus) (*queryTask, error) {
	if c.Collection == nil || len(c.Collection.Qrels) == 0 || c.Vectorizer == nil || c.TermRow != nil {
		return nil, nil
	}
	t := &queryTask{qrels: ir.Qrels{}, opts: ir.Options{Gains: c.Collection.Gains, Complete: true}}
	for _, j := range c.Collection.Qrels {
		if t.qrels[j.QueryID] == nil {
			t.qrels[j.QueryID] = map[string]int{}
		}
		t.qrels[j.QueryID][j.DocID] = j.Level
	}
	for _, q := range c.Collection.Queries {
		if t.qrels[q.ID] != nil {
			t.ids, t.texts = append(t.ids, q.ID), append(t.texts, q.Text)
		}
	}
	if len(t.ids) == 0 {
		return nil, nil
	}
	return t, nil
}

// score adds the sweep metrics of a fit to res.
func score(ctx context.Context, res *experiments.Result, f *experiments.Fit, q *queryTask) error {
	res.AddMetric(MetricObjective, f.Status.Objective)
	res.AddMetric(MetricIterations, float64(f.Status.Iterations))
	res.AddMetric(MetricAvgComp, topics.AvgComp(f.Model.TermTopics()))
	if c := f.Corpus; c.Classes() > 0 {
		V := f.Model.DocTopics()
		var truth, pred []int
		for n, l := range c.Labels {
			if l < 0 {
				continue
			}
			row := V.RawRowView(n)
			best := 0
			for k, v := range row {
				if v > row[best] {
					best = k
				}
			}
			truth, pred = append(truth, l), append(pred, best)
		}
		if len(truth) > 0 {
			s, err := cluster.Evaluate(truth, pred)
			if err != nil {
				return err
			}
			res.AddMetric(MetricNMI, s.NMI)
			res.AddMetric(MetricPurity, s.Purity)
		}
	}
	if q == nil {
		return nil
	}
	rk := &workflow.Ranker{Model: f.Model, Vectorizer: f.Corpus.Vectorizer, DocIDs: f.Corpus.DocIDs}
	run, err := rk.Rank(ctx, q.ids, q.texts, workflow.RankOptions{Alpha: 1, Depth: max(1, f.Corpus.Docs())})
	if err != nil {
		return err
	}
	rep, err := ir.Evaluate(q.qrels, run, q.opts)
	if err != nil {
		return err
	}
	res.AddMetric(MetricMAP, rep.Mean("map"))
	res.AddMetric(MetricNDCG10, rep.Mean("ndcg_cut_10"))
	return nil
}

// Table is one row per job: the job columns (dataset, method, the grid
// parameters, replicate), then one column per metric.
func (s *SweepResult) Table() dataframe.DataFrame { return Wide(s.Results) }

// Iterations is every job's per-iteration record, with the job columns.
func (s *SweepResult) Iterations() dataframe.DataFrame {
	return s.IterationsFrame().Drop([]string{"job", "run"})
}

// Wide is a results' metrics with one row per job and one column per
// metric (NaN where a job did not record it), after the job columns.
func Wide(r *experiments.Results) dataframe.DataFrame {
	cols := r.Columns()
	var metrics []string
	seen := map[string]bool{}
	for _, j := range r.Jobs {
		for _, m := range j.Run.Metrics {
			if !seen[m.Name] {
				seen[m.Name] = true
				metrics = append(metrics, m.Name)
			}
		}
	}
	var ss []series.Series
	for _, name := range cols {
		var vals []string
		for _, j := range r.Jobs {
			vals = append(vals, j.Job.Column(name))
		}
		ss = append(ss, series.New(vals, series.String, name))
	}
	for _, m := range metrics {
		vals := make([]float64, len(r.Jobs))
		for i, j := range r.Jobs {
			v, ok := j.Run.Metric(m)
			if !ok {
				v = nan
			}
			vals[i] = v
		}
		ss = append(ss, series.New(vals, series.Float, m))
	}
	return dataframe.New(ss...)
}

// Plot draws metric y against the grid parameter x, one line per value of
// each series parameter (mean ± sd over replicates), shows it inline and
// returns the PNG.
func (s *SweepResult) Plot(x, y string, series ...string) ([]byte, error) {
	return ShowFigure(s.Results, experiments.Figure{
		Name: s.Experiment.Name() + "-" + y, Title: fmt.Sprintf("%s: %s by %s", s.Experiment.Title, y, x),
		Kind: experiments.Line, Source: experiments.FromMetrics, X: x, Y: y, Series: series, ErrorBars: s.Experiment.Replicates > 1,
	})
}

// PlotTraces draws an iteration column (e.g. "objective") against the
// iteration for every job, one line per combination of the series
// parameters, shows it inline and returns the PNG.
func (s *SweepResult) PlotTraces(y string, series ...string) ([]byte, error) {
	return ShowFigure(s.Results, experiments.Figure{
		Name: s.Experiment.Name() + "-trace-" + y, Title: fmt.Sprintf("%s: %s by iteration", s.Experiment.Title, y),
		Kind: experiments.Line, Source: experiments.FromIterations, X: "iter", Y: y, Series: series,
	})
}
