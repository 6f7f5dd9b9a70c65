package gnmfnc

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective terms (their sum is L of Eq. 3) and
// sparsities.
const (
	TermLoss     = "loss"      // Σ_p λ_p‖D_p − [U_s, U_p]V_p‖²_F
	TermShared   = "R-shared"  // Σ_p α_p‖U_sᵀU_p‖²_F
	TermCategory = "R-between" // Σ_p Σ_{l≠p} β_l‖U_pᵀU_l‖²_F
	TermShrinkUs = "shrink-Us" // σ1‖U_sᵀ1 − 1‖²
	TermShrinkUp = "shrink-Up" // σ2 Σ_p ‖U_pᵀ1 − 1‖²
	TermShrinkV  = "shrink-V"  // σ3 Σ_p ‖V_p1 − 1‖²
	SparsityUs   = "Us"
	SparsityUp   = "Up"
	SparsityV    = "V"
	vUnitDocs    = sparse.RowBlock
)

// Fit minimizes L of Eq. 3 by the multiplicative updates of the package
// documentation through engine.Iterate, recording after each iteration L,
// its six terms, the wall time and the sparsity of U_s, [U_1 … U_P] and the
// V_p. A corpus without labels, with a document without a category, or with
// a category whose documents are all empty (λ_p = ‖D_p‖_F⁻² undefined) is
// an error, and so is a category whose ‖D_p‖²_F overflows float64 (λ_p
// would be 0 and the category would drop out of the fit), or Ks + Kp
// above min(M, N) (grouping.Layout.CheckK).
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	set, err := o.resolve()
	if err == nil {
		err = c.CheckNonNegative("gnmfnc")
	}
	if err != nil {
		return nil, engine.Status{}, err
	}
	return grouping.Fit(ctx, c, rec, "gnmfnc", set.stop, func(lay *grouping.Layout) (grouping.Solver, error) {
		if err := lay.CheckK("gnmfnc", set.ks, set.kp, "Kp"); err != nil {
			return nil, err
		}
		s, err := newSolver(set, lay)
		if err != nil {
			return nil, err
		}
		s.init(c.D)
		if err := solve.FiniteStart(set.pool, []string{"U", "V"}, s.u, s.v); err != nil {
			return nil, fmt.Errorf("gnmfnc: initialization: %w", err)
		}
		return s, nil
	})
}

// Model is the model of the current iterate.
func (s *solver) Model() engine.Model { return newModel(s) }

// solver holds the factors and buffers of one fit in engine/groupnmf's
// layout: U = [U_s | U_1 … U_P] (M×K) and the V_p compactly as one
// N×(Ks+Kp) matrix in class-major order (row n = [h_n; w_n]). u, v are the
// current iterate with its class Grams g (V_pV_pᵀ), class row sums r (V_p1)
// and topic Grams utu (Ũ_pᵀŨ_p); the *Next fields are the candidate.
type solver struct {
	set             settings
	lay             *grouping.Layout
	m, n            int
	grouping.Blocks           // Ks, Kc = Kp, P and the views U0 = U_s, Uc, Up, H, W
	lam             []float64 // λ_p = ‖D_p‖_F⁻² (0 for a category without documents)
	u, uNext        *mat.Dense
	v, vNext        *mat.Dense
	g, gNext        []*mat.Dense
	r, rNext        [][]float64
	utu, utuNext    []*mat.Dense
	vl              *mat.Dense // N×kt: λ_{class(n)}·v_n
	num0, den0, t0  *mat.Dense // M×Ks
	numc, denc, tc  *mat.Dense // M×P·Kp
	phi             *mat.Dense // N×kt: Ũ_pᵀD_p of the candidate U, stored transposed
	vden            *mat.Dense // N×kt: V_pᵀŨ_pᵀŨ_p of the current V, candidate U
	unitDot         []float64  // per V unit: ⟨V_unit, Φ_unit⟩ of the candidate
}

