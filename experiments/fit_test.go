package experiments

import (
	"math"
	"slices"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/synthetic"
)

func TestSecondsPerIteration(t *testing.T) {
	its := func(secs ...float64) []engine.Iteration {
		out := make([]engine.Iteration, len(secs))
		for i, s := range secs {
			out[i].Seconds = s
		}
		return out
	}
	if v := SecondsPerIteration(its(9, 1, 2, 3)); v != 2 {
		t.Errorf("mean of iterations 2..4 = %v, want 2", v)
	}
	if v := SecondsPerIteration(its(5)); v != 5 {
		t.Errorf("one iteration: %v, want 5", v)
	}
	if v := SecondsPerIteration(nil); !math.IsNaN(v) {
		t.Errorf("no iteration: %v, want NaN", v)
	}
}

// TestNewResultNotes: a fit's result carries the synthetic generator's
// warnings first, then the numerical failure.
func TestNewResultNotes(t *testing.T) {
	e := &Experiment{ID: "toy/notes"}
	j := &Job{Experiment: e, Dataset: "toy"}
	c := &Corpus{Truth: &synthetic.Truth{Warnings: []string{"class 2 is empty"}}}
	f := &Fit{Corpus: c, Recorder: engine.NewRecorder(), Status: engine.Status{Reason: engine.NumericalFailure, Detail: "NaN in U"}}
	notes := f.NewResult(j).Notes
	if len(notes) != 2 || notes[0] != "synthetic data: class 2 is empty" || notes[1] != j.Label()+": "+f.Status.String() {
		t.Errorf("notes %q", notes)
	}
	f = &Fit{Corpus: &Corpus{}, Recorder: engine.NewRecorder(), Status: engine.Status{Reason: engine.Converged}}
	if notes := f.NewResult(j).Notes; !slices.Equal(notes, nil) {
		t.Errorf("collection corpus, converged fit: notes %q, want none", notes)
	}
}
