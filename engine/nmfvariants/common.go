package nmfvariants

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
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

// start checks the corpus and resolves the settings of NMF_E or NMF_I,
// and returns Dᵀ and the start: U0, V0 copied, or engine/solve's
// RandomStart (scikit-learn's NMF(init="random") rule, as engine/nmf
// uses), so the baselines start alike. A non-finite start (data whose scale
// overflows) is an error naming the family.
func (s settings) start(c *engine.Corpus) (set settings, dt *sparse.CSR, u, v *mat.Dense, err error) {
	if dt, err = c.Transposed(s.name); err != nil {
		return s, nil, nil, nil, err
	}
	if err = c.CheckNonNegative(s.name); err != nil {
		return s, nil, nil, nil, err
	}
	if set, err = s.resolve(c.Terms(), c.Docs()); err != nil {
		return set, nil, nil, nil, err
	}
	if set.u0 != nil {
		u, v = mat.DenseCopyOf(set.u0), mat.DenseCopyOf(set.v0)
	} else {
		u, v = solve.RandomStart(c.D, set.k, set.seed)
	}
	if err := solve.FiniteStart(set.pool, []string{"U", "V"}, u, v); err != nil {
		return set, nil, nil, nil, fmt.Errorf("%s: initialization: %w", set.name, err)
	}
	return set, dt, u, v, nil
}

// factors are the fitted U (M×K) and V (N×K) of NMF_E or NMF_I, with the
// settings of the fit.
type factors struct {
	set  settings
	u, v *mat.Dense
}

// TermTopics is U (M×K), the model's own matrix.
func (f *factors) TermTopics() *mat.Dense { return f.u }

// DocTopics is V (N×K), the model's own matrix.
func (f *factors) DocTopics() *mat.Dense { return f.v }

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
