package solve

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// HalfNormal sets every x_i to scale·|z_i|, z_i ~ N(0, 1) drawn from rng in
// order: the entries of a random non-negative start.
func HalfNormal(rng *rand.Rand, scale float64, x []float64) {
	for i := range x {
		x[i] = scale * math.Abs(rng.NormFloat64())
	}
}

// RandomStart returns the random start of the NMF family for D (M×N) and K
// topics, scikit-learn's NMF(init="random") rule: every entry of U (M×K),
// then of V (N×K), row by row, is |z|·sqrt(mean(D)/K) with z ~ N(0, 1)
// from engine.NewRand(seed) and mean(D) over all M·N entries
// (sparse.Mean), so that the starting UVᵀ has the scale of the data. NMF,
// NMF_E/NMF_I and graph-regularized NMF start alike from it.
func RandomStart(d *sparse.CSR, k int, seed uint64) (u, v *mat.Dense) {
	scale := math.Sqrt(sparse.Mean(d) / float64(k))
	rng := engine.NewRand(seed)
	u, v = mat.NewDense(d.Rows, k, nil), mat.NewDense(d.Cols, k, nil)
	HalfNormal(rng, scale, u.RawMatrix().Data)
	HalfNormal(rng, scale, v.RawMatrix().Data)
	return u, v
}

// FiniteStart reports the first NaN or ±Inf entry of a fit's start, the
// factors in order (factors[i] named names[i]), as an error such as
// "U[3,1] = +Inf is not finite (the data's scale overflows float64)"
// (1-based indices) for the family to prefix: a fit must never return a
// non-finite iterate, so it refuses such data before its first iteration.
func FiniteStart(p *parallel.Pool, names []string, factors ...*mat.Dense) error {
	for i, f := range factors {
		if r, c, bad := dense.FirstNonFinite(p, f); bad {
			return fmt.Errorf("%s[%d,%d] = %v is not finite (the data's scale overflows float64)", names[i], r+1, c+1, f.At(r, c))
		}
	}
	return nil
}
