package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDot4 checks Dot4 (the AVX2 kernel where the CPU has it) against four
// separate left-to-right sums, bit for bit, at every length from 0 to 70
// (all remainders of the four-term blocks), with slices longer than a0,
// on values spread over many binades (so any reordering of a sum or a
// fused multiply-add would show) with zeros, negative zeros and rows that
// are all zero.
func TestDot4(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	val := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		}
		return (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(60)-30)
	}
	for n := 0; n <= 70; n++ {
		for trial := range 20 {
			var v [8][]float64
			for q := range v {
				v[q] = make([]float64, n+rng.IntN(3))
				if trial%5 == 0 && q == 2 {
					for j := range v[q] {
						v[q][j] = math.Copysign(0, -1)
					}
					continue
				}
				for j := range v[q] {
					v[q][j] = val()
				}
			}
			a0 := v[0][:n]
			got := Dot4(a0, v[1], v[2], v[3], v[4], v[5], v[6], v[7])
			for k := range 4 {
				want := 0.0
				for j := range n {
					want += v[k][j] * v[4+k][j]
				}
				if math.Float64bits(got[k]) != math.Float64bits(want) {
					t.Fatalf("n = %d trial %d: sum %d is %v (%#x), want %v (%#x)", n, trial, k, got[k], math.Float64bits(got[k]), want, math.Float64bits(want))
				}
			}
		}
	}
	if got := Dot4([]float64{1, 2}, []float64{3, 4}, []float64{5, 6}, []float64{7, 8},
		[]float64{1, 1}, []float64{1, 0.5}, []float64{2, 0}, []float64{-1, 1}); got != [4]float64{3, 5, 10, 1} {
		t.Errorf("hand-computed: %v, want [3 5 10 1]", got)
	}
}
