package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments/store"
)

// Files of a job's run directory written by the runner (besides the
// store's config.json, provenance.json and done, and the artifacts).
const (
	MetricsFile    = "metrics.csv"    // metric,value
	PerQueryFile   = "per-query.csv"  // query,metric,value
	IterationsFile = "iterations.csv" // engine.Recorder.WriteCSV
	StatusFile     = "status.json"    // the model's engine.Status
	NotesFile      = "notes.txt"      // warnings, one per line
)

// Result is what a task returns for one job.
type Result struct {
	// Metrics are the job's numbers, e.g. {"recovery", 0.97}.
	Metrics []Metric
	// PerQuery are per-query values for retrieval tasks.
	PerQuery []QueryMetric
	// Iterations is the fit's recorder (nil when there is no fit).
	Iterations *engine.Recorder
	// Status is the fit's outcome (nil when there is no fit).
	Status *engine.Status
	// Notes are warnings to show in the report (e.g. empty documents
	// dropped, a small t-test sample).
	Notes []string
	// Artifacts are further files: factors (.mtx), top terms, ...
	Artifacts []Artifact
}

// Metric is one named number.
type Metric struct {
	Name  string
	Value float64
}

// QueryMetric is one metric of one query.
type QueryMetric struct {
	Query  string
	Metric string
	Value  float64
}

// Artifact is a further file of the run, written by Write.
type Artifact struct {
	Name  string // relative path in the run directory, e.g. "U.mtx"
	Write func(w io.Writer) error
}

// AddMetric appends a metric.
func (r *Result) AddMetric(name string, value float64) {
	r.Metrics = append(r.Metrics, Metric{Name: name, Value: value})
}

// statusRecord is status.json.
type statusRecord struct {
	Reason     string  `json:"reason"`
	Iterations int     `json:"iterations"`
	Objective  float64 `json:"objective"`
	Detail     string  `json:"detail,omitempty"`
}

func floatText(v float64) string { return store.FormatFloat(v) }

// Write stores the result's files through w.
func (r *Result) Write(w *store.Writer) error {
	rows := make([][]string, len(r.Metrics))
	for i, m := range r.Metrics {
		if m.Name == "" {
			return fmt.Errorf("metric %d has no name", i+1)
		}
		rows[i] = []string{m.Name, floatText(m.Value)}
	}
	if err := w.WriteCSV(MetricsFile, []string{"metric", "value"}, rows); err != nil {
		return err
	}
	if len(r.PerQuery) > 0 {
		rows := make([][]string, len(r.PerQuery))
		for i, q := range r.PerQuery {
			rows[i] = []string{q.Query, q.Metric, floatText(q.Value)}
		}
		if err := w.WriteCSV(PerQueryFile, []string{"query", "metric", "value"}, rows); err != nil {
			return err
		}
	}
	if r.Iterations != nil {
		if err := w.WriteFile(IterationsFile, r.Iterations.WriteCSV); err != nil {
			return err
		}
	}
	if r.Status != nil {
		s := r.Status
		obj := s.Objective
		if math.IsNaN(obj) || math.IsInf(obj, 0) {
			obj = 0 // JSON has no NaN; Detail names the failure
		}
		b, err := json.MarshalIndent(statusRecord{Reason: s.Reason.String(), Iterations: s.Iterations, Objective: obj, Detail: s.Detail}, "", "  ")
		if err != nil {
			return err
		}
		if err := w.WriteBytes(StatusFile, append(b, '\n')); err != nil {
			return err
		}
	}
	if len(r.Notes) > 0 {
		text := strings.Join(r.Notes, "\n") + "\n"
		if err := w.WriteBytes(NotesFile, []byte(text)); err != nil {
			return err
		}
	}
	for _, a := range r.Artifacts {
		switch a.Name {
		case MetricsFile, PerQueryFile, IterationsFile, StatusFile, NotesFile:
			return fmt.Errorf("artifact %s: name reserved for the runner", a.Name)
		}
		if a.Write == nil {
			return fmt.Errorf("artifact %s: no Write function", a.Name)
		}
		if err := w.WriteFile(a.Name, a.Write); err != nil {
			return fmt.Errorf("artifact %s: %w", a.Name, err)
		}
	}
	return nil
}

