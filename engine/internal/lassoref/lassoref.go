// Package lassoref is an independent reference for the lasso solver of
// engine/solve, for tests: the objective evaluated directly, and the exact
// minimizer by enumeration of sign patterns (exponential in K, so for
// K ≤ 6 or so).
package lassoref

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Objective is f(x) = xᵀSx − 2rᵀx + λ‖x‖₁, evaluated directly.
func Objective(s []float64, k int, r []float64, lambda float64, x []float64) float64 {
	f := 0.0
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			f += x[i] * s[i*k+j] * x[j]
		}
		f += -2*r[i]*x[i] + lambda*math.Abs(x[i])
	}
	return f
}

// Brute solves the lasso exactly by enumerating every sign pattern
// σ ∈ {−1, 0, +1}^K: with active set A = {σ ≠ 0} the stationarity condition
// 2 S_AA x_A − 2 r_A + λσ_A = 0 gives x_A = S_AA⁻¹ (r_A − λσ_A/2), kept when
// sign(x_A) = σ_A; the feasible candidate with the least objective is the
// minimizer (an independent reference for coordinate descent).
func Brute(s []float64, k int, r []float64, lambda float64) []float64 {
	best, bestF := make([]float64, k), Objective(s, k, r, lambda, make([]float64, k))
	sigma := make([]int, k)
	total := 1
	for i := 0; i < k; i++ {
		total *= 3
	}
	for code := 0; code < total; code++ {
		c := code
		var act []int
		for i := 0; i < k; i++ {
			sigma[i] = c%3 - 1
			c /= 3
			if sigma[i] != 0 {
				act = append(act, i)
			}
		}
		if len(act) == 0 {
			continue
		}
		a := mat.NewDense(len(act), len(act), nil)
		b := mat.NewVecDense(len(act), nil)
		for p, i := range act {
			for q, j := range act {
				a.Set(p, q, s[i*k+j])
			}
			b.SetVec(p, r[i]-lambda*float64(sigma[i])/2)
		}
		var xa mat.VecDense
		if err := xa.SolveVec(a, b); err != nil {
			continue
		}
		x := make([]float64, k)
		ok := true
		for p, i := range act {
			x[i] = xa.AtVec(p)
			if (x[i] > 0) != (sigma[i] > 0) || x[i] == 0 {
				ok = false
			}
		}
		if !ok {
			continue
		}
		if f := Objective(s, k, r, lambda, x); f < bestF {
			best, bestF = x, f
		}
	}
	return best
}
