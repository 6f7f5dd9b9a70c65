package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// Steps is what a model family supplies to Iterate: its step and its
// objective. The family initializes its iterate before calling Iterate; the
// driver owns everything else — the iteration count, when the objective is
// evaluated, the stopping test, recording, NaN/Inf detection and
// cancellation — in the spirit of gonum's optimize.Minimize.
//
// # The trial-step contract
//
// Step computes a candidate iterate from the current one without destroying
// the current one; Objective evaluates the candidate; Accept makes the
// candidate current. The driver calls Accept only after Step succeeded and
// the objective (when evaluated) is finite, so the iterate a family returns
// is always the last accepted one: finite, and complete. A family whose
// Step updates its iterate in place (Accept nil) must guarantee that a Step
// returning an error left the iterate as it was and that the iterate can
// never become non-finite (e.g. integer counts).
type Steps struct {
	// Step performs iteration iter (1-based) into the candidate iterate. It
	// returns a *NonFiniteError (see NonFinite) when a value it computed is
	// NaN or ±Inf, a *StationaryError (see Stationary) when it cannot move
	// the iterate, or ctx.Err() when it noticed a cancellation mid-step.
	Step func(ctx context.Context, iter int) error

	// Objective returns the objective at the candidate iterate and its terms
	// in a fixed order (their sum is the objective). It is called after the
	// iterations Stopping.Evaluate selects. Nil: the family has no objective
	// (every recorded objective is NaN and the fit never converges).
	Objective func() (float64, []Term)

	// Accept makes the candidate iterate current. Nil: Step updates in place.
	Accept func()

	// Sparsity returns the fraction of exact zeros of each factor of the
	// current iterate, recorded after every accepted iteration (and not
	// counted in its time). Nil: none recorded.
	Sparsity func() []Term

	// Diagnostics returns other quantities of the current iterate to record
	// beside the objective (e.g. a primal residual), after every accepted
	// iteration and not counted in its time. Nil: none recorded.
	Diagnostics func() []Term

	// Converged overrides Stopping.Converged, the test between two
	// consecutive evaluated objectives (prev is NaN at the first). Nil: the
	// relative-change test of Stopping.
	Converged func(prev, cur float64) bool
}

// NonFiniteError reports a NaN or ±Inf computed by a step. The driver turns
// it into Status NumericalFailure with Detail "iteration i: <Error()>".
type NonFiniteError struct {
	Step string // the step that produced it, e.g. "V update"
	What string // where, e.g. "entry (document 3, topic 1) is NaN"
}

func (e *NonFiniteError) Error() string {
	if e.What == "" {
		return e.Step + ": a value is not finite"
	}
	return e.Step + ": " + e.What
}

// NonFinite returns a *NonFiniteError for the named step.
func NonFinite(step, format string, args ...any) error {
	return &NonFiniteError{Step: step, What: fmt.Sprintf(format, args...)}
}

// CheckFinite returns a *NonFiniteError of step naming the first NaN or
// Inf entry of a, the matrix called name ("V[3,1] = NaN"), or nil when
// every entry is finite: the check a family makes on each iterate it
// computes.
func CheckFinite(p *parallel.Pool, a *mat.Dense, step, name string) error {
	if r, c, bad := dense.FirstNonFinite(p, a); bad {
		return NonFinite(step, "%s[%d,%d] = %v", name, r, c, a.At(r, c))
	}
	return nil
}

// StationaryError reports that a step cannot move the iterate, e.g. a line
// search found no step that decreases the objective: the iterate is
// stationary to working precision. The driver ends the fit with Status
// Converged and Detail "iteration i: <Error()>", the iterate being the
// last accepted one.
type StationaryError struct{ What string }

func (e *StationaryError) Error() string { return e.What }

// Stationary returns a *StationaryError saying why the step cannot move.
func Stationary(format string, args ...any) error {
	return &StationaryError{What: fmt.Sprintf(format, args...)}
}

// Iterate runs a family's steps until the stopping rule, a cancellation or a
// numerical failure, recording every accepted iteration in rec (nil records
// nothing). It returns the Status of the fit:
//
//   - Converged: Converged(prev, f) held between two evaluated objectives,
//     or Step returned a *StationaryError (Detail names the iteration);
//   - IterationLimit: stop.Iterations() iterations were accepted;
//   - Cancelled: ctx was done before an iteration, or Step returned ctx.Err();
//   - NumericalFailure: Step returned a *NonFiniteError, or the objective was
//     NaN or ±Inf; Detail names the iteration and the step.
//
// Status.Iterations counts the accepted iterations and Status.Objective is
// the last evaluated objective of an accepted iterate (NaN if none). Any
// other error from Step is a programming error and panics.
func Iterate(ctx context.Context, stop Stopping, rec *Recorder, s Steps) Status {
	converged := s.Converged
	if converged == nil {
		converged = stop.Converged
	}
	maxIter := stop.Iterations()
	st := Status{Objective: math.NaN()}
	prev := math.NaN()
	for it := 1; it <= maxIter; it++ {
		if ctx.Err() != nil {
			st.Reason = Cancelled
			return st
		}
		start := time.Now()
		if err := s.Step(ctx, it); err != nil {
			var nf *NonFiniteError
			var se *StationaryError
			switch {
			case errors.As(err, &nf):
				st.Reason, st.Detail = NumericalFailure, fmt.Sprintf("iteration %d: %v", it, err)
			case errors.As(err, &se):
				st.Reason, st.Detail = Converged, fmt.Sprintf("iteration %d: %v", it, err)
			case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
				st.Reason = Cancelled
			default:
				panic(fmt.Sprintf("engine.Iterate: iteration %d: step returned %v; want nil, a *NonFiniteError, a *StationaryError or ctx.Err()", it, err))
			}
			return st
		}
		f, terms := math.NaN(), []Term(nil)
		eval := s.Objective != nil && stop.Evaluate(it)
		if eval {
			f, terms = s.Objective()
			if math.IsNaN(f) || math.IsInf(f, 0) {
				st.Reason, st.Detail = NumericalFailure, fmt.Sprintf("iteration %d: objective is %v%s", it, f, termList(terms))
				return st
			}
		}
		seconds := time.Since(start).Seconds()
		if s.Accept != nil {
			s.Accept()
		}
		record := Iteration{Iter: it, Seconds: seconds, Objective: f, Terms: terms}
		if s.Sparsity != nil {
			record.Sparsity = s.Sparsity()
		}
		if s.Diagnostics != nil {
			record.Diagnostics = s.Diagnostics()
		}
		rec.Record(record)
		st.Iterations = it
		if eval {
			st.Objective = f
			if converged(prev, f) {
				st.Reason = Converged
				return st
			}
			prev = f
		}
	}
	st.Reason = IterationLimit
	return st
}

// termList renders terms as " (name value, ...)" for a failure message.
func termList(terms []Term) string {
	if len(terms) == 0 {
		return ""
	}
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = fmt.Sprintf("%s %v", t.Name, t.Value)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
