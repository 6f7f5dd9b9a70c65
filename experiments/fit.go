package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/topicmf/topicmf/engine"
)

// FitTask scores one fitted model: the runner has built the job's corpus
// (Experiment.Corpus), fitted the job's method on it through the catalog
// with a recorder, and hands over the fit. The task returns only what is
// specific to the experiment (its metrics, per-query values, notes and
// artifacts): the runner adds the recorder, the status and a note for a
// numerical failure to the result.
type FitTask func(ctx context.Context, j *Job, f *Fit) (*Result, error)

// Fit is a fitted catalog model with its data.
type Fit struct {
	Corpus   *Corpus
	Model    engine.Model
	Status   engine.Status
	Recorder *engine.Recorder
	// Seconds is the wall-clock time of the fit (the method's Fit call).
	Seconds float64
}

// FitCorpus fits the job's method (Job.NewMethod) on c with a recorder
// that reports progress to Job.OnIteration (and to onIter when non-nil,
// first). A cancelled fit returns ctx.Err(); a numerical failure is a
// Status, not an error.
func (j *Job) FitCorpus(ctx context.Context, c *Corpus, onIter func(engine.Iteration)) (*Fit, error) {
	method, err := j.NewMethod()
	if err != nil {
		return nil, err
	}
	rec := engine.NewRecorder()
	rec.OnIteration = j.OnIteration
	if onIter != nil {
		rec.OnIteration = func(it engine.Iteration) {
			onIter(it)
			if j.OnIteration != nil {
				j.OnIteration(it)
			}
		}
	}
	start := time.Now()
	model, status, err := method.Fit(ctx, c.Corpus, rec)
	seconds := time.Since(start).Seconds()
	if err != nil {
		return nil, err
	}
	if status.Reason == engine.Cancelled {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("fit cancelled")
	}
	return &Fit{Corpus: c, Model: model, Status: status, Recorder: rec, Seconds: seconds}, nil
}

// FitTopics fits the job's method on c (FitCorpus) with the topic counts
// of a setting of Ks shared topics and Kc topics per class over c's
// classes (WithTopics), and returns the fit and the method's total number
// of topics K.
func (j *Job) FitTopics(ctx context.Context, c *Corpus, ks, kc int) (*Fit, int, error) {
	jc, k, err := j.WithTopics(ks, kc, len(c.ClassNames))
	if err != nil {
		return nil, 0, err
	}
	f, err := jc.FitCorpus(ctx, c, nil)
	return f, k, err
}

// NewResult starts the job's result from the fit: its recorder, its
// status, the synthetic generator's notes on the corpus (SyntheticNotes)
// and a note when the fit stopped on a numerical failure.
func (f *Fit) NewResult(j *Job) *Result {
	status := f.Status
	res := &Result{Iterations: f.Recorder, Status: &status, Notes: f.Corpus.SyntheticNotes()}
	if status.Reason == engine.NumericalFailure {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: %s", j.Label(), status))
	}
	return res
}

// runFit is the Task of an experiment with a FitTask: build the corpus,
// fit, score, and complete the result with the fit's recorder and status.
func runFit(ctx context.Context, e *Experiment, j *Job) (*Result, error) {
	c, err := j.BuildCorpus()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := j.FitCorpus(ctx, c, nil)
	if err != nil {
		return nil, err
	}
	res, err := e.Fit(ctx, j, f)
	if err != nil || res == nil {
		return res, err
	}
	base := f.NewResult(j)
	res.Iterations, res.Status = base.Iterations, base.Status
	res.Notes = append(base.Notes, res.Notes...)
	return res, nil
}

// SecondsPerIteration is the mean wall-clock seconds of the iterations
// after the first (which includes warm-up), the first's when there is only
// one, and NaN when there is none.
func SecondsPerIteration(its []engine.Iteration) float64 {
	switch len(its) {
	case 0:
		return math.NaN()
	case 1:
		return its[0].Seconds
	}
	var s float64
	for _, it := range its[1:] {
		s += it.Seconds
	}
	return s / float64(len(its)-1)
}