func newSolver(set settings, lay *grouping.Layout) (*solver, error) {
	s := &solver{set: set, lay: lay, m: lay.M, n: lay.N, Blocks: grouping.Blocks{Ks: set.ks, Kc: set.kp, P: lay.P}}
	s.lam = make([]float64, s.P)
	for p := range s.lam {
		var ss dense.Sum
		for i := lay.Offset[p]; i < lay.Offset[p+1]; i++ {
			_, vals := lay.DT.Row(i)
			for _, x := range vals {
				ss.Add(x * x)
			}
		}
		switch n2 := ss.Value(); {
		case math.IsInf(n2, 0) || math.IsNaN(n2):
			// λ_p would be 0 and the category would silently drop out.
			return nil, lay.CheckNorm("gnmfnc", n2)
		case lay.Size(p) == 0:
			// No documents: the category's loss term is identically 0.
		case n2 == 0:
			return nil, fmt.Errorf("gnmfnc: category %q has %d documents, all empty: λ_p = ‖D_p‖_F⁻² is undefined", lay.ClassNames[p], lay.Size(p))
		default:
			s.lam[p] = 1 / n2
		}
	}
	s.u, s.uNext = mat.NewDense(s.m, s.K(), nil), mat.NewDense(s.m, s.K(), nil)
	s.v, s.vNext = mat.NewDense(s.n, s.Kt(), nil), mat.NewDense(s.n, s.Kt(), nil)
	s.vl, s.phi, s.vden = mat.NewDense(s.n, s.Kt(), nil), mat.NewDense(s.n, s.Kt(), nil), mat.NewDense(s.n, s.Kt(), nil)
	s.num0, s.den0, s.t0 = mat.NewDense(s.m, s.Ks, nil), mat.NewDense(s.m, s.Ks, nil), mat.NewDense(s.m, s.Ks, nil)
	pk := s.P * s.Kc
	s.numc, s.denc, s.tc = mat.NewDense(s.m, pk, nil), mat.NewDense(s.m, pk, nil), mat.NewDense(s.m, pk, nil)
	s.utu, s.utuNext = s.NewGrams(), s.NewGrams()
	s.unitDot = make([]float64, len(lay.Units(vUnitDocs)))
	return s, nil
}

// init draws U_s, U_p and V_p by engine/groupnmf's random rule (the paper
// does not say how it starts; grouping.Blocks.RandomStart): every entry
// |z|·sqrt(mean(D)/(Ks+Kp)), z ~ N(0, 1) from engine.NewRand(Seed), U_s
// row by row, then U_1 … U_P each row by row, then the documents in corpus
// order.
func (s *solver) init(d *sparse.CSR) {
	s.RandomStart(s.lay, d, s.set.seed, s.u, s.v)
	s.g = s.lay.ClassGrams(s.set.pool, s.v)
	s.r = s.classRowSums(s.v)
	grouping.TopicGrams(s.set.pool, s.u, s.Ks, s.Kc, s.utu)
}

// Accept makes the candidate current.
func (s *solver) Accept() {
	s.u, s.uNext = s.uNext, s.u
	s.v, s.vNext = s.vNext, s.v
	s.g, s.gNext = s.gNext, s.g
	s.r, s.rNext = s.rNext, s.r
	s.utu, s.utuNext = s.utuNext, s.utu
}

// Step computes the candidate (uNext, vNext) from (u, v): U_s, then every
// U_p, then every V_p, each block's update using the blocks already
// updated (package documentation).
func (s *solver) Step(ctx context.Context, _ int) error {
	if err := s.updateUs(ctx); err != nil {
		return err
	}
	if err := s.updateUp(ctx); err != nil {
		return err
	}
	return s.updateV(ctx)
}

// scaleRows sets s.vl = λ_{class(n)}·v_n for every document row of v.
func (s *solver) scaleRows(v *mat.Dense) {
	s.set.pool.For(s.n, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			l := s.lam[s.lay.ClassOf[i]]
			dst, src := s.vl.RawRowView(i), v.RawRowView(i)
			for j, x := range src {
				dst[j] = l * x
			}
		}
	})
}

