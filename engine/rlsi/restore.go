package rlsi

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Restore returns the model whose factors are u (M×K, U) and v (N×K, row n
// = v_n), fitted elsewhere with the options o: by Distributed RLSI (the
// module distributed/), or read back from a model's exported files. The
// model folds in exactly as the model Fit returns with the same factors
// and options (RLSI Section 5; Model.FoldIn): the same Σ = (UᵀU + λ2 I)⁻¹,
// formed by the same kernels. u and v are held, not copied.
//
// o.Lambda1 and o.Lambda2 are the λs as used: o.RelativeLambda must be
// false (the data scale ŝ of a relative λ belongs to the training matrix,
// which Restore does not see); K is u's column count (o.K, if set, must
// agree). o.Variant, InnerSweeps and InnerTol are read as by Fit; the
// stopping rule, seed and initialization are not used.
func (o Options) Restore(u, v *mat.Dense) (*Model, error) {
	if u == nil || v == nil {
		return nil, fmt.Errorf("rlsi: Restore: nil factor")
	}
	if o.RelativeLambda {
		return nil, fmt.Errorf("rlsi: Restore: RelativeLambda is set; give λ1 and λ2 as used (λ·ŝ^{3/2} for an ℓ1 term, λ·ŝ for a squared ℓ2 term)")
	}
	m, k := u.Dims()
	n, kv := v.Dims()
	if kv != k || (o.K != 0 && o.K != k) {
		return nil, fmt.Errorf("rlsi: Restore: U is %d×%d and V is %d×%d, want the same K columns (K = %d)", m, k, n, kv, o.K)
	}
	for _, f := range []struct {
		name string
		a    *mat.Dense
	}{{"U", u}, {"V", v}} {
		r, c := f.a.Dims()
		for i := range r {
			for j, x := range f.a.RawRowView(i)[:c] {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, fmt.Errorf("rlsi: Restore: %s[%d,%d] = %v, want finite", f.name, i, j, x)
				}
			}
		}
	}
	o.K = k
	set, err := o.resolve(m, n)
	if err != nil {
		return nil, err
	}
	mod := newModel(&solver{set: set, u: u, v: v})
	mod.used = o.used(set)
	return mod, nil
}
