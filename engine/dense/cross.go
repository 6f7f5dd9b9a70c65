package dense

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
)

// CrossRows sets g (ka×kb, row-major and packed) to the rows lo ≤ i < hi of
// AᵀB, for A (ka columns) and B (kb columns) with the same rows:
//
//	g[x, :] = Σ_{lo ≤ i < hi, A[i, x] ≠ 0} A[i, x]·B[i, :],
//
// each row's term added by Axpy in increasing i from g = +0, zero entries of
// A skipped. This order defines the bits. With AVX2 and kb ≥ 4 (where Axpy
// runs axpyAVX2), unless A is mostly zero (mostlyZero), the sums are taken
// in register tiles (crossTilesAVX2) with the same bits; when a tile sum is
// not finite the rows are summed again by the row loop. 2·(hi−lo)·ka·kb
// flops.
func CrossRows(g []float64, a, b blas64.General, lo, hi int) {
	ka, kb := a.Cols, b.Cols
	g = g[:ka*kb]
	if useAVX2 && kb >= 4 && ka > 0 && !mostlyZero(a, lo, hi) {
		crossTilesAVX2(g, a, b, lo, hi)
		if finiteSlice(g) {
			return
		}
	}
	clear(g)
	for i := lo; i < hi; i++ {
		ar := a.Data[i*a.Stride : i*a.Stride+ka]
		br := b.Data[i*b.Stride : i*b.Stride+kb]
		for x, ax := range ar {
			if ax == 0 {
				continue
			}
			Axpy(ax, br, g[x*kb:x*kb+kb])
		}
	}
}

// crossChunk is the number of entries (16 KiB) of the narrower of A and B in
// the range of rows that crossTilesAVX2 passes every tile over before moving
// on, so that the range stays in the L1 cache.
const crossChunk = 2 << 10

// crossTilesAVX2 sets g to the rows lo ≤ i < hi of AᵀB in tiles of four x
// and eight y (crossTile4x8AVX2; one x at a time past the last four, up to
// four y at the right edge), each tile's entries held in registers over a
// range of rows and saved in g between ranges. Each entry sees the
// operations of CrossRows's row loop in the same order, with one
// difference: a row where A[i, x] = 0 is added rather than skipped. When
// B[i, y] is finite the product is ±0, and adding ±0 leaves the entry's
// bits unchanged: the entry starts at +0 and never becomes −0 (under
// round-to-nearest a sum is −0 only when both terms are), +0 + ±0 = +0, and
// s + ±0 = s for any other s, NaN included. When some B[i, y] is ±∞ or
// NaN, every g[x, y] sees its product A[i, x]·B[i, y], which is ±∞ or NaN,
// and a sum that has met ±∞ or NaN never becomes finite again: a finite g
// therefore shows that every B[i, y] was finite, which is how CrossRows
// decides to keep it.
func crossTilesAVX2(g []float64, a, b blas64.General, lo, hi int) {
	clear(g)
	ad, as := a.Data, a.Stride
	bd, bs := b.Data, b.Stride
	ka, kb := a.Cols, b.Cols
	tile := func(i, n, x, y int) {
		c := kb - y
		switch {
		case ka-x >= 4 && c >= 8:
			crossTile4x8AVX2(n, &ad[i*as+x], as, &bd[i*bs+y], bs, &g[x*kb+y], kb)
		case ka-x >= 4:
			crossTile4x4AVX2(n, &ad[i*as+x], as, &bd[i*bs+y], bs, &g[x*kb+y], kb, &tileMask[min(4, c)])
		case c >= 8:
			crossTile1x8AVX2(n, &ad[i*as+x], as, &bd[i*bs+y], bs, &g[x*kb+y])
		default:
			crossTile1x4AVX2(n, &ad[i*as+x], as, &bd[i*bs+y], bs, &g[x*kb+y], &tileMask[min(4, c)])
		}
	}
	// The steps of x and y that tile takes from (x, y).
	xstep := func(x int) int {
		if ka-x >= 4 {
			return 4
		}
		return 1
	}
	ystep := func(y int) int {
		if kb-y >= 8 {
			return 8
		}
		return 4
	}
	n := max(16, crossChunk/min(ka, kb))
	for i := lo; i < hi; i += n {
		n := min(n, hi-i)
		if ka <= kb {
			for y := 0; y < kb; y += ystep(y) {
				for x := 0; x < ka; x += xstep(x) {
					tile(i, n, x, y)
				}
			}
		} else {
			for x := 0; x < ka; x += xstep(x) {
				for y := 0; y < kb; y += ystep(y) {
					tile(i, n, x, y)
				}
			}
		}
	}
}

// mostlyZero reports whether more than half of the entries of A in rows
// [lo, hi) are zero, judged on every 16th row. The row loop skips them and
// the tiles do not; the row loop is then the faster (on 2,000×40 ᵀ
// 2,000×1,000 the two break even near one half). Both give the same bits,
// so the choice affects the time only.
func mostlyZero(a blas64.General, lo, hi int) bool {
	zero, all := 0, 0
	for i := lo; i < hi; i += 16 {
		for _, v := range a.Data[i*a.Stride : i*a.Stride+a.Cols] {
			if v == 0 {
				zero++
			}
		}
		all += a.Cols
	}
	return 2*zero > all
}

// finiteSlice reports whether every entry of s is finite.
func finiteSlice(s []float64) bool {
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