// updateUs sets U_s of uNext by Eq. (U_s) of the package documentation:
//
//	U_s ← U_s ∗ (Σ_p λ_pD_pH_pᵀ + σ1 + ε) /
//	      (Σ_p λ_p(U_sH_p + U_pW_p)H_pᵀ + α Σ_p U_pU_pᵀU_s + σ1 11ᵀU_s + ε)
func (s *solver) updateUs(ctx context.Context) error {
	p := s.set.pool
	s.scaleRows(s.v)
	sparse.MulDense(p, s.num0, s.lay.D, grouping.Cols(s.vl, 0, s.Ks)) // Σ_p λ_pD_pH_pᵀ
	addConst(s.num0, s.set.sig1)
	s0 := mat.NewDense(s.Ks, s.Ks, nil)      // Σ_p λ_pH_pH_pᵀ
	cst := mat.NewDense(s.P*s.Kc, s.Ks, nil) // [λ_pW_pH_pᵀ] stacked
	for q, gq := range s.g {
		var t mat.Dense
		t.Scale(s.lam[q], gq)
		s0.Add(s0, t.Slice(0, s.Ks, 0, s.Ks))
		cst.Slice(q*s.Kc, (q+1)*s.Kc, 0, s.Ks).(*mat.Dense).Copy(t.Slice(s.Ks, s.Kt(), 0, s.Ks))
	}
	dense.MulSmall(p, s.den0, s.U0(s.u), s0)
	dense.MulSmall(p, s.t0, s.Uc(s.u), cst)
	s.den0.Add(s.den0, s.t0)
	if s.set.alpha > 0 {
		x := mat.NewDense(s.P*s.Kc, s.Ks, nil)
		grouping.CrossProduct(p, x, s.Uc(s.u), s.U0(s.u)) // [U_pᵀU_s] stacked
		dense.MulSmall(p, s.t0, s.Uc(s.u), x)             // Σ_p U_pU_pᵀU_s
		addScaled(s.den0, s.set.alpha, s.t0)
	}
	if s.set.sig1 > 0 {
		addColSums(s.den0, s.set.sig1, colSums(p, s.U0(s.u)))
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return grouping.MultiplicativeStep(p, s.U0(s.uNext), s.U0(s.u), s.num0, s.den0, Eps, "U_s update", "U_s")
}

// updateUp sets every U_p of uNext by Eq. (U_p) of the package
// documentation, with the new U_s:
//
//	U_p ← U_p ∗ (λ_pD_pW_pᵀ + σ2 + ε) / (λ_p(U_sH_p + U_pW_p)W_pᵀ +
//	      αU_sU_sᵀU_p + 2β Σ_{l≠p} U_lU_lᵀU_p + σ2 11ᵀU_p + ε)
//
// All parts but the β sum are computed for every category at once; the β
// sum couples the categories, so the categories are updated in order, each
// with the U_l already updated (l < p) and the others (l > p) as they were.
func (s *solver) updateUp(ctx context.Context) error {
	p := s.set.pool
	usNew, ucOld := s.U0(s.uNext), s.Uc(s.u)
	s.lay.MulBlockDiag(p, s.numc, grouping.Cols(s.vl, s.Ks, s.Kt())) // [λ_pD_pW_pᵀ]
	addConst(s.numc, s.set.sig2)
	sp := make([]*mat.Dense, s.P)           // λ_pW_pW_pᵀ
	c2 := mat.NewDense(s.Ks, s.P*s.Kc, nil) // [λ_pH_pW_pᵀ]
	for q, gq := range s.g {
		sp[q] = mat.NewDense(s.Kc, s.Kc, nil)
		sp[q].Scale(s.lam[q], gq.Slice(s.Ks, s.Kt(), s.Ks, s.Kt()))
		grouping.Cols(c2, q*s.Kc, (q+1)*s.Kc).Scale(s.lam[q], gq.Slice(0, s.Ks, s.Ks, s.Kt()))
	}
	grouping.MulBlockDiagDense(p, s.denc, ucOld, sp)
	dense.MulSmall(p, s.tc, usNew, c2)
	s.denc.Add(s.denc, s.tc)
	if s.set.alpha > 0 {
		y := mat.NewDense(s.Ks, s.P*s.Kc, nil)
		grouping.CrossProduct(p, y, usNew, ucOld) // U_sᵀ[U_1 … U_P]
		dense.MulSmall(p, s.tc, usNew, y)         // [U_sU_sᵀU_p]
		addScaled(s.denc, s.set.alpha, s.tc)
	}
	if s.set.sig2 > 0 {
		addColSums(s.denc, s.set.sig2, colSums(p, ucOld))
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	ucNew := s.Uc(s.uNext)
	if s.set.beta == 0 || s.P == 1 {
		return grouping.MultiplicativeStep(p, ucNew, ucOld, s.numc, s.denc, Eps, "U_p update", "[U_1 … U_P]")
	}
	ucNew.Copy(ucOld)
	ct := mat.NewDense(s.Kc, s.P*s.Kc, nil)
	c := mat.NewDense(s.P*s.Kc, s.Kc, nil)
	t := mat.NewDense(s.m, s.Kc, nil)
	for q := 0; q < s.P; q++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		uq := s.Up(s.uNext, q)
		grouping.CrossProduct(p, ct, uq, ucNew) // U_qᵀ[U_1 … U_P], l < q new
		c.Copy(ct.T())
		c.Slice(q*s.Kc, (q+1)*s.Kc, 0, s.Kc).(*mat.Dense).Zero()
		dense.MulSmall(p, t, ucNew, c) // Σ_{l≠q} U_lU_lᵀU_q
		den := grouping.Cols(s.denc, q*s.Kc, (q+1)*s.Kc)
		addScaled(den, 2*s.set.beta, t)
		if err := grouping.MultiplicativeStep(p, uq, uq, grouping.Cols(s.numc, q*s.Kc, (q+1)*s.Kc), den, Eps, fmt.Sprintf("U_p update (category %d)", q), "U_p"); err != nil {
			return err
		}
	}
	return nil
}

// updateV sets vNext from v with the new U (Eq. (V_p) of the package
// documentation):
//
//	V_p ← V_p ∗ (λ_pŨ_pᵀD_p + σ3 + ε) / (λ_pŨ_pᵀŨ_pV_p + σ3 V_p11ᵀ + ε)
//
// over units of vUnitDocs documents within each category (V_p1, the row
// sums of the current V_p, computed before). It leaves Φ_p = Ũ_pᵀD_p in
// phi, ⟨V_p, Φ_p⟩ per unit in unitDot, and the candidate's Grams.
func (s *solver) updateV(ctx context.Context) error {
	p := s.set.pool
	grouping.TopicGrams(p, s.uNext, s.Ks, s.Kc, s.utuNext)
	units := s.lay.Units(vUnitDocs)
	sig3 := s.set.sig3
	p.For(len(units), 1, func(b, _, _ int) {
		if ctx.Err() != nil {
			return
		}
		un := units[b]
		x := grouping.RowView(s.lay.DT, un.Lo, un.Hi)
		phi := s.phi.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense)
		sparse.MulDense(p, grouping.Cols(phi, 0, s.Ks), x, s.U0(s.uNext))
		sparse.MulDense(p, grouping.Cols(phi, s.Ks, s.Kt()), x, s.Up(s.uNext, un.Class))
		vp := s.v.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense)
		den := s.vden.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense)
		dense.MulSmall(p, den, vp, s.utuNext[un.Class]) // V_pᵀ(Ũ_pᵀŨ_p)
		lam, rs := s.lam[un.Class], s.r[un.Class]
		var dot dense.Sum
		for i := 0; i < un.Hi-un.Lo; i++ {
			dst, xs := s.vNext.RawRowView(un.Lo+i), vp.RawRowView(i)
			ns, ds := phi.RawRowView(i), den.RawRowView(i)
			for j, xj := range xs {
				dst[j] = xj * (lam*ns[j] + sig3 + Eps) / (lam*ds[j] + sig3*rs[j] + Eps)
				dot.Add(dst[j] * ns[j])
			}
		}
		s.unitDot[b] = dot.Value()
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := s.lay.CheckDocs(p, s.vNext, "V_p update"); err != nil {
		return err
	}
	s.gNext = s.lay.ClassGrams(p, s.vNext)
	s.rNext = s.classRowSums(s.vNext)
	return nil
}

