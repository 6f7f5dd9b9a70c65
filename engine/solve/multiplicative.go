package solve

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// MultiplicativeRows returns the representations (n×K) of the rows of X
// (n×M, non-negative weights over U's M terms) for a fixed non-negative U
// (M×K): for each row x it minimizes
//
//	‖x − U v‖² over v ≥ 0
//
// by the V update of Lee & Seung's NMF with U fixed (Multiplicative), the
// fold-in of NMF and of the families whose fold-in is this same
// sub-problem (graph-regularized NMF, whose graph term vanishes for a new
// document). Each row starts at sqrt(mean(x)/K), the mean over the M
// entries of x (scikit-learn's NMF.transform start taken per row, so a
// row's result does not depend on the other rows), and stops by stop
// applied to its own loss. An empty row gives v = 0. eps is the ε of the
// guarded update.
//
// X with the wrong number of columns, or with a negative or non-finite
// value, is an error naming the entry (engine.CheckFoldIn; who names the
// model); a cancelled ctx returns ctx.Err().
// Rows run in parallel in fixed blocks, each on its own: the same bits for
// any number of workers.
func MultiplicativeRows(ctx context.Context, p *parallel.Pool, who string, u *mat.Dense, x *sparse.CSR, stop engine.Stopping, eps float64) (*mat.Dense, error) {
	mt, k := u.Dims()
	if err := engine.CheckFoldIn(ctx, who, x, mt, nil); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	g := mat.NewDense(k, k, nil)
	dense.Gram(p, g, u)
	xu := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(p, xu, x, u)
	gd, xud := g.RawMatrix().Data, xu.RawMatrix().Data
	out, err := FoldRows(ctx, p, x, k, sparse.RowBlock, func() RowFolder {
		den := make([]float64, k)
		return func(r int, v []float64, _ []int32, vals []float64) {
			var s1, s2 dense.Sum
			for _, val := range vals {
				s1.Add(val)
				s2.Add(val * val)
			}
			Multiplicative(ctx, v, xud[r*k:(r+1)*k], gd, den, s2.Value(),
				math.Sqrt(s1.Value()/(float64(mt)*float64(k))), eps, stop)
		}
	})
	if err != nil {
		return nil, err
	}
	if r, c, bad := dense.FirstNonFinite(p, out); bad {
		return nil, fmt.Errorf("%s: FoldIn: document %d, topic %d: the update produced a non-finite value", who, r, c)
	}
	return out, nil
}

// Multiplicative minimizes ‖x − Uv‖² over v ≥ 0 for one row by the
// guarded multiplicative update of Lee & Seung ("Algorithms for
// Non-negative Matrix Factorization", NIPS 2001, Theorem 1, the H update
// with W = U fixed):
//
//	v ← v ∘ (Uᵀx + ε) ⊘ ((UᵀU) v + ε),
//
// which never increases the loss. v (len K) is set to start, xu = Uᵀx,
// g = UᵀU (K×K row-major), x2 = ‖x‖², den is scratch (len K). The loss
// ‖x‖² − 2vᵀUᵀx + vᵀ(UᵀU)v (compensated, clamped at 0) is tested with stop
// at the iterations stop.Evaluate selects, and the loop ends early once ctx
// is cancelled (engine.Stopping.Loop); it returns the loss at the
// final v.
func Multiplicative(ctx context.Context, v, xu, g, den []float64, x2, start, eps float64, stop engine.Stopping) float64 {
	for j := range v {
		v[j] = start
	}
	MulSym(den, g, v)
	loss := func() float64 {
		var s dense.Sum
		s.Add(x2)
		for j := range v {
			s.Add(-2 * v[j] * xu[j])
			s.Add(v[j] * den[j])
		}
		return math.Max(s.Value(), 0)
	}
	stop.Loop(ctx, func(int) {
		for j := range v {
			v[j] *= (xu[j] + eps) / (den[j] + eps)
		}
		MulSym(den, g, v) // (UᵀU)v for the loss and the next update
	}, loss)
	return loss()
}

// MulSym sets dst = g·v for the symmetric K×K g (row-major, K = len(v)),
// each entry a plain sum in column order.
func MulSym(dst, g, v []float64) {
	k := len(v)
	for j := 0; j < k; j++ {
		row := g[j*k : j*k+k]
		acc := 0.0
		for i, vi := range v {
			acc += row[i] * vi
		}
		dst[j] = acc
	}
}

// MultiplicativeStep sets dst = x ∘ (num + ε) ⊘ (den + λx + ε) entrywise,
// in fixed blocks of dense.RowBlock rows: the guarded multiplicative update
// of a factor x of Euclidean NMF, num and den being the positive and
// negative parts of its gradient, with an ℓ2 penalty λ‖x‖²_F (NMF_E, Yan et
// al. SDM 2013 §5.2; with λ = 0, Lee & Seung's update as graph-regularized
// NMF updates U, Cai et al. TPAMI 2011 eq. 13).
func MultiplicativeStep(p *parallel.Pool, dst, x, num, den *mat.Dense, lambda, eps float64) {
	r, k := x.Dims()
	d, c, nu, de := dst.RawMatrix(), x.RawMatrix(), num.RawMatrix(), den.RawMatrix()
	p.For(r, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := d.Data[i*d.Stride : i*d.Stride+k]
			xs := c.Data[i*c.Stride : i*c.Stride+k]
			a := nu.Data[i*nu.Stride : i*nu.Stride+k]
			b := de.Data[i*de.Stride : i*de.Stride+k]
			for j := range out {
				out[j] = xs[j] * ((a[j] + eps) / (b[j] + lambda*xs[j] + eps))
			}
		}
	})
}
