package rlsi

import (
	"context"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// cdBlock is the number of rows per block of the coordinate-descent loops;
// a constant so that block boundaries never depend on the number of workers
// (rows are solved independently, so no result depends on it). Blocks of
// 256 rows keep SolveRows's sixteen lanes full for most of a block.
const cdBlock = 256

// solver holds the factors and work buffers of one fit. u and v are the
// last complete iterate (U M×K, Vᵀ N×K); uNext and vNext receive the
// iterate being computed, so a cancelled or failed iteration leaves u and v
// untouched.
type solver struct {
	set    settings
	d, dt  *sparse.CSR
	m, n   int
	u, v   *mat.Dense
	uNext  *mat.Dense
	vNext  *mat.Dense
	r      *mat.Dense // M×K, R = DVᵀ (Algorithm 2 line 2)
	phi    *mat.Dense // N×K, Φᵀ = DᵀU (Algorithm 3 line 2, stored transposed)
	sv     *mat.Dense // K×K, S = VVᵀ of v (Algorithm 2 line 1)
	svNext *mat.Dense // K×K, VVᵀ of vNext
	gu     *mat.Dense // K×K, UᵀU of uNext
	dnorm2 float64    // ‖D‖²_F
	// workU and workV count the coordinate-descent work of the last ℓ1
	// updates (for benchmarks).
	workU, workV solve.Work
	scratch      *solve.LassoPool
}

func newSolver(set settings, d, dt *sparse.CSR) *solver {
	k := set.k
	s := &solver{set: set, d: d, dt: dt, m: d.Rows, n: d.Cols,
		u: mat.NewDense(d.Rows, k, nil), uNext: mat.NewDense(d.Rows, k, nil),
		v: mat.NewDense(d.Cols, k, nil), vNext: mat.NewDense(d.Cols, k, nil),
		r: mat.NewDense(d.Rows, k, nil), phi: mat.NewDense(d.Cols, k, nil),
		sv: mat.NewDense(k, k, nil), svNext: mat.NewDense(k, k, nil), gu: mat.NewDense(k, k, nil),
		scratch: solve.NewLassoPool(k, set.pool.Workers())}
	s.dnorm2 = sparse.FrobeniusSq(set.pool, d)
	return s
}

// initV sets V⁽⁰⁾ (Algorithm 1 line 1): InitV if given, else rnd() for
// every entry in row-major order of the N×K Vᵀ (Fit passes N(0, 1) draws
// from engine.NewRand(Seed)).
func (s *solver) initV(rnd func() float64) {
	if s.set.initV != nil {
		s.v.Copy(s.set.initV)
	} else {
		raw := s.v.RawMatrix()
		for i := 0; i < s.n; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+s.set.k]
			for j := range row {
				row[j] = rnd()
			}
		}
	}
	dense.Gram(s.set.pool, s.sv, s.v)
}

// updateU computes uNext from v (Algorithm 2 for ℓ1 on U; the ridge closed
// form for ℓ2). It returns an *engine.NonFiniteError naming the step for a
// non-finite (or singular) result, and ctx.Err() if it noticed a
// cancellation.
func (s *solver) updateU(ctx context.Context) error {
	p := s.set.pool
	if f := engine.CheckFinite(p, s.sv, "UpdateU (Alg. 2 line 1): S = VVᵀ", "S"); f != nil {
		return f
	}
	sparse.MulDense(p, s.r, s.d, s.v) // R = DVᵀ
	if err := ctx.Err(); err != nil {
		return err
	}
	if f := engine.CheckFinite(p, s.r, "UpdateU (Alg. 2 line 2): R = DVᵀ", "R"); f != nil {
		return f
	}
	// U = R (S + λ1 I)⁻¹ for ℓ2.
	if err := s.regress(ctx, s.uNext, s.u, s.r, s.sv, s.set.lambda1, s.set.variant.l1U(), &s.workU, "UpdateU (ridge): (VVᵀ + λ1 I)⁻¹"); err != nil {
		return err
	}
	return engine.CheckFinite(p, s.uNext, "UpdateU", "U")
}

