package nmf

import (
	"context"
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/rsvd"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// initFactors returns the starting U (M×K) and V (N×K) of D (M×N, with its
// transpose DT) for resolved options.
func initFactors(d, dt *sparse.CSR, o Options) (u, v *mat.Dense, err error) {
	k := o.K
	switch o.Init {
	case InitCustom:
		return mat.DenseCopyOf(o.U0), mat.DenseCopyOf(o.V0), nil
	case InitNNDSVD, InitNNDSVDA:
		svd, err := rsvd.SVD(context.Background(), d, dt, rsvd.Options{K: k, Seed: o.Seed, Pool: o.Pool})
		if err != nil {
			return nil, nil, err
		}
		u, v = nndsvd(svd)
		if o.Init == InitNNDSVDA {
			avg := sparse.Mean(d)
			for _, f := range []*mat.Dense{u, v} {
				raw := f.RawMatrix().Data
				for i, x := range raw {
					if x == 0 {
						raw[i] = avg
					}
				}
			}
		}
		return u, v, nil
	}
	// Random (scikit-learn's rule): |N(0,1)|·sqrt(mean(D)/K), U then V.
	u, v = solve.RandomStart(d, k, o.Seed)
	return u, v, nil
}

// nndsvd is Boutsidis & Gallopoulos (2008), Table 1: from the leading K
// singular triplets (u_j, σ_j, v_j) of D,
//
//	U[:,0] = √σ₀·|u₀|,  V[:,0] = √σ₀·|v₀|
//
// and for j ≥ 1, with x₊ = max(x, 0), x₋ = max(−x, 0) and
// m₊ = ‖u₊‖‖v₊‖, m₋ = ‖u₋‖‖v₋‖, the dominant sign pair
//
//	(p, q, μ) = (u₊/‖u₊‖, v₊/‖v₊‖, m₊) if m₊ > m₋, else (u₋/‖u₋‖, v₋/‖v₋‖, m₋),
//	U[:,j] = √(σ_j μ)·p,  V[:,j] = √(σ_j μ)·q.
//
// A pair with μ = 0 gives zero columns (the paper divides by zero there).
// Entries below NNDSVDZero are then set to 0, as scikit-learn does.
func nndsvd(s *rsvd.Result) (u, v *mat.Dense) {
	m, k := s.U.Dims()
	n, _ := s.V.Dims()
	u = mat.NewDense(m, k, nil)
	v = mat.NewDense(n, k, nil)
	col := func(a *mat.Dense, j int) []float64 { return mat.Col(nil, j, a) }
	split := func(x []float64) (pos, neg []float64, np, nn float64) {
		pos, neg = make([]float64, len(x)), make([]float64, len(x))
		var sp, sn dense.Sum
		for i, xi := range x {
			if xi > 0 {
				pos[i] = xi
				sp.Add(xi * xi)
			} else if xi < 0 {
				neg[i] = -xi
				sn.Add(xi * xi)
			}
		}
		return pos, neg, math.Sqrt(sp.Value()), math.Sqrt(sn.Value())
	}
	for j := 0; j < k; j++ {
		x, y := col(s.U, j), col(s.V, j)
		var p, q []float64
		var scale float64
		if j == 0 {
			p, q = x, y
			for i := range p {
				p[i] = math.Abs(p[i])
			}
			for i := range q {
				q[i] = math.Abs(q[i])
			}
			scale = math.Sqrt(s.S[0])
		} else {
			xp, xn, xpn, xnn := split(x)
			yp, yn, ypn, ynn := split(y)
			mp, mn := xpn*ypn, xnn*ynn
			var mu, pn, qn float64
			if mp > mn {
				p, q, mu, pn, qn = xp, yp, mp, xpn, ypn
			} else {
				p, q, mu, pn, qn = xn, yn, mn, xnn, ynn
			}
			if mu == 0 {
				continue
			}
			lbd := math.Sqrt(s.S[j] * mu)
			for i := range p {
				p[i] /= pn
			}
			for i := range q {
				q[i] /= qn
			}
			scale = lbd
		}
		for i, pi := range p {
			if w := scale * pi; w >= NNDSVDZero {
				u.Set(i, j, w)
			}
		}
		for i, qi := range q {
			if w := scale * qi; w >= NNDSVDZero {
				v.Set(i, j, w)
			}
		}
	}
	return u, v
}
