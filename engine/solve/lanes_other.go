//go:build !amd64

package solve

const useLanes = false

func sweepLanes(k, ld int, s, diag, x, r, g []float64, half float64, acc *sweepAcc) {
	panic("unreachable")
}

func sxAVX512(chunks, nnz int, idx *int32, val, s *float64, ld int, out *float64) {
	panic("unreachable")
}
