package groupnmf

import (
	"gonum.org/v1/gonum/mat"
)

// directLoss evaluates Eq. 9 entry by entry from dense matrices: d is M×N
// (corpus order), u = [U0 | U_1 … U_P], v the N×K DocTopics.
func directLoss(d, u, v *mat.Dense) float64 {
	var uv mat.Dense
	uv.Mul(u, v.T())
	m, n := d.Dims()
	loss := 0.0
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			e := d.At(i, j) - uv.At(i, j)
			loss += e * e
		}
	}
	return loss
}
