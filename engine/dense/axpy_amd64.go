package dense

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 kernels of axpy_amd64.s (which use no FMA, so
// their results equal the Go definitions bit for bit).
var useAVX2 = cpu.X86.HasAVX2

//go:noescape
func axpyAVX2(n int, a float64, x, y *float64)

//go:noescape
func axpy4AVX2(n int, y *float64, a *[4]float64, x0, x1, x2, x3 *float64)

//go:noescape
func axpy8AVX2(n int, y *float64, a *[8]float64, x *[8]*float64)

// mulTile2x8AVX2 adds to the 2×8 tile of dst at d (row stride ldd) the
// products of rows of A at a (row stride lda) and B at b (row stride ldb):
// groups groups of four x, then singles single x, as MulSmall does (see
// mulTilesAVX2).
//
//go:noescape
func mulTile2x8AVX2(groups, singles int, a *float64, lda int, b *float64, ldb int, d *float64, ldd int)

// mulTile4x4AVX2 is mulTile2x8AVX2 for a 4×c tile, c ≤ 4, given by mask:
// all ones in lanes < c, zero in the others.
//
//go:noescape
func mulTile4x4AVX2(groups, singles int, a *float64, lda int, b *float64, ldb int, d *float64, ldd int, mask *[4]uint64)
