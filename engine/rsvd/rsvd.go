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
	// Orth is how the sketch's tall blocks are orthonormalized; the zero
	// value is Householder.
	Orth Orth
	// Pool runs the sparse × dense products; nil means parallel.Default().
	Pool *parallel.Pool
}

// Orth names an orthonormalization of the tall M×l and N×l blocks.
type Orth int

const (
	// Householder is LAPACK's Householder QR (dgeqrf + dorgqr, gonum's
	// pure-Go code, sequential): backward stable for any conditioning.
	Householder Orth = iota
	// CholeskyQR2 is Cholesky QR done twice (Fukaya, Nakatsukasa, Yanagisawa
	// & Yamamoto, "CholeskyQR2: a simple and communication-avoiding
	// algorithm for computing a tall-skinny QR factorization", ScalA 2014):
	// G = YᵀY = RᵀR, Y ← Y R⁻¹, twice, R = R₂R₁. Its work is the Gram
	// matrix and a tall × small product (engine/dense, parallel over fixed
	// row blocks, so bit-identical for any number of workers), and QᵀQ = I
	// to about machine precision while cond(Y) ≲ u^(−1/2) (Yamamoto et al.
	// 2015). A block whose Gram matrix is not positive definite or has a
	// condition number above cholCondMax falls back to Householder.
	CholeskyQR2
)

// cholCondMax bounds cond(YᵀY) = cond(Y)² for a Cholesky QR step: 10¹²,
// i.e. cond(Y) ≤ 10⁶, well inside CholeskyQR2's u^(−1/2) ≈ 7·10⁷.
const cholCondMax = 1e12

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
	f := factorizer{method: o.Orth, pool: pool}
	if o.Orth == CholeskyQR2 {
		f.tmp = mat.NewDense(max(m, n), l, nil)
	}
	orth := func(a *mat.Dense) error {
		_, err := f.factor(a, false)
		return err
	}
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
	r, err := f.factor(z, true)
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

// factorizer orthonormalizes tall blocks by its method; tmp (at least as
// many rows as any block, l columns) is CholeskyQR2's scratch.
type factorizer struct {
	method Orth
	pool   *parallel.Pool
	tmp    *mat.Dense
}

// factor replaces the tall matrix a (rows ≥ cols) by the thin orthonormal
// factor Q of a = QR and, with wantR, returns R (l×l upper triangular).
func (f factorizer) factor(a *mat.Dense, wantR bool) (*mat.Dense, error) {
	var done *mat.Dense // R of the Cholesky QR steps made so far
	if f.method == CholeskyQR2 {
		steps := 0
		for ; steps < 2; steps++ {
			r, ok := cholQR(f.pool, a, f.tmp)
			if !ok {
				break
			}
			done = mulUpper(r, done)
		}
		if steps == 2 {
			return done, nil
		}
	}
	r, err := qrInPlace(a, wantR)
	if err != nil || !wantR {
		return nil, err
	}
	return mulUpper(r, done), nil
}

// cholQR is one Cholesky QR step: with YᵀY = RᵀR, it sets a = a R⁻¹ and
// returns R, or leaves a unchanged and returns false when YᵀY is not
// positive definite or its condition number exceeds cholCondMax.
func cholQR(p *parallel.Pool, a, tmp *mat.Dense) (*mat.Dense, bool) {
	rows, l := a.Dims()
	g := mat.NewDense(l, l, nil)
	dense.Gram(p, g, a)
	var ch mat.Cholesky
	if !ch.Factorize(mat.NewSymDense(l, g.RawMatrix().Data)) || !(ch.Cond() <= cholCondMax) {
		return nil, false
	}
	var r, rinv mat.TriDense
	ch.UTo(&r)
	if err := rinv.InverseTri(&r); err != nil {
		return nil, false
	}
	q := tmp.Slice(0, rows, 0, l).(*mat.Dense)
	dense.MulSmall(p, q, a, mat.DenseCopyOf(&rinv))
	a.Copy(q)
	return mat.DenseCopyOf(&r), true
}

// mulUpper returns r·prev (prev nil: r).
func mulUpper(r, prev *mat.Dense) *mat.Dense {
	if prev == nil {
		return r
	}
	var out mat.Dense
	out.Mul(r, prev)
	return &out
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
