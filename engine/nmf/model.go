package nmf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
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
// which never increases that loss.
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
	return FoldIn(ctx, m.opts.Pool, m.u, x, m.opts.Stopping)
}

// FoldIn is Model.FoldIn for any fixed non-negative U (M×K): the
// representations of the rows of X by the V update of Lee & Seung with U
// fixed, started and stopped as Model.FoldIn documents. Families whose
// fold-in is this same subproblem (graph-regularized NMF, whose graph term
// vanishes for a new document) call it with their own U. A nil pool means
// parallel.Default().
func FoldIn(ctx context.Context, p *parallel.Pool, u *mat.Dense, x *sparse.CSR, stop engine.Stopping) (*mat.Dense, error) {
	if x == nil {
		return nil, errors.New("nmf: FoldIn: nil matrix")
	}
	mt, k := u.Dims()
	if x.Cols != mt {
		return nil, fmt.Errorf("nmf: FoldIn: documents have %d terms, the model has %d", x.Cols, mt)
	}
	for q, val := range x.Val {
		if val < 0 || math.IsNaN(val) || math.IsInf(val, 0) {
			r, c := x.Locate(q)
			return nil, fmt.Errorf("nmf: FoldIn: X[%d,%d] = %v, want finite and non-negative", r, c, val)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	g := mat.NewDense(k, k, nil)
	dense.Gram(p, g, u)
	xu := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(p, xu, x, u)
	out := mat.NewDense(x.Rows, k, nil)
	gd, xud, od := g.RawMatrix().Data, xu.RawMatrix().Data, out.RawMatrix().Data
	var cancelled atomic.Bool
	p.For(x.Rows, sparse.RowBlock, func(_, lo, hi int) {
		den := make([]float64, k)
		for r := lo; r < hi; r++ {
			if cancelled.Load() || ctx.Err() != nil {
				cancelled.Store(true)
				return
			}
			_, vals := x.Row(r)
			var s1, s2 dense.Sum
			for _, val := range vals {
				s1.Add(val)
				s2.Add(val * val)
			}
			foldRow(od[r*k:(r+1)*k], xud[r*k:(r+1)*k], gd, den, s2.Value(),
				math.Sqrt(s1.Value()/(float64(mt)*float64(k))), stop)
		}
	})
	if cancelled.Load() {
		return nil, ctx.Err()
	}
	if r, c, bad := dense.FirstNonFinite(p, out); bad {
		return nil, fmt.Errorf("nmf: FoldIn: document %d, topic %d: the update produced a non-finite value", r, c)
	}
	return out, nil
}

// foldRow runs the V update for one document: v (len K) starts at start,
// xu = Uᵀx, g = UᵀU (K×K row-major), x2 = ‖x‖², den is scratch.
func foldRow(v, xu, g, den []float64, x2, start float64, stop engine.Stopping) {
	k := len(v)
	for j := range v {
		v[j] = start
	}
	mulVecSym(den, v, g)
	prev := math.NaN()
	for t := 1; t <= stop.Iterations(); t++ {
		for j := range v {
			v[j] *= (xu[j] + Eps) / (den[j] + Eps)
		}
		mulVecSym(den, v, g) // (UᵀU)v for the loss and the next update
		if !stop.Evaluate(t) {
			continue
		}
		var s dense.Sum
		s.Add(x2)
		for j := 0; j < k; j++ {
			s.Add(-2 * v[j] * xu[j])
			s.Add(v[j] * den[j])
		}
		f := math.Max(s.Value(), 0)
		if stop.Converged(prev, f) {
			return
		}
		prev = f
	}
}

// mulVecSym sets dst = g·v for the symmetric k×k g (row-major).
func mulVecSym(dst, v, g []float64) {
	k := len(v)
	for j := 0; j < k; j++ {
		row := g[j*k : j*k+k]
		row = row[:len(v)]
		acc := 0.0
		for i, vi := range v {
			acc += row[i] * vi
		}
		dst[j] = acc
	}
}
