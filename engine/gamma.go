package engine

import (
	"math"
	"math/rand/v2"
)

// Gamma draws from Gamma(shape, scale 1) by Marsaglia & Tsang's method
// ("A simple method for generating gamma variables", ACM TOMS 26(3), 2000),
// with the boost Gamma(k) = Gamma(k+1)·U^(1/k) given there for shape k < 1.
// A draw of Gamma(k, θ) is θ·Gamma(r, k). shape must be finite and > 0
// (the callers' shapes are constants or validated options).
func Gamma(r *rand.Rand, shape float64) float64 {
	if shape < 1 {
		return Gamma(r, shape+1) * math.Pow(r.Float64(), 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
