package graphnmf

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted graph-regularized NMF. It implements engine.Model.
type Model struct {
	opts         Options
	u, v, gu     *mat.Dense
	w            *sparse.CSR
	graphSeconds float64
}

// TermTopics is U (M×K), the model's own matrix (columns of unit norm
// unless NoNormalize).
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is V (N×K), the model's own matrix.
func (m *Model) DocTopics() *mat.Dense { return m.v }

// Graph is the document graph W the fit used.
func (m *Model) Graph() *sparse.CSR { return m.w }

// GraphSeconds is the time spent building the graph.
func (m *Model) GraphSeconds() float64 { return m.graphSeconds }

// FoldIn represents each row x of X (n×M): a new document has no edge in
// the training graph, so its graph term vanishes and its representation
// solves the V subproblem min_{v≥0} ‖x − Uv‖² with the fit's (final) U, by
// the fit's V update with λ = 0, v ← v ∘ (Uᵀx + ε) ⊘ (UᵀU·v + ε), from every
// entry sqrt(mean(x)/K) (as engine/nmf), with the fit's Stopping applied
// to the document's own loss. An empty row gives v = 0. Cai et al. define
// no fold-in; this is the reading consistent with their objective.
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	mt, k := m.u.Dims()
	if x == nil {
		return nil, fmt.Errorf("graphnmf: FoldIn: nil matrix")
	}
	if x.Cols != mt {
		return nil, fmt.Errorf("graphnmf: FoldIn: X has %d columns, want the %d terms of the training vocabulary", x.Cols, mt)
	}
	for i, val := range x.Val {
		if math.IsNaN(val) || math.IsInf(val, 0) || val < 0 {
			r, c := x.Locate(i)
			return nil, fmt.Errorf("graphnmf: FoldIn: X[%d,%d] = %v, want finite and non-negative", r, c, val)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	p, stop := m.opts.Pool, m.opts.Stopping
	b := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(p, b, x, m.u)
	out := mat.NewDense(x.Rows, k, nil)
	g := m.gu.RawMatrix()
	p.For(x.Rows, 256, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		gv := make([]float64, k)
		for j := lo; j < hi; j++ {
			_, xv := x.Row(j)
			var sum, sq float64
			for _, w := range xv {
				sum += w
				sq += w * w
			}
			v := out.RawRowView(j)
			if sum == 0 {
				continue
			}
			for a := range v {
				v[a] = math.Sqrt(sum / float64(mt) / float64(k))
			}
			bj := b.RawRowView(j)
			loss := func() float64 {
				s := sq
				for a := range v {
					t := 0.0
					for c, w := range g.Data[a*g.Stride : a*g.Stride+k] {
						t += w * v[c]
					}
					gv[a] = t
					s += v[a] * (t - 2*bj[a])
				}
				return s
			}
			loss()
			prev := math.NaN()
			for t := 1; t <= stop.Iterations(); t++ {
				for a := range v {
					v[a] *= (bj[a] + Eps) / (gv[a] + Eps)
				}
				f := loss()
				if stop.Evaluate(t) {
					if stop.Converged(prev, f) {
						break
					}
					prev = f
				}
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
