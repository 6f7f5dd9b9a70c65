package rlsi

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
)

// DataScale is ŝ = ‖D‖_F/√N, the root-mean-square Euclidean length of the
// documents (columns) of the M×N term-document matrix D; 0 for an empty or
// all-zero D. Options.RelativeLambda states λ1 and λ2 relative to it.
func DataScale(p *parallel.Pool, d *sparse.CSR) float64 {
	if d == nil || d.Cols == 0 {
		return 0
	}
	if p == nil {
		p = parallel.Default()
	}
	return math.Sqrt(sparse.FrobeniusSq(p, d) / float64(d.Cols))
}

// relativeLambdas returns λ1, λ2 multiplied by ŝ^{3/2} where they weigh an
// ℓ1 term and by ŝ where they weigh a squared ℓ2 term (Options.RelativeLambda).
func relativeLambdas(v Variant, l1, l2, s float64) (float64, float64, error) {
	if !(s > 0) || math.IsInf(s, 0) {
		return 0, 0, fmt.Errorf("rlsi: RelativeLambda needs a term-document matrix with a finite non-zero norm, got data scale ‖D‖_F/√N = %v", s)
	}
	f := func(l1norm bool, l float64) float64 {
		if l1norm {
			return l * s * math.Sqrt(s)
		}
		return l * s
	}
	return f(v.l1U(), l1), f(v.l1V(), l2), nil
}
