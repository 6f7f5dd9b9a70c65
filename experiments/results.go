package experiments

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// JobResult is one job with its stored run.
type JobResult struct {
	Job    *Job
	RunID  string
	Dir    string
	Cached bool
	Run    *StoredRun
}

// Results are all jobs of one experiment run, in job order.
type Results struct {
	Experiment *Experiment
	Quick      bool
	Jobs       []*JobResult

	derivedMu sync.Mutex
	derived   map[string]derivedValue
}

type derivedValue struct {
	v   any
	err error
}

// Derived returns compute(r) under key, computing it once per Results: the
// judges of one experiment that share an expensive analysis (a retrieval
// protocol over every job) call it with the same key and the same T. The
// value lives as long as the Results.
func Derived[T any](r *Results, key string, compute func(*Results) (T, error)) (T, error) {
	r.derivedMu.Lock()
	defer r.derivedMu.Unlock()
	if d, ok := r.derived[key]; ok {
		v, _ := d.v.(T)
		return v, d.err
	}
	v, err := compute(r)
	if r.derived == nil {
		r.derived = map[string]derivedValue{}
	}
	r.derived[key] = derivedValue{v, err}
	return v, err
}

// Columns are the job columns: dataset, method, the grid names (sorted),
// replicate.
func (r *Results) Columns() []string {
	cols := []string{ColDataset, ColMethod}
	grid := map[string]bool{}
	for _, j := range r.Jobs {
		for k := range j.Job.Point {
			grid[k] = true
		}
	}
	cols = append(cols, slices.Sorted(maps.Keys(grid))...)
	return append(cols, ColReplicate)
}

func matches(j *Job, where map[string]string) bool {
	for k, v := range where {
		if j.Column(k) != v {
			return false
		}
	}
	return true
}

// Select returns the jobs whose columns have the given values.
func (r *Results) Select(where map[string]string) []*JobResult {
	var out []*JobResult
	for _, j := range r.Jobs {
		if matches(j.Job, where) {
			out = append(out, j)
		}
	}
	return out
}

// Values returns the metric of every selected job that recorded it.
func (r *Results) Values(metric string, where map[string]string) []float64 {
	var out []float64
	for _, j := range r.Select(where) {
		if v, ok := j.Run.Metric(metric); ok {
			out = append(out, v)
		}
	}
	return out
}

// Summary is the mean and sample standard deviation of a group's values.
type Summary struct {
	Key    []string // the group's values of the grouping columns
	N      int
	Mean   float64
	SD     float64 // sample standard deviation (n−1); NaN when N < 2
	Values []float64
}

// Summarize computes Summary from values.
func Summarize(values []float64) Summary {
	s := Summary{N: len(values), Values: values, Mean: math.NaN(), SD: math.NaN()}
	if s.N == 0 {
		return s
	}
	var sum float64
	for _, v := range values {
		sum += v
	}
	s.Mean = sum / float64(s.N)
	if s.N > 1 {
		var ss float64
		for _, v := range values {
			d := v - s.Mean
			ss += d * d
		}
		s.SD = math.Sqrt(ss / float64(s.N-1))
	}
	return s
}

type group struct {
	key  []string
	jobs []*JobResult
}

// groups partitions the selected jobs by the values of by, in order of
// first appearance (job order).
func (r *Results) groups(by []string, where map[string]string) []group {
	var out []group
	index := map[string]int{}
	for _, j := range r.Select(where) {
		key := make([]string, len(by))
		for i, c := range by {
			key[i] = j.Job.Column(c)
		}
		id := joinKey(key)
		g, ok := index[id]
		if !ok {
			g = len(out)
			index[id] = g
			out = append(out, group{key: key})
		}
		out[g].jobs = append(out[g].jobs, j)
	}
	return out
}

func joinKey(key []string) string {
	s := ""
	for _, k := range key {
		s += strconv.Quote(k) + ","
	}
	return s
}

// Groups summarises a metric over the jobs grouped by the columns by
// (groups in order of first appearance); jobs that did not record the
// metric are left out of its group.
func (r *Results) Groups(metric string, by []string, where map[string]string) []Summary {
	var out []Summary
	for _, g := range r.groups(by, where) {
		var vals []float64
		for _, j := range g.jobs {
			if v, ok := j.Run.Metric(metric); ok {
				vals = append(vals, v)
			}
		}
		s := Summarize(vals)
		s.Key = g.key
		out = append(out, s)
	}
	return out
}

// Curve is a per-iteration trace averaged over a group of jobs.
type Curve struct {
	Key  []string
	X    []float64 // mean over the jobs of the x column at each row
	Mean []float64
	SD   []float64 // NaN where fewer than two jobs reach the row
	N    []int     // jobs reaching the row
}

