package solve

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// RidgeInverse returns (G + λI)⁻¹ for a K×K symmetric positive semidefinite
// G and λ > 0, by Cholesky factorization (gonum mat.Cholesky). With it the
// ridge row problem min_x ‖y − Ax‖² + λ‖x‖² has the closed form
// x = (AᵀA + λI)⁻¹Aᵀy, one product per row. It is Σ of RLSI §4.3.2,
// Algorithm 3 line 1 (G = UᵀU, λ = λ2), (S + λ1 I)⁻¹ of RLSI's closed-form
// ridge U update (G = VVᵀ, λ = λ1), and Σ_p of GMF Algorithm 4 line 1
// (G = Ũ_pᵀŨ_p). It returns an error when the factorization fails (G + λI
// not numerically positive definite).
//
// G is symmetrized first (entries (i,j) and (j,i) averaged) and the result
// is exactly symmetric (entry (i,j) and (j,i) equal bits), so that x·Σ and
// Σ·x agree.
func RidgeInverse(g *mat.Dense, lambda float64) (*mat.Dense, error) {
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
