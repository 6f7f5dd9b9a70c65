//go:build !amd64

package dense

const useAVX2 = false

func axpyAVX2(n int, a float64, x, y *float64)                            { panic("unreachable") }
func axpy4AVX2(n int, y *float64, a *[4]float64, x0, x1, x2, x3 *float64) { panic("unreachable") }
func axpy8AVX2(n int, y *float64, a *[8]float64, x *[8]*float64)          { panic("unreachable") }
func mulTile2x8AVX2(groups, singles int, a *float64, lda int, b *float64, ldb int, d *float64, ldd int) {
	panic("unreachable")
}
func mulTile4x4AVX2(groups, singles int, a *float64, lda int, b *float64, ldb int, d *float64, ldd int, mask *[4]uint64) {
	panic("unreachable")
}
