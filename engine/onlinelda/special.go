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
