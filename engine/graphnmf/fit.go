package graphnmf

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/buildcache"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective terms and factors.
const (
	TermLoss  = "loss"               // ‖D − UVᵀ‖²_F
	TermGraph = "lambda*tr(V^T L V)" // λ·Tr(VᵀLV)
	SparsityU = "U"
	SparsityV = "V"
)

// Fit builds the document graph and runs the multiplicative updates of
// Cai et al. (package doc), V then U, through engine.Iterate; at the end it
// normalizes the columns of U (unless NoNormalize). The graph build is not
// part of iteration 1 (Model.GraphSeconds). Cancellation gives Status
// Cancelled with the last complete iterate; a NaN/Inf gives
// NumericalFailure naming the step, with the last finite iterate; a
// non-finite start (data whose scale overflows) is an error.
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, o, err := engine.Prepare(c, "graphnmf", o.resolve)
	if err == nil {
		err = c.CheckNonNegative("graphnmf")
	}
	if err != nil {
		return nil, engine.Status{}, err
	}
	p, k, m, n, lambda := o.Pool, o.K, c.Terms(), c.Docs(), o.Lambda
	begin := time.Now()
	w := sharedGraph(p, dt, o.Neighbors, o.Weighting, o.Sigma)
	deg := make([]float64, n)
	for i := 0; i < n; i++ {
		_, vals := w.Row(i)
		for _, x := range vals {
			deg[i] += x
		}
	}
	model := &Model{opts: o, w: w, graphSeconds: time.Since(begin).Seconds()}

	u, v := initFactors(c, o)
	if err := solve.FiniteStart(p, []string{"U", "V"}, u, v); err != nil {
		return nil, engine.Status{}, fmt.Errorf("graphnmf: initialization: %w", err)
	}
	un, vn := mat.NewDense(m, k, nil), mat.NewDense(n, k, nil)
	gu, gv, gn := mat.NewDense(k, k, nil), mat.NewDense(k, k, nil), mat.NewDense(k, k, nil)
	dtu, vg, wv, wvn := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil), mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	dv, ug := mat.NewDense(m, k, nil), mat.NewDense(m, k, nil)
	dense.Gram(p, gu, u)
	sparse.MulDense(p, wv, w, v)
	normD2 := sparse.FrobeniusSq(p, c.D)

	// The candidate (un, vn) with gn = unᵀun and wvn = W·vn; (u, v) stay
	// until accepted.
	step := func(context.Context, int) error {
		// V ← V ∘ (DᵀU + λWV + ε) ⊘ (V·UᵀU + λ·diag(d)·V + ε)
		sparse.MulDense(p, dtu, dt, u)
		dense.MulSmall(p, vg, v, gu)
		updateV(p, vn, v, dtu, vg, wv, deg, lambda)
		if err := engine.CheckFinite(p, vn, "V update", "V"); err != nil {
			return err
		}
		// U ← U ∘ (DV + ε) ⊘ (U·VᵀV + ε), with the new V.
		dense.Gram(p, gv, vn)
		sparse.MulDense(p, dv, c.D, vn)
		dense.MulSmall(p, ug, u, gv)
		solve.MultiplicativeStep(p, un, u, dv, ug, 0, Eps) // Cai et al. 2011, eq. 13
		if err := engine.CheckFinite(p, un, "U update", "U"); err != nil {
			return err
		}
		dense.Gram(p, gn, un)
		sparse.MulDense(p, wvn, w, vn)
		return nil
	}
	objective := func() (float64, []engine.Term) {
		loss := sparse.ResidualSqParts(p, normD2, un, dv, gn, gv)
		graph := lambda * laplacianForm(p, vn, wvn, deg)
		return loss + graph, []engine.Term{{Name: TermLoss, Value: loss}, {Name: TermGraph, Value: graph}}
	}
	accept := func() {
		u, un = un, u
		v, vn = vn, v
		gu, gn = gn, gu
		wv, wvn = wvn, wv
	}
	sparsity := func() []engine.Term {
		return []engine.Term{{Name: SparsityU, Value: dense.ZeroFraction(p, u)}, {Name: SparsityV, Value: dense.ZeroFraction(p, v)}}
	}
	st := engine.Iterate(ctx, o.Stopping, rec, engine.Steps{Step: step, Objective: objective, Accept: accept, Sparsity: sparsity})
	if !o.NoNormalize {
		normalize(u, v)
	}
	model.u, model.v = u, v
	return model, st, nil
}

