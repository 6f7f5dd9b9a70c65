//go:build !amd64

package dense

func dot4AVX2(n int, s *[4]float64, p *[8]*float64) { panic("unreachable") }

func dot8AVX2(n int, s *[8]float64, p *[16]*float64) { panic("unreachable") }
