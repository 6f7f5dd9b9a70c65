package engine

import (
	"context"
	"fmt"
	"math"
)

var nan = math.NaN()

// Default stopping settings: the declared defaults of the fields of
// Stopping (see its tags), as constants for code that states them.
const (
	DefaultMaxIter = 100
	DefaultRelTol  = 1e-4
)

// Stopping says when an iterative fit ends. Its fields are declared
// parameters (engine/param): a family exposes the ones it honours, e.g.
// `param:"iters,tol"` on its Stopping field.
//
// Zero follows engine/param's rule. MaxIter and EvalEvery cannot be 0, so
// 0 selects their defaults; RelTol 0 is a tolerance of zero, which
// disables the test. The zero Stopping therefore runs DefaultMaxIter
// iterations with no tolerance test; DefaultStopping is the declared
// default, with the DefaultRelTol test.
type Stopping struct {
	// MaxIter is the largest number of iterations; 0 means DefaultMaxIter.
	MaxIter int `param:"iters" default:"100" range:"[1,inf)" doc:"maximum iterations"`
	// RelTol stops the fit when |f_prev − f| ≤ RelTol·max(|f_prev|, 1e-300)
	// between two consecutive evaluations. 0 or a negative value disables
	// the test, so exactly MaxIter iterations run.
	RelTol float64 `param:"tol" default:"1e-4" doc:"relative change of the objective between two evaluations that stops the fit; 0 or negative runs all iterations"`
	// EvalEvery evaluates the objective (and the tolerance test) every
	// EvalEvery iterations and after the last; 0 means 1.
	EvalEvery int `param:"eval-every" default:"1" range:"[1,inf)" doc:"evaluate the objective (and the tolerance test) every eval-every iterations and after the last"`
}

// DefaultStopping is the declared default: at most DefaultMaxIter
// iterations, stop when the relative change of the objective between two
// evaluations is at most DefaultRelTol, evaluate every iteration.
func DefaultStopping() Stopping {
	return Stopping{MaxIter: DefaultMaxIter, RelTol: DefaultRelTol, EvalEvery: 1}
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

// Tol is RelTol (0 or negative: disabled).
func (s Stopping) Tol() float64 { return s.RelTol }

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
	if tol <= 0 || math.IsNaN(prev) {
		return false
	}
	return math.Abs(prev-cur) <= tol*math.Max(math.Abs(prev), 1e-300)
}

// Loop runs a small inner iteration under the rule, such as one document's
// fold-in, which is not recorded: update(t) for t = 1, 2, … up to
// Iterations(), stopping after the first iteration t that Evaluate selects
// at which Converged(prev, objective()) holds, prev being the objective at
// the previous evaluated iteration. objective is called only at the
// iterations Evaluate selects. It also stops, before the next update, once
// ctx is cancelled: the caller then discards what it was computing (as
// solve.FoldRows does with an unfinished row).
func (s Stopping) Loop(ctx context.Context, update func(t int), objective func() float64) {
	prev := math.NaN()
	for t := 1; t <= s.Iterations(); t++ {
		if ctx.Err() != nil {
			return
		}
		update(t)
		if !s.Evaluate(t) {
			continue
		}
		f := objective()
		if s.Converged(prev, f) {
			return
		}
		prev = f
	}
}

// Resolved is s with its defaults written out (MaxIter, EvalEvery), as a
// saved model records the rule that was used.
func (s Stopping) Resolved() Stopping {
	return Stopping{MaxIter: s.Iterations(), RelTol: s.RelTol, EvalEvery: s.Every()}
}
