package graphnmf

import (
	"context"

	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted graph-regularized NMF. It implements engine.Model.
type Model struct {
	opts         Options
	u, v         *mat.Dense
	w            *sparse.CSR
	graphSeconds float64
}

// TermTopics is U (M×K), the model's own matrix (columns of unit norm
// unless NoNormalize).
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is V (N×K), the model's own matrix.
func (m *Model) DocTopics() *mat.Dense { return m.v }

// Graph is the document graph W the fit used, shared with the other fits
// on the same corpus and graph parameters: never modify it.
func (m *Model) Graph() *sparse.CSR { return m.w }

// GraphSeconds is the time spent building the graph, or finding it built
// by the previous fit on the same corpus and graph parameters.
func (m *Model) GraphSeconds() float64 { return m.graphSeconds }

// FoldIn represents each row x of X (n×M): a new document has no edge in
// the training graph, so its graph term vanishes and its representation
// solves the V subproblem min_{v≥0} ‖x − Uv‖² with the fit's (final) U, by
// the fit's V update with λ = 0, v ← v ∘ (Uᵀx + ε) ⊘ (UᵀU·v + ε), from every
// entry sqrt(mean(x)/K), with the fit's Stopping applied to the document's
// own loss: exactly engine/nmf's fold-in, the shared solver
// solve.MultiplicativeRows. An empty row gives v = 0. Cai et al. define no
// fold-in; this is the reading consistent with their objective.
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	return solve.MultiplicativeRows(ctx, m.opts.Pool, "graphnmf", m.u, x, m.opts.Stopping, Eps)
}