// lastGraph is the graph of the last corpus and graph parameters a Fit
// built one for: the fits of a sweep over K, λ or seeds on one corpus
// share it (engine/internal/buildcache; the key is the corpus's content).
var lastGraph buildcache.Last[*sparse.CSR]

// sharedGraph is Graph(pool, x, p, w, sigma), built once for consecutive
// fits on equal inputs. The result is shared: never modify it.
func sharedGraph(pool *parallel.Pool, x *sparse.CSR, p int, w Weighting, sigma float64) *sparse.CSR {
	key := buildcache.KeyOf(x, "graphnmf.Graph", "neighbors="+strconv.Itoa(p), "weighting="+w.String(), "sigma="+strconv.FormatFloat(sigma, 'g', -1, 64))
	g, _ := lastGraph.Get(key, func() (*sparse.CSR, error) { return Graph(pool, x, p, w, sigma), nil }, buildcache.CSRBytes)
	return g
}

// initFactors: U0, V0 copied, or engine/solve's RandomStart
// (scikit-learn's random rule, as engine/nmf).
func initFactors(c *engine.Corpus, o Options) (u, v *mat.Dense) {
	if o.U0 != nil {
		return mat.DenseCopyOf(o.U0), mat.DenseCopyOf(o.V0)
	}
	return solve.RandomStart(c.D, o.K, o.Seed)
}

// updateV sets dst = V ∘ (DᵀU + λWV + ε) ⊘ (V·UᵀU + λ·d∘V + ε) (Cai et al.
// 2011, eq. 14 in our layout), in fixed row blocks.
func updateV(p *parallel.Pool, dst, v, dtu, vg, wv *mat.Dense, deg []float64, lambda float64) {
	n, k := v.Dims()
	d, vr, a, b, c := dst.RawMatrix(), v.RawMatrix(), dtu.RawMatrix(), vg.RawMatrix(), wv.RawMatrix()
	p.For(n, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := d.Data[i*d.Stride : i*d.Stride+k]
			x := vr.Data[i*vr.Stride : i*vr.Stride+k]
			num := a.Data[i*a.Stride : i*a.Stride+k]
			den := b.Data[i*b.Stride : i*b.Stride+k]
			nb := c.Data[i*c.Stride : i*c.Stride+k]
			for j := range out {
				out[j] = x[j] * ((num[j] + lambda*nb[j] + Eps) / (den[j] + lambda*deg[i]*x[j] + Eps))
			}
		}
	})
}

// laplacianForm is Tr(VᵀLV) = Σ_j d_j‖v_j‖² − ⟨V, WV⟩ for L = diag(d) − W,
// compensated in fixed blocks.
func laplacianForm(p *parallel.Pool, v, wv *mat.Dense, deg []float64) float64 {
	n, k := v.Dims()
	vr := v.RawMatrix()
	part := make([]dense.Sum, parallel.Blocks(n, dense.RowBlock))
	p.For(n, dense.RowBlock, func(b, lo, hi int) {
		var s dense.Sum
		for i := lo; i < hi; i++ {
			for _, x := range vr.Data[i*vr.Stride : i*vr.Stride+k] {
				s.Add(deg[i] * x * x)
			}
		}
		part[b] = s
	})
	var tot dense.Sum
	for _, s := range part {
		tot.AddSum(s)
	}
	return tot.Value() - dense.Dot(p, v, wv)
}

// normalize scales column k of U to unit Euclidean norm and column k of V
// by that norm (UVᵀ unchanged); zero columns stay.
func normalize(u, v *mat.Dense) {
	m, k := u.Dims()
	n, _ := v.Dims()
	for a := 0; a < k; a++ {
		ss := 0.0
		for i := 0; i < m; i++ {
			ss += u.At(i, a) * u.At(i, a)
		}
		if ss == 0 {
			continue
		}
		norm := math.Sqrt(ss)
		for i := 0; i < m; i++ {
			u.Set(i, a, u.At(i, a)/norm)
		}
		for i := 0; i < n; i++ {
			v.Set(i, a, v.At(i, a)*norm)
		}
	}
}
