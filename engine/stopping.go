package engine

import (
	"fmt"
	"math"
)

var nan = math.NaN()

// Default stopping settings, used where a Stopping field is zero.
const (
	DefaultMaxIter = 100
	DefaultRelTol  = 1e-4
)

// Stopping says when an iterative fit ends. Its zero value is valid: at most
// DefaultMaxIter iterations, stop when the relative decrease of the objective
// between two evaluations falls below DefaultRelTol, evaluate every iteration.
type Stopping struct {
	// MaxIter is the largest number of iterations; 0 means DefaultMaxIter.
	MaxIter int
	// RelTol stops the fit when |f_prev − f| ≤ RelTol·max(|f_prev|, 1e-300)
	// between two consecutive evaluations. 0 means DefaultRelTol; a negative
	// value disables the test, so exactly MaxIter iterations run.
	RelTol float64
	// EvalEvery evaluates the objective (and the tolerance test) every
	// EvalEvery iterations and after the last; 0 means 1.
	EvalEvery int
}

// Validate reports a negative or non-finite setting.
func (s Stopping) Validate() error {
	if s.MaxIter < 0 {
		return fmt.Errorf("stopping: MaxIter = %d, want ≥ 0", s.MaxIter)
	}
	if math.IsNaN(s.RelTol) || math.IsInf(s.RelTol, 0) {
		return fmt.Errorf("stopping: RelTol = %v, want a finite number", s.RelTol)
	}
	if s.EvalEvery < 0 {
		return fmt.Errorf("stopping: EvalEvery = %d, want ≥ 0", s.EvalEvery)
	}
	return nil
}

// Iterations is MaxIter with the default applied.
func (s Stopping) Iterations() int {
	if s.MaxIter == 0 {
		return DefaultMaxIter
	}
	return s.MaxIter
}

// Tol is RelTol with the default applied (negative: disabled).
func (s Stopping) Tol() float64 {
	if s.RelTol == 0 {
		return DefaultRelTol
	}
	return s.RelTol
}

// Every is EvalEvery with the default applied.
func (s Stopping) Every() int {
	if s.EvalEvery <= 0 {
		return 1
	}
	return s.EvalEvery
}

// Evaluate reports whether the objective should be evaluated after
// iteration iter (1-based).
func (s Stopping) Evaluate(iter int) bool {
	return iter%s.Every() == 0 || iter >= s.Iterations()
}

// Converged reports whether the change from prev to cur meets the relative
// tolerance. prev is NaN before the first evaluation.
func (s Stopping) Converged(prev, cur float64) bool {
	tol := s.Tol()
	if tol < 0 || math.IsNaN(prev) {
		return false
	}
	return math.Abs(prev-cur) <= tol*math.Max(math.Abs(prev), 1e-300)
}
