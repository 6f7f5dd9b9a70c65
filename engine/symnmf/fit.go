package symnmf

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/symmetric"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective term and factor.
const (
	TermLoss  = "|A-HH^T|_F^2"
	SparsityH = "H"
)

// Fit builds A (the cosine similarities of the documents) and runs
// projected gradient descent with the Armijo rule (Step) from H⁽⁰⁾,
// recording ‖A − HHᵀ‖²_F, the time and the fraction of zeros of H after
// every iteration. Building A is not part of iteration 1
// (Model.BuildSeconds). An Armijo search that finds no step ends the fit
// with Status Converged and a Detail saying so. Cancellation gives Status
// Cancelled with the last complete H; a NaN/Inf gives NumericalFailure.
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	if c == nil || c.D == nil {
		return nil, engine.Status{}, fmt.Errorf("symnmf: nil corpus or term-document matrix")
	}
	o, err := o.resolve(c.Docs())
	if err != nil {
		return nil, engine.Status{}, err
	}
	dt := c.DT
	if dt == nil {
		dt = c.D.T()
	}
	p, k, n := o.Pool, o.K, c.Docs()
	begin := time.Now()
	a := symmetric.Cosine(p, dt, o.Storage)
	normA2 := a.FrobeniusSq(p)
	m := &Model{opts: o, density: a.Density(), buildSeconds: time.Since(begin).Seconds()}
	mean := matrixMean(p, a)

	var op multiplier = a
	if f := newFactored(dt, a.NNZ(), k); f != nil {
		op = f // A·H as Ã·(ÃᵀH): the same A, far fewer flops (factored)
	}
	cur, next := newState(n, k), newState(n, k)
	initH(cur.h, o, mean)
	cur.eval(p, op, normA2)
	grad := mat.NewDense(n, k, nil)
	st := engine.Status{Objective: cur.f}
	prev := math.NaN()
	for t := 1; t <= o.Stopping.Iterations(); t++ {
		if ctx.Err() != nil {
			st.Reason = engine.Cancelled
			break
		}
		start := time.Now()
		alpha, ok := step(p, op, normA2, cur, next, grad, o.Sigma, o.Beta)
		if !ok {
			st.Reason, st.Detail = engine.Converged, fmt.Sprintf("iteration %d: the Armijo search found no step down to α = %g", t, alpha)
			break
		}
		if r, col, bad := dense.FirstNonFinite(p, next.h); bad || math.IsNaN(next.f) || math.IsInf(next.f, 0) {
			st.Reason, st.Detail = engine.NumericalFailure, fmt.Sprintf("iteration %d: H[%d,%d] or f = %v is not finite", t, r, col, next.f)
			break
		}
		cur, next = next, cur
		st.Iterations, st.Objective = t, cur.f
		rec.Record(engine.Iteration{Iter: t, Seconds: time.Since(start).Seconds(), Objective: cur.f,
			Terms:    []engine.Term{{Name: TermLoss, Value: cur.f}},
			Sparsity: []engine.Term{{Name: SparsityH, Value: dense.ZeroFraction(p, cur.h)}}})
		if o.Stopping.Evaluate(t) {
			if o.Stopping.Converged(prev, cur.f) {
				st.Reason = engine.Converged
				break
			}
			prev = cur.f
		}
	}
	if st.Reason == 0 {
		st.Reason = engine.IterationLimit
	}
	m.finish(c, cur.h)
	return m, st, nil
}

// initH fills H⁽⁰⁾: InitH copied, or 2·sqrt(ā/K)·Uniform[0,1) entries with ā
// the mean entry of A, row by row from engine.NewRand(Seed) — the start of
// Kuang, Ding and Park's code (H = 2*full(sqrt(mean(mean(A))/k))*rand(n,k)).
func initH(h *mat.Dense, o Options, mean float64) {
	if o.InitH != nil {
		h.Copy(o.InitH)
		return
	}
	scale := 2 * math.Sqrt(mean/float64(o.K))
	if !(scale > 0) {
		scale = 1
	}
	r := engine.NewRand(o.Seed)
	raw := h.RawMatrix()
	n, k := h.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			raw.Data[i*raw.Stride+j] = scale * r.Float64()
		}
	}
}

// matrixMean is Σ_ij A_ij / N².
func matrixMean(p *parallel.Pool, a *symmetric.Matrix) float64 {
	n := a.Size()
	part := make([]dense.Sum, parallel.Blocks(n, sparse.RowBlock))
	p.For(n, sparse.RowBlock, func(b, lo, hi int) {
		var s dense.Sum
		for i := lo; i < hi; i++ {
			var row []float64
			if a.IsDense() {
				row = a.Dense().RawRowView(i)
			} else {
				_, row = a.Sparse().Row(i)
			}
			for _, x := range row {
				s.Add(x)
			}
		}
		part[b] = s
	})
	var tot dense.Sum
	for _, s := range part {
		tot.AddSum(s)
	}
	return tot.Value() / (float64(n) * float64(n))
}
