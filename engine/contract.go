package engine

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Method is a model family with its options set: it fits a Corpus.
// Every family's Options type implements Method; its tagged fields are the
// family's parameters (engine/param) and the package's Defaults returns
// them at their declared defaults.
//
// Fit returns an error only for invalid input (bad options, K larger than
// the data allows, a malformed corpus). Not converging is reported through
// Status, never as an error; a cancelled context gives Status Cancelled and
// the model as it stood after the last complete iteration.
type Method interface {
	// Name is the family's registry name, e.g. "nmf" or "rlsi".
	Name() string
	Fit(ctx context.Context, c *Corpus, rec *Recorder) (Model, Status, error)
}

// Model is a fitted factorization.
type Model interface {
	// TermTopics is U, M×K: column k holds topic k's term weights.
	TermTopics() *mat.Dense
	// DocTopics is Vᵀ, N×K: row n is training document n's representation.
	DocTopics() *mat.Dense
	// FoldIn returns the representations (n×K) of new documents given as
	// the rows of X (n × M, weighted over the training vocabulary), as the
	// family's paper defines folding-in.
	FoldIn(ctx context.Context, X *sparse.CSR) (*mat.Dense, error)
}

// StopReason says why a fit ended.
type StopReason int

const (
	// Converged: the relative change of the objective fell below the tolerance.
	Converged StopReason = iota + 1
	// IterationLimit: the maximum number of iterations was reached.
	IterationLimit
	// Cancelled: the context was cancelled; the model is the last complete iterate.
	Cancelled
	// NumericalFailure: a NaN or Inf appeared; Status.Detail names the step.
	NumericalFailure
)

func (r StopReason) String() string {
	switch r {
	case Converged:
		return "converged"
	case IterationLimit:
		return "iteration limit"
	case Cancelled:
		return "cancelled"
	case NumericalFailure:
		return "numerical failure"
	}
	return fmt.Sprintf("StopReason(%d)", int(r))
}

// Status is the outcome of a fit.
type Status struct {
	Reason     StopReason
	Iterations int     // completed iterations
	Objective  float64 // objective after the last evaluated iteration
	Detail     string  // e.g. the step that produced a NaN
}

func (s Status) String() string {
	out := fmt.Sprintf("%s after %d iterations, objective %.6g", s.Reason, s.Iterations, s.Objective)
	if s.Detail != "" {
		out += ": " + s.Detail
	}
	return out
}
