package rlsi

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// ridgeInverse returns (G + λI)⁻¹ for a K×K symmetric positive semidefinite
// G and λ > 0, by Cholesky factorization (gonum mat.Cholesky). This is Σ of
// RLSI Algorithm 3 line 1 (G = UᵀU, λ = λ2), and (S + λ1 I)⁻¹ of the closed
// form ridge U update (G = VVᵀ, λ = λ1). It returns an error when the
// factorization fails (G + λI not numerically positive definite).
//
// The result is symmetrized exactly (entry (i,j) and (j,i) equal bits), so
// that x·Σ and Σ·x agree.
func ridgeInverse(g *mat.Dense, lambda float64) (*mat.Dense, error) {
	k, _ := g.Dims()
	sym := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			// Average the two triangles: Gram matrices computed row by row are
			// symmetric to rounding, and this makes the choice explicit.
			v := 0.5 * (g.At(i, j) + g.At(j, i))
			if i == j {
				v += lambda
			}
			sym.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if ok := ch.Factorize(sym); !ok {
		return nil, fmt.Errorf("Cholesky factorization of the %d×%d matrix failed (not positive definite)", k, k)
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return nil, fmt.Errorf("inverting the %d×%d Cholesky factor: %w", k, k, err)
	}
	out := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			v := inv.At(i, j)
			out.Set(i, j, v)
			out.Set(j, i, v)
		}
	}
	return out, nil
}
