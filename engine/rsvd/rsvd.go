package rsvd

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// Defaults used where an Options field is zero.
const (
	// DefaultOversample is p, the extra columns of the sketch (Halko et al.
	// §4.2 recommend p = 5 or 10).
	DefaultOversample = 10
	// DefaultPowerIters is q, the number of power (subspace) iterations;
	// scikit-learn's randomized_svd uses 4 (7 when K < 0.1·min(M, N)).
	DefaultPowerIters = 4
)

// Options configures SVD. The zero value is valid except for K.
type Options struct {
	// K is the number of singular triplets wanted, 1 ≤ K ≤ min(M, N).
	K int
	// Oversample is p; 0 means DefaultOversample, negative is an error.
	// The sketch has l = min(K + p, M, N) columns.
	Oversample int
	// PowerIters is q; 0 means DefaultPowerIters, a negative value means no
	// power iteration (the plain range finder, Halko Alg. 4.1).
	PowerIters int
	// Seed seeds the Gaussian test matrix Ω.
	Seed uint64
	// Pool runs the sparse × dense products; nil means parallel.Default().
	Pool *parallel.Pool
}

// Result is a truncated SVD A ≈ U·diag(S)·Vᵀ.
type Result struct {
	U *mat.Dense // M×K, orthonormal columns
	S []float64  // K singular values, non-increasing
	V *mat.Dense // N×K, orthonormal columns
}

// SVD returns the leading K singular triplets of the sparse matrix a
// (M×N), given also its transpose at (N×M; nil computes it). It returns an
// error for an invalid K or Oversample, for an empty matrix, or when ctx is
// cancelled (checked between products).
func SVD(ctx context.Context, a, at *sparse.CSR, o Options) (*Result, error) {
	m, n := a.Rows, a.Cols
	if o.K < 1 {
		return nil, fmt.Errorf("rsvd: K = %d, want ≥ 1", o.K)
	}
	if m == 0 || n == 0 {
		return nil, fmt.Errorf("rsvd: empty %d×%d matrix", m, n)
	}
	if o.K > min(m, n) {
		return nil, fmt.Errorf("rsvd: K = %d exceeds min(M, N) = min(%d, %d)", o.K, m, n)
	}
	if o.Oversample < 0 {
		return nil, fmt.Errorf("rsvd: Oversample = %d, want ≥ 0", o.Oversample)
	}
	if at == nil {
		at = a.T()
	}
	if at.Rows != n || at.Cols != m {
		return nil, fmt.Errorf("rsvd: transpose is %d×%d, want %d×%d", at.Rows, at.Cols, n, m)
	}
	p := o.Oversample
	if p == 0 {
		p = DefaultOversample
	}
	q := o.PowerIters
	switch {
	case q == 0:
		q = DefaultPowerIters
	case q < 0:
		q = 0
	}
	l := min(o.K+p, m, n)
	pool := o.Pool

	// Gaussian test matrix, filled row by row from one stream.
	rng := engine.NewRand(o.Seed)
	omega := mat.NewDense(n, l, nil)
	for i, raw := 0, omega.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = rng.NormFloat64()
	}

	y := mat.NewDense(m, l, nil) // M×l
	z := mat.NewDense(n, l, nil) // N×l
	sparse.MulDense(pool, y, a, omega)
	if err := orth(y); err != nil {
		return nil, err
	}
	for it := 0; it < q; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sparse.MulDense(pool, z, at, y)
		if err := orth(z); err != nil {
			return nil, err
		}
		sparse.MulDense(pool, y, a, z)
		if err := orth(y); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Bᵀ = AᵀQ (N×l), then Bᵀ = Q₂R.
	sparse.MulDense(pool, z, at, y)
	r, err := qr(z)
	if err != nil {
		return nil, err
	}
	var svd mat.SVD
	if !svd.Factorize(r, mat.SVDFull) {
		return nil, errors.New("rsvd: the small SVD did not converge")
	}
	var ur, wr mat.Dense
	svd.UTo(&ur) // R = U_R Σ W_Rᵀ
	svd.VTo(&wr)
	s := svd.Values(nil)

	// A ≈ Q B = Q (Bᵀ)ᵀ = Q (Q₂ U_R Σ W_Rᵀ)ᵀ = (Q W_R) Σ (Q₂ U_R)ᵀ.
	k := o.K
	wk := mat.DenseCopyOf(wr.Slice(0, l, 0, k))
	uk := mat.DenseCopyOf(ur.Slice(0, l, 0, k))
	res := &Result{U: mat.NewDense(m, k, nil), S: s[:k:k], V: mat.NewDense(n, k, nil)}
	dense.MulSmall(pool, res.U, y, wk)
	dense.MulSmall(pool, res.V, z, uk)
	flipSigns(res.U, res.V)
	return res, nil
}

// orth replaces the tall matrix a (rows ≥ cols) by the thin orthonormal
// factor Q of its Householder QR.
func orth(a *mat.Dense) error {
	_, err := qrInPlace(a, false)
	return err
}

// qr replaces the tall matrix a by its thin Q factor and returns R (l×l).
func qr(a *mat.Dense) (*mat.Dense, error) {
	return qrInPlace(a, true)
}

func qrInPlace(a *mat.Dense, wantR bool) (*mat.Dense, error) {
	g := a.RawMatrix()
	k := min(g.Rows, g.Cols)
	if g.Rows < g.Cols {
		return nil, fmt.Errorf("rsvd: QR of a wide %d×%d matrix", g.Rows, g.Cols)
	}
	tau := make([]float64, k)
	work := make([]float64, 1)
	lapack64.Geqrf(g, tau, work, -1)
	lw := int(work[0])
	lapack64.Orgqr(g, tau, work, -1)
	lw = max(lw, int(work[0]), g.Cols)
	work = make([]float64, lw)
	lapack64.Geqrf(g, tau, work, lw)
	var r *mat.Dense
	if wantR {
		r = mat.NewDense(g.Cols, g.Cols, nil)
		for i := 0; i < g.Cols; i++ {
			for j := i; j < g.Cols; j++ {
				r.Set(i, j, g.Data[i*g.Stride+j])
			}
		}
	}
	lapack64.Orgqr(g, tau, work, lw)
	for _, v := range g.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("rsvd: non-finite value in the QR factorization (does the matrix hold NaN or Inf?)")
		}
	}
	return r, nil
}

// flipSigns makes the largest-magnitude entry of each column of u positive
// (the first one on ties), flipping the matching column of v.
func flipSigns(u, v *mat.Dense) {
	m, k := u.Dims()
	n, _ := v.Dims()
	for j := 0; j < k; j++ {
		best, sign := -1.0, 1.0
		for i := 0; i < m; i++ {
			x := u.At(i, j)
			if math.Abs(x) > best {
				best, sign = math.Abs(x), math.Copysign(1, x)
			}
		}
		if sign < 0 {
			for i := 0; i < m; i++ {
				u.Set(i, j, -u.At(i, j))
			}
			for i := 0; i < n; i++ {
				v.Set(i, j, -v.At(i, j))
			}
		}
	}
}
