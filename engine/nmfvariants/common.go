package nmfvariants

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective terms and factors.
const (
	TermLoss       = "loss"           // NMF_E: ‖D − UVᵀ‖²_F
	TermRegU       = "lambda*|U|_F^2" // NMF_E: λ‖U‖²_F
	TermRegV       = "lambda*|V|_F^2" // NMF_E: λ‖V‖²_F
	TermDivergence = "I-divergence"   // NMF_I: D(D ‖ UVᵀ)
	SparsityU      = "U"
	SparsityV      = "V"
)

// meanOf is the mean of all M·N entries of D (zeros included).
func meanOf(d *sparse.CSR) float64 {
	var s dense.Sum
	for _, v := range d.Val {
		s.Add(v)
	}
	return s.Value() / (float64(d.Rows) * float64(d.Cols))
}

// initFactors returns the start: U0, V0 copied, or every entry of U then V
// (row by row) |z|·sqrt(mean(D)/K) with z standard normal from
// engine.NewRand(seed) — scikit-learn's NMF(init="random") rule, as
// engine/nmf uses, so the baselines start alike.
func initFactors(c *engine.Corpus, s settings) (u, v *mat.Dense) {
	if s.u0 != nil {
		return mat.DenseCopyOf(s.u0), mat.DenseCopyOf(s.v0)
	}
	avg := math.Sqrt(meanOf(c.D) / float64(s.k))
	rng := engine.NewRand(s.seed)
	u = mat.NewDense(c.Terms(), s.k, nil)
	v = mat.NewDense(c.Docs(), s.k, nil)
	for _, f := range []*mat.Dense{u, v} {
		raw := f.RawMatrix().Data
		for i := range raw {
			raw[i] = avg * math.Abs(rng.NormFloat64())
		}
	}
	return u, v
}

// checkStart reports a non-finite entry of the start (U then V): an error
// naming the step, since a fit must never return a non-finite iterate.
func checkStart(name string, p *parallel.Pool, u, v *mat.Dense) error {
	for _, f := range []struct {
		name string
		m    *mat.Dense
	}{{"U", u}, {"V", v}} {
		if r, k, bad := dense.FirstNonFinite(p, f.m); bad {
			return fmt.Errorf("%s: initialization: %s[%d,%d] = %v is not finite (the data's scale overflows float64)", name, f.name, r+1, k+1, f.m.At(r, k))
		}
	}
	return nil
}

// nonFinite returns the *engine.NonFiniteError of step for the first
// NaN/Inf entry of the factor named what, or nil.
func nonFinite(p *parallel.Pool, step, what string, a *mat.Dense) error {
	if r, c, bad := dense.FirstNonFinite(p, a); bad {
		return engine.NonFinite(step, "%s[%d,%d] = %v", what, r, c, a.At(r, c))
	}
	return nil
}

// sparsity returns the recorded zero fractions of U and V.
func sparsity(p *parallel.Pool, u, v *mat.Dense) []engine.Term {
	return []engine.Term{{Name: SparsityU, Value: dense.ZeroFraction(p, u)}, {Name: SparsityV, Value: dense.ZeroFraction(p, v)}}
}

// colSums returns Σ_i a_ik for every column (compensated, fixed blocks).
func colSums(p *parallel.Pool, a *mat.Dense) []float64 {
	r, k := a.Dims()
	part := make([][]dense.Sum, parallel.Blocks(r, dense.RowBlock))
	raw := a.RawMatrix()
	p.For(r, dense.RowBlock, func(b, lo, hi int) {
		s := make([]dense.Sum, k)
		for i := lo; i < hi; i++ {
			for j, x := range raw.Data[i*raw.Stride : i*raw.Stride+k] {
				s[j].Add(x)
			}
		}
		part[b] = s
	})
	out := make([]float64, k)
	for j := range out {
		var s dense.Sum
		for _, b := range part {
			s.AddSum(b[j])
		}
		out[j] = s.Value()
	}
	return out
}

// docBlock is the number of documents per block of fold-in.
const docBlock = 256
