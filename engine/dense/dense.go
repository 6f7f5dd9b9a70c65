// Package dense holds the dense kernels the models need on row-major factor
// matrices (one row per term or document), parallel over fixed row blocks
// with partial results reduced in block order, so results are bit-identical
// for any number of workers.
package dense

import (
	"fmt"

	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// RowBlock is the number of rows per block; a constant so that block
// boundaries never depend on the number of workers.
const RowBlock = 1024

// Gram sets dst = AᵀA (k×k) for A (n×k). Rows are summed in fixed blocks and
// the block partials are added in block order.
func Gram(p *parallel.Pool, dst *mat.Dense, a *mat.Dense) {
	n, k := a.Dims()
	if r, c := dst.Dims(); r != k || c != k {
		panic(fmt.Sprintf("dense.Gram: dst is %d×%d, want %d×%d", r, c, k, k))
	}
	nb := parallel.Blocks(n, RowBlock)
	partial := make([][]float64, nb)
	araw := a.RawMatrix()
	p.For(n, RowBlock, func(b, lo, hi int) {
		g := make([]float64, k*k)
		for i := lo; i < hi; i++ {
			row := araw.Data[i*araw.Stride : i*araw.Stride+k]
			for x, ax := range row {
				if ax == 0 {
					continue
				}
				gx := g[x*k : x*k+k]
				for y, ay := range row {
					gx[y] += ax * ay
				}
			}
		}
		partial[b] = g
	})
	dst.Zero()
	draw := dst.RawMatrix()
	for _, g := range partial {
		for x := 0; x < k; x++ {
			out := draw.Data[x*draw.Stride : x*draw.Stride+k]
			for y := range out {
				out[y] += g[x*k+y]
			}
		}
	}
}

// MulSmall sets dst = A·B for A (n×k) and a small B (k×j), in parallel over
// fixed row blocks of A. dst must be n×j and must not alias A or B.
func MulSmall(p *parallel.Pool, dst, a, b *mat.Dense) {
	n, k := a.Dims()
	bk, j := b.Dims()
	if dr, dc := dst.Dims(); bk != k || dr != n || dc != j {
		panic(fmt.Sprintf("dense.MulSmall: shapes %d×%d · %d×%d → %d×%d", n, k, bk, j, dr, dc))
	}
	araw, braw, draw := a.RawMatrix(), b.RawMatrix(), dst.RawMatrix()
	p.For(n, RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := draw.Data[i*draw.Stride : i*draw.Stride+j]
			clear(out)
			for x, ax := range araw.Data[i*araw.Stride : i*araw.Stride+k] {
				if ax == 0 {
					continue
				}
				brow := braw.Data[x*braw.Stride : x*braw.Stride+j]
				for y, by := range brow {
					out[y] += ax * by
				}
			}
		}
	})
}
