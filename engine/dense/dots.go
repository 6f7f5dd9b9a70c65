package dense

// Dot4 returns the four dot products sₖ = aₖᵀbₖ (k = 0, 1, 2, 3) over the
// first len(a0) entries, each summed left to right from 0 (dot4Go):
//
//	sₖ ← 0;  sₖ ← sₖ + aₖ[j]·bₖ[j]  for j = 0, 1, ..., len(a0)−1,
//
// one rounding per multiply and per add (no fused multiply-add). Every a
// and b has at least len(a0) entries.
//
// Each sum is a chain of dependent additions, which a single dot product
// runs at the latency of an addition; four independent chains in one loop
// keep the adder busy. On amd64 with AVX2, dot4AVX2 (dot4_amd64.s) holds
// the four sums in one YMM register: for each block of four j it forms the
// 16 products aₖ[j]·bₖ[j] (VMULPD), transposes them so that one register
// holds the products of one j for the four k, and adds the four registers
// in the order of j (VADDPD); each sum therefore sees exactly the additions
// of dot4Go, and the last len(a0) mod 4 terms are added by dot4Go.
func Dot4(a0, a1, a2, a3, b0, b1, b2, b3 []float64) [4]float64 {
	n := len(a0)
	a1, a2, a3 = a1[:n], a2[:n], a3[:n]
	b0, b1, b2, b3 = b0[:n], b1[:n], b2[:n], b3[:n]
	var s [4]float64
	j := 0
	if useAVX2 && n >= 4 {
		j = n &^ 3
		p := [8]*float64{&a0[0], &a1[0], &a2[0], &a3[0], &b0[0], &b1[0], &b2[0], &b3[0]}
		dot4AVX2(j, &s, &p)
	}
	if j < n {
		dot4Go(&s, j, a0, a1, a2, a3, b0, b1, b2, b3)
	}
	return s
}

// dot4Go adds aₖ[j]·bₖ[j] to s[k] for j from j0 to len(a0)−1, in order.
func dot4Go(s *[4]float64, j0 int, a0, a1, a2, a3, b0, b1, b2, b3 []float64) {
	n := len(a0)
	a1, a2, a3 = a1[:n], a2[:n], a3[:n]
	b0, b1, b2, b3 = b0[:n], b1[:n], b2[:n], b3[:n]
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	for j := j0; j < n; j++ {
		s0 += a0[j] * b0[j]
		s1 += a1[j] * b1[j]
		s2 += a2[j] * b2[j]
		s3 += a3[j] * b3[j]
	}
	*s = [4]float64{s0, s1, s2, s3}
}

// Dot8 is Dot4 for eight pairs: sₖ = a[k]ᵀb[k] (k = 0, ..., 7) over the
// first len(a[0]) entries, each summed left to right from 0 with one
// rounding per multiply and per add (dot8Go). Every a[k] and b[k] has at
// least len(a[0]) entries.
//
// Dot4's AVX2 loop waits on its one chain of vector additions; dot8AVX2
// (dots_amd64.s) runs two such chains, sums 0..3 and sums 4..7, in one
// loop, so eight sums cost about what four do.
func Dot8(a, b *[8][]float64) [8]float64 {
	n := len(a[0])
	var s [8]float64
	j := 0
	if useAVX2 && n >= 4 {
		j = n &^ 3
		var p [16]*float64
		for k := range 8 {
			p[k], p[8+k] = &a[k][:n][0], &b[k][:n][0]
		}
		dot8AVX2(j, &s, &p)
	}
	if j < n {
		dot8Go(&s, j, n, a, b)
	}
	return s
}

// dot8Go adds a[k][j]·b[k][j] to s[k] for j from j0 to n−1, in order.
func dot8Go(s *[8]float64, j0, n int, a, b *[8][]float64) {
	for k := range 8 {
		ak, bk := a[k][:n], b[k][:n]
		sk := s[k]
		for j := j0; j < n; j++ {
			sk += ak[j] * bk[j]
		}
		s[k] = sk
	}
}
