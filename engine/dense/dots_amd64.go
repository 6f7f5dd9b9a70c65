package dense

// dot4AVX2 sets s[k] = Σ_{j<n} p[k][j]·p[4+k][j] for k < 4, summed left to
// right from 0; n is a positive multiple of 4 (see Dot4).
//
//go:noescape
func dot4AVX2(n int, s *[4]float64, p *[8]*float64)

// dot8AVX2 sets s[k] = Σ_{j<n} p[k][j]·p[8+k][j] for k < 8, summed left to
// right from 0; n is a positive multiple of 4 (see Dot8).
//
//go:noescape
func dot8AVX2(n int, s *[8]float64, p *[16]*float64)
