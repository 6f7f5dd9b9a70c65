package symnmf

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/buildcache"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
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
// recording the time and the fraction of zeros of H after every iteration
// and ‖A − HHᵀ‖²_F after every evaluated one (Stopping.EvalEvery; the
// Armijo search computes it anyway). Building A is not part of iteration 1
// (Model.BuildSeconds). An Armijo search that finds no step ends the fit
// with Status Converged and a Detail saying so (engine.Stationary). The
// loop is engine.Iterate's: cancellation gives Status Cancelled with the
// last complete H; a NaN/Inf gives NumericalFailure naming the step, with
// the last finite H; a non-finite H⁽⁰⁾ (data whose scale overflows) is an
// error, and term profiles D·H that overflow give NumericalFailure with
// TermTopics zero.
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, err := c.Transposed("symnmf")
	if err == nil {
		err = c.CheckNonNegative("symnmf")
	}
	if err != nil {
		return nil, engine.Status{}, err
	}
	o, err = o.resolve(c.Docs())
	if err != nil {
		return nil, engine.Status{}, err
	}
	p, k, n := o.Pool, o.K, c.Docs()
	begin := time.Now()
	a := sharedCosine(p, dt, o.Storage)
	normA2 := a.FrobeniusSq(p)
	m := &Model{opts: o, density: a.Density(), buildSeconds: time.Since(begin).Seconds()}
	mean := matrixMean(p, a)

	var op multiplier = a
	if f := newFactored(dt, a.NNZ(), k); f != nil {
		op = f // A·H as Ã·(ÃᵀH): the same A, far fewer flops (factored)
	}
	cur, next := newState(n, k), newState(n, k)
	initH(cur.h, o, mean)
	if err := solve.FiniteStart(p, []string{"H"}, cur.h); err != nil {
		return nil, engine.Status{}, fmt.Errorf("symnmf: initialization: %w", err)
	}
	cur.eval(p, op, normA2)
	grad := mat.NewDense(n, k, nil)
	// The candidate is next; cur stays until accepted.
	pgdStep := func(context.Context, int) error {
		alpha, ok := step(p, op, normA2, cur, next, grad, o.Sigma, o.Beta)
		if !ok {
			return engine.Stationary("the Armijo search found no step down to α = %g", alpha)
		}
		return engine.CheckFinite(p, next.h, "projected gradient step", "H")
	}
	st := engine.Iterate(ctx, o.Stopping, rec, engine.Steps{
		Step:      pgdStep,
		Objective: func() (float64, []engine.Term) { return next.f, []engine.Term{{Name: TermLoss, Value: next.f}} },
		Accept:    func() { cur, next = next, cur },
		Sparsity:  func() []engine.Term { return []engine.Term{{Name: SparsityH, Value: dense.ZeroFraction(p, cur.h)}} },
	})
	m.finish(c, cur.h)
	if r, col, bad := dense.FirstNonFinite(p, m.u); bad {
		// H is finite; its term profiles D·H overflow (the data's scale).
		st.Reason, st.Detail = engine.NumericalFailure, fmt.Sprintf("term profiles D·H: entry (term %d, cluster %d) = %v is not finite (the data's scale overflows float64)", r, col, m.u.At(r, col))
		m.u.Zero()
	}
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

// matrixMean is Σ_ij A_ij / N² (the sum in blocks of sparse.RowBlock
// rows).
func matrixMean(p *parallel.Pool, a *symmetric.Matrix) float64 {
	n := a.Size()
	return a.Sum(p, sparse.RowBlock) / (float64(n) * float64(n))
}

// lastCosine is the document cosine matrix A of the last corpus and
// storage a Fit built one for: the fits of a sweep over K or seeds on one
// corpus share it (engine/internal/buildcache; the key is the corpus's
// content).
var lastCosine buildcache.Last[*symmetric.Matrix]

// sharedCosine is symmetric.Cosine(p, dt, storage), built once for
// consecutive fits on equal inputs. The result is shared: never modify it.
func sharedCosine(p *parallel.Pool, dt *sparse.CSR, storage symmetric.Storage) *symmetric.Matrix {
	key := buildcache.KeyOf(dt, "symmetric.Cosine", "storage="+storage.String())
	a, _ := lastCosine.Get(key, func() (*symmetric.Matrix, error) { return symmetric.Cosine(p, dt, storage), nil }, matrixBytes)
	return a
}

// matrixBytes is the memory of a's storage: 8·n² bytes dense, its arrays
// sparse.
func matrixBytes(a *symmetric.Matrix) int64 {
	if a.IsDense() {
		return 8 * int64(a.Size()) * int64(a.Size())
	}
	return buildcache.CSRBytes(a.Sparse())
}