// updateV computes vNext from uNext (Algorithm 3 for ℓ2 on V; per-document
// lasso for ℓ1), leaving UᵀU in gu and Φᵀ = DᵀU in phi. It returns errors
// as updateU does.
func (s *solver) updateV(ctx context.Context) error {
	p := s.set.pool
	dense.Gram(p, s.gu, s.uNext)             // UᵀU
	sparse.MulDense(p, s.phi, s.dt, s.uNext) // Φᵀ = DᵀU
	if err := ctx.Err(); err != nil {
		return err
	}
	// v_n = Σ φ_n with Σ = (UᵀU + λ2 I)⁻¹ for ℓ2.
	if err := s.regress(ctx, s.vNext, s.v, s.phi, s.gu, s.set.lambda2, s.set.variant.l1V(), &s.workV, "UpdateV (Alg. 3 line 1): Σ = (UᵀU + λ2 I)⁻¹"); err != nil {
		return err
	}
	return engine.CheckFinite(p, s.vNext, "UpdateV", "Vᵀ")
}

// regress sets the rows of dst to the regularized regressions of one
// update, given the rows of rhs (R or Φᵀ) and the K×K Gram matrix g (S or
// UᵀU): with l1, the lasso rows by coordinate descent warm-started from
// prev (its work in *work); otherwise the ridge closed form dst = rhs
// (g + λ I)⁻¹, whose failure is an *engine.NonFiniteError naming
// ridgeStep. It returns ctx.Err() if it noticed a cancellation.
func (s *solver) regress(ctx context.Context, dst, prev, rhs, g *mat.Dense, lambda float64, l1 bool, work *solve.Work, ridgeStep string) error {
	if l1 {
		*work = lassoRows(ctx, s.set.pool, s.scratch, dst, prev, rhs, g, lambda, s.set.innerSweeps, s.set.innerTol, s.set.coldStart)
		return ctx.Err()
	}
	inv, err := solve.RidgeInverse(g, lambda)
	if err != nil {
		return engine.NonFinite(ridgeStep, "%v", err)
	}
	dense.MulSmall(s.set.pool, dst, rhs, inv)
	return nil
}

// lassoRows solves, for every row i of dst, min_x xᵀSx − 2 r_iᵀx + λ‖x‖₁
// by solve.Lasso (SolveRows on each block: Solve's bits, sixteen rows at a
// time where the machine has AVX-512), starting from row i of prev (or
// from zero when cold), in parallel over fixed blocks of cdBlock rows.
// Blocks that start after ctx is cancelled are skipped. dst must not alias
// r or s; it may alias prev.
func lassoRows(ctx context.Context, p *parallel.Pool, sp *solve.LassoPool, dst, prev, r, s *mat.Dense, lambda float64, sweeps int, tol float64, cold bool) solve.Work {
	n, _ := dst.Dims()
	draw, praw, rraw := dst.RawMatrix(), prev.RawMatrix(), r.RawMatrix()
	sdata := packed(s)
	work := make([]solve.Work, parallel.Blocks(n, cdBlock))
	p.For(n, cdBlock, func(b, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		ws := sp.Get()
		defer sp.Put(ws)
		rows := solve.Rows{N: hi - lo, R: rraw.Data[lo*rraw.Stride:], RStride: rraw.Stride, X: draw.Data[lo*draw.Stride:], XStride: draw.Stride}
		if !cold {
			rows.Start, rows.StartStride = praw.Data[lo*praw.Stride:], praw.Stride
		}
		work[b] = ws.SolveRows(sdata, lambda, rows, sweeps, tol)
	})
	var total solve.Work
	for _, w := range work {
		total.Add(w)
	}
	return total
}

// packed returns the K×K matrix's entries row-major with stride K.
func packed(a *mat.Dense) []float64 {
	r, c := a.Dims()
	raw := a.RawMatrix()
	if raw.Stride == c {
		return raw.Data[:r*c]
	}
	out := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		out = append(out, raw.Data[i*raw.Stride:i*raw.Stride+c]...)
	}
	return out
}
