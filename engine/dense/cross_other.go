//go:build !amd64

package dense

func crossTile4x8AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, ldt int) {
	panic("unreachable")
}
func crossTile1x8AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64) {
	panic("unreachable")
}
func crossTile4x4AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, ldt int, mask *[4]uint64) {
	panic("unreachable")
}
func crossTile1x4AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, mask *[4]uint64) {
	panic("unreachable")
}