// StoredRun is what the runner reads back from a finished run directory:
// rendering always uses the stored numbers, whether computed now or cached.
type StoredRun struct {
	Dir        string
	Metrics    []Metric
	PerQuery   []QueryMetric
	IterHeader []string    // iterations.csv header (nil when absent)
	Iterations [][]float64 // rows of iterations.csv, as numbers
	Status     string      // "converged", "iteration limit", ... ("" when absent)
	StatusText string      // one line: reason, iterations, objective, detail
	Notes      []string
}

// ReadRun reads a finished run directory; errors name the file and record.
func ReadRun(dir string) (*StoredRun, error) {
	sr := &StoredRun{Dir: dir}
	_, rows, err := store.ReadCSV(filepath.Join(dir, MetricsFile))
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		if len(r) != 2 {
			return nil, fmt.Errorf("%s: record %d: want 2 fields (metric,value), got %d", filepath.Join(dir, MetricsFile), i+2, len(r))
		}
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: record %d: value %q is not a number", filepath.Join(dir, MetricsFile), i+2, r[1])
		}
		sr.Metrics = append(sr.Metrics, Metric{Name: r[0], Value: v})
	}
	p := filepath.Join(dir, PerQueryFile)
	if _, rows, err := store.ReadCSV(p); err == nil {
		for i, r := range rows {
			if len(r) != 3 {
				return nil, fmt.Errorf("%s: record %d: want 3 fields (query,metric,value), got %d", p, i+2, len(r))
			}
			v, err := strconv.ParseFloat(r[2], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: record %d: value %q is not a number", p, i+2, r[2])
			}
			sr.PerQuery = append(sr.PerQuery, QueryMetric{Query: r[0], Metric: r[1], Value: v})
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	p = filepath.Join(dir, IterationsFile)
	if head, rows, err := store.ReadCSV(p); err == nil {
		sr.IterHeader = head
		for i, r := range rows {
			if len(r) != len(head) {
				return nil, fmt.Errorf("%s: record %d: %d fields, header has %d", p, i+2, len(r), len(head))
			}
			vals := make([]float64, len(r))
			for c, s := range r {
				if s == "" { // not evaluated at this iteration
					vals[c] = math.NaN()
					continue
				}
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, fmt.Errorf("%s: record %d, column %s: %q is not a number", p, i+2, head[c], s)
				}
				vals[c] = v
			}
			sr.Iterations = append(sr.Iterations, vals)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	p = filepath.Join(dir, StatusFile)
	if b, err := os.ReadFile(p); err == nil {
		var s statusRecord
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		sr.Status = s.Reason
		sr.StatusText = fmt.Sprintf("%s after %d iterations, objective %.6g", s.Reason, s.Iterations, s.Objective)
		if s.Detail != "" {
			sr.StatusText += ": " + s.Detail
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if b, err := os.ReadFile(filepath.Join(dir, NotesFile)); err == nil {
		for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			if l != "" {
				sr.Notes = append(sr.Notes, l)
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return sr, nil
}

// Metric returns the named metric and whether it was recorded.
func (s *StoredRun) Metric(name string) (float64, bool) {
	for _, m := range s.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return math.NaN(), false
}

// IterColumn returns the named column of the iterations (nil if absent).
func (s *StoredRun) IterColumn(name string) []float64 {
	for c, h := range s.IterHeader {
		if h == name {
			out := make([]float64, len(s.Iterations))
			for i, r := range s.Iterations {
				out[i] = r[c]
			}
			return out
		}
	}
	return nil
}
