package onlinelda

import "math"

// digamma is ψ(x) = d/dx log Γ(x) for x > 0: the recurrence
// ψ(x) = ψ(x+1) − 1/x up to x ≥ 10, then the asymptotic series
// ψ(x) ≈ log x − 1/(2x) − Σ B_2n/(2n x^2n) (Abramowitz & Stegun 6.3.18),
// accurate to about 1e-14 relative.
func digamma(x float64) float64 {
	r := 0.0
	for x < 10 {
		r -= 1 / x
		x++
	}
	f := 1 / (x * x)
	t := f * (-1.0/12 + f*(1.0/120+f*(-1.0/252+f*(1.0/240+f*(-1.0/132+f*(691.0/32760+f*(-1.0/12)))))))
	return r + math.Log(x) - 0.5/x + t
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// gammaSample draws from Gamma(shape, scale) for shape ≥ 1 by Marsaglia &
// Tsang's method ("A simple method for generating gamma variables", ACM
// TOMS 26(3), 2000).
func gammaSample(rnd interface {
	NormFloat64() float64
	Float64() float64
}, shape, scale float64) float64 {
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rnd.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rnd.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * scale
		}
	}
}
