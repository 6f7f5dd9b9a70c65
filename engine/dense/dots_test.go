package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// spreadValue draws a test value over 60 binades, both signs, with one in
// eight +0 and one in eight −0: sums of such values show any reordering, a
// fused multiply-add, or a lost signed zero.
func spreadValue(rng *rand.Rand) float64 {
	switch rng.IntN(8) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	}
	return (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(60)-30)
}

// TestDot4 checks Dot4 (the AVX2 kernel where the CPU has it) against four
// separate left-to-right sums, bit for bit, at every length from 0 to 70
// (all remainders of the four-term blocks), with slices longer than a0,
// on values spread over many binades (so any reordering of a sum or a
// fused multiply-add would show) with zeros, negative zeros and rows that
// are all zero.
func TestDot4(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	val := func() float64 { return spreadValue(rng) }
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

// TestDot8 checks Dot8 as TestDot4 checks Dot4: against eight separate
// left-to-right sums, bit for bit, at every length from 0 to 70, with
// slices longer than a[0], values over many binades, signed zeros, and
// pairs that share a slice (as one-vs-rest problems share a row).
func TestDot8(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	val := func() float64 { return spreadValue(rng) }
	for n := 0; n <= 70; n++ {
		for trial := range 20 {
			var a, b [8][]float64
			for k := range 8 {
				a[k], b[k] = make([]float64, n+rng.IntN(3)), make([]float64, n+rng.IntN(3))
				for j := range a[k] {
					a[k][j] = val()
				}
				for j := range b[k] {
					b[k][j] = val()
				}
			}
			if trial%4 == 1 {
				a[5], b[7] = a[2], b[0]
			}
			a[0] = a[0][:n]
			got := Dot8(&a, &b)
			for k := range 8 {
				want := 0.0
				for j := range n {
					want += a[k][j] * b[k][j]
				}
				if math.Float64bits(got[k]) != math.Float64bits(want) {
					t.Fatalf("n = %d trial %d: sum %d is %v (%#x), want %v (%#x)", n, trial, k, got[k], math.Float64bits(got[k]), want, math.Float64bits(want))
				}
			}
		}
	}
	a := [8][]float64{{1, 2}, {3, 4}, {5, 6}, {7, 8}, {1, 0}, {0, 1}, {2, 2}, {-1, -1}}
	b := [8][]float64{{1, 1}, {1, 0.5}, {2, 0}, {-1, 1}, {9, 9}, {9, 9}, {0.5, 0.25}, {3, 4}}
	if got := Dot8(&a, &b); got != [8]float64{3, 5, 10, 1, 9, 9, 1.5, -7} {
		t.Errorf("hand-computed: %v, want [3 5 10 1 9 9 1.5 -7]", got)
	}
}
