package rlsi

import "gonum.org/v1/gonum/mat"

// RidgeInverse returns (G + λI)⁻¹ for a K×K symmetric positive semidefinite
// G and λ > 0 (see ridgeInverse: Cholesky, result exactly symmetric). It is
// exported for the group models (engine/grouprlsi, GMF Algorithm 4 line 1).
func RidgeInverse(g *mat.Dense, lambda float64) (*mat.Dense, error) {
	return ridgeInverse(g, lambda)
}

// Lasso is the coordinate-descent lasso solver of the ℓ1 updates (lassoCD)
// with its work space kept between calls, for a fixed K: one per goroutine
// (not safe for concurrent use). It is exported for the group models
// (engine/grouprlsi), whose row sub-problems (GMF Eq. 6 and Eq. 7) are the
// same lasso and must give the same bits as RLSI when they reduce to it.
type Lasso struct {
	k int
	w *lassoScratch
}

// NewLasso returns a Lasso for K×K problems.
func NewLasso(k int) *Lasso { return &Lasso{k: k, w: newLassoScratch(k)} }

// Solve minimizes xᵀSx − 2rᵀx + λ‖x‖₁ (S K×K row-major, stride K) from
// the starting point in x, writing the result there, with lassoCD's rule
// and stopping test, and returns the number of sweeps.
func (l *Lasso) Solve(s, r []float64, lambda float64, x []float64, maxSweeps int, tol float64) int {
	return int(lassoCD(s, l.k, r, lambda, x, l.w, maxSweeps, tol).sweeps)
}
