// Package matcmp holds the matrix comparisons the engine's tests share:
// bit-for-bit equality (the determinism checks), the largest absolute
// difference and ‖D − UVᵀ‖²_F computed directly (the reference checks),
// per-row L1 distances (the fold-in checks), the cosine of two vectors,
// running a kernel inside a pool of a given size, and random dense
// operands. It imports only gonum
// and engine/parallel, so the tests of engine/sparse and engine/dense can
// use it too.
package matcmp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// MaxAbsDiff is max |a_ij − b_ij|; it panics when the shapes differ.
func MaxAbsDiff(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	if br, bc := b.Dims(); br != r || bc != c {
		panic(fmt.Sprintf("MaxAbsDiff: %d×%d vs %d×%d", r, c, br, bc))
	}
	m := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// BitsEqual reports whether a and b have the same shape and the same bits.
func BitsEqual(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	for i := 0; i < ar; i++ {
		for j := 0; j < ac; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// InPool runs f holding a slot of a fresh pool of w workers, so that a
// pool of 1 really runs one goroutine.
func InPool(w int, f func(p *parallel.Pool)) {
	p := parallel.NewPool(w)
	if err := p.Do(context.Background(), func() { f(p) }); err != nil {
		panic(err)
	}
}

// RowL1 returns Σ_j |a_ij − b_ij| for every row i of a, b being at least
// as large (e.g. a fold-in of the first rows of a corpus beside the fit's
// DocTopics).
func RowL1(a, b *mat.Dense) []float64 {
	r, c := a.Dims()
	out := make([]float64, r)
	for i := range out {
		for j := 0; j < c; j++ {
			out[i] += math.Abs(a.At(i, j) - b.At(i, j))
		}
	}
	return out
}

// Cosine is ⟨a, b⟩ / (‖a‖‖b‖) of two vectors of the same length.
func Cosine(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	return ab / math.Sqrt(aa*bb)
}

// ResidualSq is ‖D − UVᵀ‖²_F computed directly, entry by entry from the
// dense product UVᵀ: the reference for the fits' loss.
func ResidualSq(d mat.Matrix, u, v *mat.Dense) float64 {
	var uv mat.Dense
	uv.Mul(u, v.T())
	m, n := d.Dims()
	s := 0.0
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			e := d.At(i, j) - uv.At(i, j)
			s += e * e
		}
	}
	return s
}

// RandomDense returns an r×c matrix with entries uniform in [0, 1) (PCG
// seeded with seed, 11).
func RandomDense(r, c int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 11))
	data := make([]float64, r*c)
	for i := range data {
		data[i] = rng.Float64()
	}
	return mat.NewDense(r, c, data)
}