// Curves averages the iteration column y against x over the jobs grouped
// by the columns by. Row t of every job's trace is averaged with row t of
// the others (jobs that stopped earlier drop out). x is "iter", "time"
// (cumulative seconds) or any iteration column.
func (r *Results) Curves(x, y string, by []string, where map[string]string) []Curve {
	var out []Curve
	for _, g := range r.groups(by, where) {
		var xs, ys [][]float64
		maxLen := 0
		for _, j := range g.jobs {
			var xc []float64
			if x == "time" {
				if sec := j.Run.IterColumn("seconds"); sec != nil {
					xc = make([]float64, len(sec))
					var t float64
					for i, s := range sec {
						t += s
						xc[i] = t
					}
				}
			} else {
				xc = j.Run.IterColumn(x)
			}
			yc := j.Run.IterColumn(y)
			if xc == nil || yc == nil {
				continue
			}
			xs, ys = append(xs, xc), append(ys, yc)
			maxLen = max(maxLen, len(yc))
		}
		if len(ys) == 0 {
			continue
		}
		c := Curve{Key: g.key}
		for t := 0; t < maxLen; t++ {
			var xv, yv []float64
			for k := range ys {
				if t < len(ys[k]) && !math.IsNaN(ys[k][t]) {
					xv = append(xv, xs[k][t])
					yv = append(yv, ys[k][t])
				}
			}
			if len(yv) == 0 {
				continue
			}
			sx, sy := Summarize(xv), Summarize(yv)
			c.X = append(c.X, sx.Mean)
			c.Mean = append(c.Mean, sy.Mean)
			c.SD = append(c.SD, sy.SD)
			c.N = append(c.N, sy.N)
		}
		out = append(out, c)
	}
	return out
}

// jobSeries are the job-identifying columns of a frame with n rows per job.
func (r *Results) jobSeries(rows func(*JobResult) int) []series.Series {
	cols := r.Columns()
	var runIDs []string
	vals := make([][]string, len(cols))
	var idx []int
	for _, j := range r.Jobs {
		n := rows(j)
		for i := 0; i < n; i++ {
			idx = append(idx, j.Job.Index)
			runIDs = append(runIDs, j.RunID)
			for c, name := range cols {
				vals[c] = append(vals[c], j.Job.Column(name))
			}
		}
	}
	ss := []series.Series{series.New(idx, series.Int, "job"), series.New(runIDs, series.String, "run")}
	for c, name := range cols {
		ss = append(ss, series.New(vals[c], series.String, name))
	}
	return ss
}

// MetricsFrame is every job's metrics as a long table: job, run, the job
// columns, metric, value.
func (r *Results) MetricsFrame() dataframe.DataFrame {
	ss := r.jobSeries(func(j *JobResult) int { return len(j.Run.Metrics) })
	var names []string
	var vals []float64
	for _, j := range r.Jobs {
		for _, m := range j.Run.Metrics {
			names = append(names, m.Name)
			vals = append(vals, m.Value)
		}
	}
	ss = append(ss, series.New(names, series.String, "metric"), series.New(vals, series.Float, "value"))
	return dataframe.New(ss...)
}

// PerQueryFrame is every job's per-query values: job, run, the job
// columns, query, metric, value.
func (r *Results) PerQueryFrame() dataframe.DataFrame {
	ss := r.jobSeries(func(j *JobResult) int { return len(j.Run.PerQuery) })
	var qs, names []string
	var vals []float64
	for _, j := range r.Jobs {
		for _, q := range j.Run.PerQuery {
			qs = append(qs, q.Query)
			names = append(names, q.Metric)
			vals = append(vals, q.Value)
		}
	}
	ss = append(ss, series.New(qs, series.String, "query"), series.New(names, series.String, "metric"), series.New(vals, series.Float, "value"))
	return dataframe.New(ss...)
}

// IterationsFrame is every job's iterations: job, run, the job columns,
// then the union of the iteration columns (NaN where a job lacks one).
func (r *Results) IterationsFrame() dataframe.DataFrame {
	ss := r.jobSeries(func(j *JobResult) int { return len(j.Run.Iterations) })
	var head []string
	seen := map[string]bool{}
	for _, j := range r.Jobs {
		for _, h := range j.Run.IterHeader {
			if !seen[h] {
				seen[h] = true
				head = append(head, h)
			}
		}
	}
	for _, h := range head {
		var vals []float64
		for _, j := range r.Jobs {
			col := j.Run.IterColumn(h)
			for i := range j.Run.Iterations {
				if col == nil {
					vals = append(vals, math.NaN())
				} else {
					vals = append(vals, col[i])
				}
			}
		}
		ss = append(ss, series.New(vals, series.Float, h))
	}
	return dataframe.New(ss...)
}

// Verdicts judges every claim of the experiment.
func (r *Results) Verdicts() []Verdict {
	out := make([]Verdict, len(r.Experiment.Claims))
	for i, c := range r.Experiment.Claims {
		out[i] = c.Judge(r)
	}
	return out
}
