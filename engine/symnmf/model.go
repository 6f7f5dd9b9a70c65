package symnmf

import (
	"context"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/symmetric"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted SymNMF. It implements engine.Model.
type Model struct {
	opts         Options
	density      float64
	h            *mat.Dense // H (N×K)
	u            *mat.Dense // D·H (M×K)
	p            *mat.Dense // D̃·H (M×K), D̃ with unit document columns
	g            *mat.Dense // HᵀH
	buildSeconds float64
}

// finish derives what the model offers besides H.
func (m *Model) finish(c *engine.Corpus, h *mat.Dense) {
	pool, k := m.opts.Pool, m.opts.K
	m.h = h
	m.u = mat.NewDense(c.Terms(), k, nil)
	sparse.MulDense(pool, m.u, c.D, h)
	dt := c.DT
	if dt == nil {
		dt = c.D.T()
	}
	m.p = mat.NewDense(c.Terms(), k, nil)
	sparse.MulDense(pool, m.p, symmetric.NormalizeRows(nil, dt).T(), h)
	m.g = mat.NewDense(k, k, nil)
	dense.Gram(pool, m.g, h)
}

// DocTopics is H (N×K): row n is document n's cluster membership. The
// model's own matrix.
func (m *Model) DocTopics() *mat.Dense { return m.h }

// TermTopics is D·H (M×K): SymNMF learns no term-topic matrix (the TNMF
// paper, Section 5.3, leaves it out of its topic table for that reason);
// column k is the membership-weighted sum of the documents,
// u_k = Σ_n h_nk·x_n, a term profile of cluster k for display.
func (m *Model) TermTopics() *mat.Dense { return m.u }

// Density is the density of the similarity matrix A the fit used.
func (m *Model) Density() float64 { return m.density }

// BuildSeconds is the time spent building A, or finding it built by the
// previous fit on the same corpus and storage.
func (m *Model) BuildSeconds() float64 { return m.buildSeconds }

// Clusters assigns every training document to its cluster (Assign of H).
func (m *Model) Clusters() []int { return Assign(m.h) }

// Assign returns, for every row of H, the index of its largest entry — the
// cluster assignment of Kuang, Ding and Park (2012): "the largest entry in
// the i-th row of H" — ties to the smallest index, and −1 for a row with no
// positive entry (a document SymNMF left unassigned, e.g. one with no term).
func Assign(h *mat.Dense) []int {
	n, k := h.Dims()
	out := make([]int, n)
	for i := 0; i < n; i++ {
		best, arg := 0.0, -1
		for j := 0; j < k; j++ {
			if x := h.At(i, j); x > best {
				best, arg = x, j
			}
		}
		out[i] = arg
	}
	return out
}

// FoldIn represents each row x of X (n×M, weighted like D) by extending
// the factorization with H fixed: its similarities to the training
// documents a = (cos(x, x_1), …, cos(x, x_N)) form a new row and column of
// A ≈ HHᵀ, whose best non-negative fit is
//
//	h = argmin_{h≥0} ‖a − H·h‖²,
//
// solved by cyclic coordinate descent from h = 0 (exact minimization along
// each coordinate, so the objective never increases) on HᵀH and Hᵀa =
// (x̃ᵀD̃)·H, for at most Stopping's MaxIter sweeps, stopping when a sweep
// lowers hᵀHᵀHh − 2hᵀHᵀa by at most RelTol times its magnitude. SymNMF
// itself defines no fold-in; this is the reading consistent with its
// objective. A training document's a is its row of A (cos(x_n, x_n) = 1
// included).
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	mt, k := m.u.Dims()
	if err := engine.CheckFoldIn(ctx, "symnmf", x, mt, nil); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	pool, stop := m.opts.Pool, m.opts.Stopping
	b := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(pool, b, symmetric.NormalizeRows(nil, x), m.p)
	out := mat.NewDense(x.Rows, k, nil)
	g := m.g.RawMatrix()
	tol := stop.Tol()
	pool.For(x.Rows, 256, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		gh := make([]float64, k)
		for j := lo; j < hi; j++ {
			h, bj := out.RawRowView(j), b.RawRowView(j)
			clear(gh)
			f := func() float64 {
				s := 0.0
				for a := range h {
					s += h[a] * (gh[a] - 2*bj[a])
				}
				return s
			}
			prev := f()
			for sw := 0; sw < stop.Iterations(); sw++ {
				solve.NonNegSweep(h, gh, bj, g.Data, g.Stride)
				cur := f()
				if tol > 0 && prev-cur <= tol*math.Abs(prev) {
					break
				}
				prev = cur
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