// Objective returns L of Eq. 3 at the candidate and its six terms. The
// loss of category p is λ_p(‖D_p‖² − 2⟨V_p, Ũ_pᵀD_p⟩ + ⟨V_pV_pᵀ, Ũ_pᵀŨ_p⟩)
// from products the updates computed (clamped at 0).
func (s *solver) Objective() (float64, []engine.Term) {
	p := s.set.pool
	dots := make([]dense.Sum, s.P)
	for b, un := range s.lay.Units(vUnitDocs) {
		dots[un.Class].Add(s.unitDot[b])
	}
	var loss, shared, shrinkV dense.Sum
	for q := 0; q < s.P; q++ {
		if s.lam[q] > 0 {
			l := s.lam[q] * (1/s.lam[q] - 2*dots[q].Value() + dense.Dot(p, s.gNext[q], s.utuNext[q]))
			loss.Add(math.Max(l, 0))
		}
		x := s.utuNext[q].Slice(0, s.Ks, s.Ks, s.Kt()).(*mat.Dense)
		shared.Add(s.set.alpha * dense.Dot(p, x, x))
		shrinkV.Add(s.set.sig3 * sqDistOne(s.rNext[q]))
	}
	between := 0.0
	if s.set.beta > 0 && s.P > 1 {
		pk := s.P * s.Kc
		gc := mat.NewDense(pk, pk, nil)
		dense.Gram(p, gc, s.Uc(s.uNext))
		var b dense.Sum
		for q := 0; q < s.P; q++ {
			for l := 0; l < s.P; l++ {
				if l != q {
					x := gc.Slice(q*s.Kc, (q+1)*s.Kc, l*s.Kc, (l+1)*s.Kc).(*mat.Dense)
					b.Add(dense.Dot(p, x, x))
				}
			}
		}
		between = s.set.beta * b.Value()
	}
	shrinkUs := s.set.sig1 * sqDistOne(colSums(p, s.U0(s.uNext)))
	shrinkUp := 0.0
	if s.set.sig2 > 0 {
		cs := colSums(p, s.Uc(s.uNext))
		for q := 0; q < s.P; q++ {
			shrinkUp += sqDistOne(cs[q*s.Kc : (q+1)*s.Kc])
		}
		shrinkUp *= s.set.sig2
	}
	terms := []engine.Term{{Name: TermLoss, Value: loss.Value()}, {Name: TermShared, Value: shared.Value()},
		{Name: TermCategory, Value: between}, {Name: TermShrinkUs, Value: shrinkUs},
		{Name: TermShrinkUp, Value: shrinkUp}, {Name: TermShrinkV, Value: shrinkV.Value()}}
	var total dense.Sum
	for _, t := range terms {
		total.Add(t.Value)
	}
	return total.Value(), terms
}

