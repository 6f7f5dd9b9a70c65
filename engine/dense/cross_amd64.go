package dense

// crossTile4x8AVX2 adds to the 4×8 tile of g at t (row stride ldt) the
// products of n rows of A at a (row stride lda, four x) and B at b (row
// stride ldb, eight y), row by row (see crossTilesAVX2).
//
//go:noescape
func crossTile4x8AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, ldt int)

// crossTile1x8AVX2 is crossTile4x8AVX2 for one x.
//
//go:noescape
func crossTile1x8AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64)

// crossTile4x4AVX2 is crossTile4x8AVX2 for a 4×c tile, c ≤ 4, given by
// mask: all ones in lanes < c, zero in the others.
//
//go:noescape
func crossTile4x4AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, ldt int, mask *[4]uint64)

// crossTile1x4AVX2 is crossTile4x4AVX2 for one x.
//
//go:noescape
func crossTile1x4AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, mask *[4]uint64)
