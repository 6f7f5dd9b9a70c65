package solve

import "golang.org/x/sys/cpu"

// useLanes selects the eight-lane sweep of lanes_amd64.s (AVX-512 F and DQ,
// no FMA: each lane's arithmetic is cdPass's, operation for operation).
var useLanes = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// sweepLanes runs one coordinate-descent sweep (j = 0…k−1) on the eight
// interleaved lanes x, r, g (see laneState) with diagonal diag of the k×k
// S, adding each lane's largest |Δx_j|, largest |x_j| and moves to acc as
// cdPass computes them.
func sweepLanes(k, ld int, s, diag, x, r, g []float64, half float64, acc *sweepAcc) {
	sweepLanesAVX512(k, ld, &s[0], &diag[0], &x[0], &r[0], &g[0], half, acc)
}

//go:noescape
func sweepLanesAVX512(k, ld int, s, diag, x, r, grad *float64, half float64, acc *sweepAcc)

// sxAVX512 sets out[:chunks·64] to Σ_t val[t]·S_idx[t] over nnz
// non-zeros, each entry summed in t order from +0, one multiply and one
// add per term: Solve's g = S x (see lanes_amd64.s).
//
//go:noescape
func sxAVX512(chunks, nnz int, idx *int32, val, s *float64, ld int, out *float64)