// Sparsity returns the zero fractions of U_s, [U_1 … U_P] and V.
func (s *solver) Sparsity() []engine.Term {
	return s.Blocks.Sparsity(s.set.pool, s.u, s.v, [3]string{SparsityUs, SparsityUp, SparsityV})
}

// classRowSums returns V_p1 (length Ks+Kp) for every category: per unit of
// dense.RowBlock documents, added in unit order.
func (s *solver) classRowSums(v *mat.Dense) [][]float64 {
	units := s.lay.Units(dense.RowBlock)
	part := make([][]float64, len(units))
	s.set.pool.For(len(units), 1, func(b, _, _ int) {
		sum := make([]float64, s.Kt())
		for i := units[b].Lo; i < units[b].Hi; i++ {
			for j, x := range v.RawRowView(i)[:s.Kt()] {
				sum[j] += x
			}
		}
		part[b] = sum
	})
	out := make([][]float64, s.P)
	for q := range out {
		out[q] = make([]float64, s.Kt())
	}
	for b, un := range units {
		for j, x := range part[b] {
			out[un.Class][j] += x
		}
	}
	return out
}

// colSums returns 1ᵀA (the column sums of A), summed in fixed row blocks of
// dense.RowBlock and over blocks in block order.
func colSums(p *parallel.Pool, a *mat.Dense) []float64 {
	r, c := a.Dims()
	part := make([][]float64, parallel.Blocks(r, dense.RowBlock))
	p.For(r, dense.RowBlock, func(b, lo, hi int) {
		s := make([]float64, c)
		for i := lo; i < hi; i++ {
			for j, x := range a.RawRowView(i)[:c] {
				s[j] += x
			}
		}
		part[b] = s
	})
	out := make([]float64, c)
	for _, s := range part {
		for j, x := range s {
			out[j] += x
		}
	}
	return out
}

// sqDistOne is ‖x − 1‖²₂.
func sqDistOne(x []float64) float64 {
	var s dense.Sum
	for _, v := range x {
		s.Add((v - 1) * (v - 1))
	}
	return s.Value()
}

// addConst adds c to every entry of a.
func addConst(a *mat.Dense, c float64) {
	if c == 0 {
		return
	}
	r, k := a.Dims()
	for i := 0; i < r; i++ {
		row := a.RawRowView(i)[:k]
		for j := range row {
			row[j] += c
		}
	}
}

// addScaled sets a += c·b.
func addScaled(a *mat.Dense, c float64, b *mat.Dense) {
	r, k := a.Dims()
	for i := 0; i < r; i++ {
		ar, br := a.RawRowView(i)[:k], b.RawRowView(i)[:k]
		for j := range ar {
			ar[j] += c * br[j]
		}
	}
}

// addColSums adds c·cs_j to every entry of column j of a: the term
// c·11ᵀX of a shrinkage gradient, cs = 1ᵀX.
func addColSums(a *mat.Dense, c float64, cs []float64) {
	r, k := a.Dims()
	for i := 0; i < r; i++ {
		row := a.RawRowView(i)[:k]
		for j := range row {
			row[j] += c * cs[j]
		}
	}
}
