package experiments

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/experiments/store"
)

// TestRunnerNumericalFailureIsNotDone is failure 5 of issue 11 in the
// runner: a job whose fit ends in a numerical failure fails the run with
// the status in the message, is recorded as failed, and is computed again
// by the next run instead of being read back as done.
func TestRunnerNumericalFailureIsNotDone(t *testing.T) {
	var calls atomic.Int32
	e := fakeExperiment(&calls, nil)
	inner := e.Task
	e.Task = func(ctx context.Context, j *Job) (*Result, error) {
		res, err := inner(ctx, j)
		if err == nil && j.Param("a", "") == "y" {
			res.Status = &engine.Status{Reason: engine.NumericalFailure, Iterations: 2, Detail: "iteration 3: NaN in step V"}
		}
		return res, err
	}
	s := newStore(t)
	r := &Runner{Store: s, Pool: parallel.NewPool(1), Quick: true}
	for attempt := 1; attempt <= 2; attempt++ {
		_, err := r.Run(context.Background(), e)
		if err == nil || !strings.Contains(err.Error(), "numerical failure after 2 iterations") ||
			!strings.Contains(err.Error(), "NaN in step V") || !strings.Contains(err.Error(), "not stored as done") {
			t.Fatalf("attempt %d: Run = %v, want the numerical failure", attempt, err)
		}
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, in := range list {
		if in.State == store.StateFailed {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("%d failed runs recorded, want 1: %+v", failed, list)
	}
	if n := calls.Load(); n < 3 {
		t.Fatalf("the failed job was not computed again (%d task calls)", n)
	}
}
