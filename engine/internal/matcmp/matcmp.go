// Package matcmp holds the matrix comparisons the engine's tests share:
// bit-for-bit equality (the determinism checks), the largest absolute
// difference (the reference checks) and running a kernel inside a pool of
// a given size. It imports only gonum and engine/parallel, so the tests of
// engine/sparse and engine/dense can use it too.
package matcmp

import (
	"context"
	"fmt"
	"math"

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
