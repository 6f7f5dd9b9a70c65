package lsi

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rsvd"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective term and factors.
const (
	// TermLoss is ‖D − U_K U_Kᵀ D‖²_F, the whole objective.
	TermLoss  = "loss"
	SparsityU = "U"
	SparsityV = "V"
)

// Fit computes the truncated SVD of the corpus's D and returns U_K, Σ_K
// and the folded-in training documents (see the package documentation).
// The SVD is one direct computation, run through engine.Iterate as a
// single step that always converges: the driver records it, checks the loss
// and observes cancellation. A cancelled context gives Status Cancelled and
// no model (there is no iterate before the SVD). When the SVD or its loss
// is not finite — the data's scale overflows float64, e.g. entries of 1e200
// whose squares do — Fit returns an error naming the step, since no finite
// model exists to return.
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, ro, err := engine.Prepare(c, "lsi", o.resolve)
	if err != nil {
		return nil, engine.Status{}, err
	}
	largest := 0.0
	for q, v := range c.D.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			w, d := c.D.Locate(q)
			return nil, engine.Status{}, fmt.Errorf("lsi: D[%d,%d] = %v, want a finite weight", w, d, v)
		}
		largest = math.Max(largest, math.Abs(v))
	}
	f := &fit{pool: ro.Pool, d: c.D, dt: dt, opts: ro}
	st := engine.Iterate(ctx, engine.Stopping{MaxIter: 1}, rec, engine.Steps{
		Step:      f.step,
		Objective: f.objective,
		Accept:    f.accept,
		Sparsity:  f.sparsity,
		Converged: func(_, _ float64) bool { return true },
	})
	if st.Reason == engine.NumericalFailure {
		return nil, st, fmt.Errorf("lsi: no finite truncated SVD (largest |D_ij| = %g; does the data's scale overflow float64?): %s", largest, st.Detail)
	}
	if f.model == nil {
		return nil, st, nil // cancelled before the SVD ended
	}
	f.model.used = Options{K: ro.K, Oversample: ro.Oversample, PowerIters: max(ro.PowerIters, 0), Seed: ro.Seed}
	return f.model, st, nil
}

// fit is the single step of an LSI fit: the candidate model and the
// product DᵀU_K it shares with the loss.
type fit struct {
	pool  *parallel.Pool
	d, dt *sparse.CSR
	opts  rsvd.Options
	cand  *Model
	dtu   *mat.Dense // DᵀU_K of the candidate, N×K
	model *Model     // the accepted model
}

// step computes the truncated SVD and the training documents' fold-in.
func (f *fit) step(ctx context.Context, _ int) error {
	res, err := rsvd.SVD(ctx, f.d, f.dt, f.opts)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return ctx.Err()
		}
		return engine.NonFinite("randomized SVD", "%v", err)
	}
	m := newModel(res, f.pool)
	// (VΣ)ᵀ-layout product DᵀU, shared by DocTopics and the loss.
	f.dtu = mat.NewDense(f.d.Cols, f.opts.K, nil)
	sparse.MulDense(f.pool, f.dtu, f.dt, m.u)
	m.v = mat.NewDense(f.d.Cols, f.opts.K, nil)
	m.scale(m.v, f.dtu)
	if err := engine.CheckFinite(f.pool, m.v, "fold-in of the training documents", "DocTopics"); err != nil {
		return err
	}
	f.cand = m
	return nil
}

// objective is the loss ‖D − U_K U_Kᵀ D‖²_F of the candidate.
func (f *fit) objective() (float64, []engine.Term) {
	loss := sparse.ResidualSq(f.pool, f.d, f.cand.u, f.dtu)
	return loss, []engine.Term{{Name: TermLoss, Value: loss}}
}

func (f *fit) accept() { f.model = f.cand }

func (f *fit) sparsity() []engine.Term {
	return []engine.Term{{Name: SparsityU, Value: dense.ZeroFraction(f.pool, f.model.u)},
		{Name: SparsityV, Value: dense.ZeroFraction(f.pool, f.model.v)}}
}

// Model is a fitted LSI model. It implements engine.Model.
type Model struct {
	u     *mat.Dense // U_K, M×K
	sigma []float64  // σ_1 ≥ … ≥ σ_K
	inv   []float64  // 1/σ_k, or 0 below the numerical-rank cutoff
	v     *mat.Dense // folded-in training documents, N×K
	pool  *parallel.Pool
	used  Options // the options as used (Save)
}

func newModel(res *rsvd.Result, pool *parallel.Pool) *Model {
	m, _ := res.U.Dims()
	n, _ := res.V.Dims()
	mod := &Model{u: res.U, sigma: res.S, inv: make([]float64, len(res.S)), pool: pool}
	if len(res.S) > 0 {
		cut := float64(max(m, n)) * 0x1p-52 * res.S[0]
		for k, s := range res.S {
			if s > cut {
				mod.inv[k] = 1 / s
			}
		}
	}
	return mod
}

// scale sets dst[i,k] = src[i,k]·inv[k] (src = X U_K gives X U_K Σ_K⁺).
func (m *Model) scale(dst, src *mat.Dense) {
	r, k := src.Dims()
	sr, dr := src.RawMatrix(), dst.RawMatrix()
	inv := m.inv[:k]
	m.pool.For(r, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			in := sr.Data[i*sr.Stride : i*sr.Stride+k]
			out := dr.Data[i*dr.Stride : i*dr.Stride+k]
			in = in[:len(out)]
			for j := range out {
				out[j] = in[j] * inv[j]
			}
		}
	})
}

// TermTopics is U_K (M×K), the left singular vectors. It is the model's own
// matrix, not a copy.
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is the fold-in of the training documents, row n =
// (Σ_K⁻¹ U_Kᵀ d_n)ᵀ ≈ row n of V_K (N×K). It is the model's own matrix, not
// a copy.
func (m *Model) DocTopics() *mat.Dense { return m.v }

// SingularValues returns σ_1 ≥ … ≥ σ_K (a copy).
func (m *Model) SingularValues() []float64 { return append([]float64(nil), m.sigma...) }

// FoldIn returns q̂ = Σ_K⁻¹ U_Kᵀ q for every row q of X (n × M, weighted
// like the training D), as an n×K matrix; see the package documentation.
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	nTerms, k := m.u.Dims()
	if err := engine.CheckFoldIn(ctx, "lsi", x, nTerms, engine.Finite); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	xu := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(m.pool, xu, x, m.u)
	out := mat.NewDense(x.Rows, k, nil)
	m.scale(out, xu)
	return out, nil
}
