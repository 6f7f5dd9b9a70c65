package engine

import (
	"math"
	"testing"
)

// Gamma(k): mean k, variance k; 20,000 draws give standard errors of
// sqrt(k/20000) for the mean.
func TestGamma(t *testing.T) {
	r := NewRand(7)
	for _, k := range []float64{0.1, 0.5, 1, 3.5} {
		const n = 20000
		var s, ss float64
		for range n {
			x := Gamma(r, k)
			s += x
			ss += x * x
		}
		mean := s / n
		v := ss/n - mean*mean
		if math.Abs(mean-k) > 5*math.Sqrt(k/n) || math.Abs(v/k-1) > 0.15 {
			t.Errorf("Gamma(%v): mean %v var %v", k, mean, v)
		}
	}
}

// Gamma(100, 0.01), online LDA's initialization of λ: mean 1, variance
// 0.01; 4 standard errors.
func TestGammaScaled(t *testing.T) {
	rnd := NewRand(3)
	const n = 40000
	var s, s2 float64
	for range n {
		x := Gamma(rnd, 100) * 0.01
		s += x
		s2 += x * x
	}
	mean := s / n
	variance := s2/n - mean*mean
	if math.Abs(mean-1) > 4*math.Sqrt(0.01/n) || math.Abs(variance-0.01) > 0.0006 {
		t.Errorf("Gamma(100, 1/100) draws: mean %v, variance %v; want 1 and 0.01", mean, variance)
	}
}
