package nmf

import (
	"context"

	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted NMF: D ≈ U Vᵀ with U (M×K) and V (N×K) non-negative.
type Model struct {
	u, v *mat.Dense
	opts Options // resolved
}

// TermTopics is U (M×K): column k holds topic k's term weights.
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is V (N×K): row n is training document n's representation.
func (m *Model) DocTopics() *mat.Dense { return m.v }

// Options returns the options the model was fitted with, defaults applied.
func (m *Model) Options() Options { return m.opts }

// FoldIn returns the representations (n×K) of new documents, the rows of X
// (n × M, non-negative weights over the training vocabulary): for each row
// x it solves the V-subproblem of the fit with U fixed,
//
//	min_{v ≥ 0} ‖x − U v‖²,
//
// by the fit's V update (doc.go), v ← v ∘ (Uᵀx + ε) ⊘ ((UᵀU) v + ε),
// which never increases that loss (solve.MultiplicativeRows).
//
// Start: every entry of v is sqrt(mean(x)/K), the mean over the M entries
// of x. This is scikit-learn's NMF.transform start, sqrt(X.mean()/K), taken
// per document instead of over the batch, so that a document's
// representation does not depend on which other documents are folded in
// with it. (Since the subproblem is convex, the start only matters
// through the stopping point.) The start is deterministic, whatever Init
// the fit used.
//
// Stopping: the fit's rule (Options.Stopping: MaxIter, RelTol, EvalEvery)
// applied to each document's own loss ‖x − Uv‖² = ‖x‖² − 2vᵀUᵀx +
// vᵀ(UᵀU)v, so documents stop independently. An empty row gives v = 0.
//
// X with the wrong number of columns, or with a negative or non-finite
// value, is an error naming the entry; a cancelled ctx returns ctx.Err().
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	return solve.MultiplicativeRows(ctx, m.opts.Pool, "nmf", m.u, x, m.opts.Stopping, Eps)
}
