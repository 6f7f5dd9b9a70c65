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
