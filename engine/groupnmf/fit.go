package groupnmf

import (
	"context"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective term and sparsities.
const (
	TermLoss   = "loss" // Σ_p ‖D_p − Ũ_pV_p‖²_F, the objective of Eq. 9
	SparsityU0 = "U0"   // fraction of zeros of U0
	SparsityUp = "Up"   // fraction of zeros of [U_1 … U_P]
	SparsityV  = "V"    // fraction of zeros of the V_p (Ks+Kc per document)
	vUnitDocs  = sparse.RowBlock
)

// Fit runs Algorithm 5 of GMF (Group NMF) on a labelled corpus: random
// non-negative U0, U_p and V_p, then repeatedly the multiplicative updates
// of lines 7 (U0), 9 (U_p) and 10 (V_p) through engine.Iterate, recording
// after each iteration the wall time, the sparsity of U0, [U_1 … U_P] and
// the V_p and (when evaluated) the loss of Eq. 9. It stops at the iteration
// limit or the relative-change tolerance, on cancellation or on a NaN/Inf
// (Status NumericalFailure naming the step), returning the last accepted
// iterate. A corpus without labels, with a document whose label is −1, or
// whose ‖D‖²_F overflows float64, is an error, and so is Ks + Kc above
// min(M, N) (grouping.Layout.CheckK).
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	set, err := o.resolve()
	if err == nil {
		err = c.CheckNonNegative("groupnmf")
	}
	if err != nil {
		return nil, engine.Status{}, err
	}
	return grouping.Fit(ctx, c, rec, "groupnmf", set.stop, func(lay *grouping.Layout) (grouping.Solver, error) {
		if err := lay.CheckK("groupnmf", set.ks, set.kc, "Kc"); err != nil {
			return nil, err
		}
		s := newSolver(set, lay)
		if err := lay.CheckNorm("groupnmf", s.dnorm2); err != nil {
			return nil, err
		}
		s.init(c.D)
		return s, nil
	})
}

// Model is the model of the current iterate.
func (s *solver) Model() engine.Model { return newModel(s) }

// solver holds the factors and buffers of one fit, laid out as in
// engine/grouprlsi: U = [U0 | U_1 … U_P] (M×K) and the V_p compactly as one
// N×(Ks+Kc) matrix in class-major order. u, v are the last complete
// iterate; uNext, vNext receive the iterate being computed.
type solver struct {
	set             settings
	lay             *grouping.Layout
	m, n            int
	grouping.Blocks              // Ks, Kc, P and the views U0, Uc, H, W
	u, uNext        *mat.Dense   // M×K
	v, vNext        *mat.Dense   // N×kt
	num0, den0      *mat.Dense   // M×Ks
	numc, denc, tc  *mat.Dense   // M×P·Kc
	phi, vden       *mat.Dense   // N×kt: Ũ_pᵀD_p and Ũ_pᵀŨ_pV_p, stored transposed
	g, gNext        []*mat.Dense // V_pV_pᵀ of v, of vNext
	utu, utuNext    []*mat.Dense // Ũ_pᵀŨ_p of u, of uNext
	dnorm2          float64
	lossT           float64 // Σ_p ⟨Ũ_pV_p, D_p⟩ of (uNext, vNext)
}

func newSolver(set settings, lay *grouping.Layout) *solver {
	s := &solver{set: set, lay: lay, m: lay.M, n: lay.N, Blocks: grouping.Blocks{Ks: set.ks, Kc: set.kc, P: lay.P}}
	s.u, s.uNext = mat.NewDense(s.m, s.K(), nil), mat.NewDense(s.m, s.K(), nil)
	s.v, s.vNext = mat.NewDense(s.n, s.Kt(), nil), mat.NewDense(s.n, s.Kt(), nil)
	s.phi, s.vden = mat.NewDense(s.n, s.Kt(), nil), mat.NewDense(s.n, s.Kt(), nil)
	if s.Ks > 0 {
		s.num0, s.den0 = mat.NewDense(s.m, s.Ks, nil), mat.NewDense(s.m, s.Ks, nil)
	}
	if s.Kc > 0 {
		s.numc, s.denc = mat.NewDense(s.m, s.P*s.Kc, nil), mat.NewDense(s.m, s.P*s.Kc, nil)
		if s.Ks > 0 {
			s.tc = mat.NewDense(s.m, s.P*s.Kc, nil)
		}
	}
	s.utu, s.utuNext = s.NewGrams(), s.NewGrams()
	s.dnorm2 = sparse.FrobeniusSq(set.pool, lay.D)
	return s
}

// init draws U0, U_p and V_p (GMF Algorithm 5 lines 1–4, "random matrix")
// by engine/nmf's random rule (grouping.Blocks.RandomStart: with one class
// and Kc = 0 exactly engine/nmf's draws). The U_p of a class without
// documents is set to zero (the objective does not depend on it).
func (s *solver) init(d *sparse.CSR) {
	s.RandomStart(s.lay, d, s.set.seed, s.u, s.v)
	for p := 0; p < s.P && s.Kc > 0; p++ {
		if s.lay.Size(p) == 0 {
			s.Up(s.u, p).Zero()
		}
	}
	s.g = s.lay.ClassGrams(s.set.pool, s.v)
	grouping.TopicGrams(s.set.pool, s.u, s.Ks, s.Kc, s.utu)
}

// Accept makes the computed iterate current.
func (s *solver) Accept() {
	s.u, s.uNext = s.uNext, s.u
	s.v, s.vNext = s.vNext, s.v
	s.g, s.gNext = s.gNext, s.g
	s.utu, s.utuNext = s.utuNext, s.utu
}

// Step computes the candidate (uNext, vNext) from (u, v): Algorithm 5's U0
// (line 7), U_p (line 9), V_p (line 10), or with VFirst V_p, U0, U_p. It
// leaves gNext = V_pV_pᵀ of vNext, utuNext = Ũ_pᵀŨ_p of uNext and lossT for
// the loss. It returns an *engine.NonFiniteError naming the update that
// produced a NaN/Inf, or ctx.Err() when cancelled between or inside the
// updates (the candidate is then incomplete and is discarded).
func (s *solver) Step(ctx context.Context, _ int) error {
	if s.set.vFirst {
		if err := s.updateV(ctx, s.u, s.utu); err != nil {
			return err
		}
		s.gNext = s.lay.ClassGrams(s.set.pool, s.vNext)
		if err := s.updateU(ctx, s.vNext, s.gNext); err != nil {
			return err
		}
		grouping.TopicGrams(s.set.pool, s.uNext, s.Ks, s.Kc, s.utuNext)
		// ⟨U, D Vᵀ⟩ from the U numerators D·Hᵀ and [D_pW_pᵀ] of the new V.
		p := s.set.pool
		s.lossT = 0
		if s.Ks > 0 {
			s.lossT = dense.Dot(p, s.U0(s.uNext), s.num0)
		}
		if s.Kc > 0 {
			s.lossT += dense.Dot(p, s.Uc(s.uNext), s.numc)
		}
		return nil
	}
	if err := s.updateU(ctx, s.v, s.g); err != nil {
		return err
	}
	grouping.TopicGrams(s.set.pool, s.uNext, s.Ks, s.Kc, s.utuNext)
	if err := s.updateV(ctx, s.uNext, s.utuNext); err != nil {
		return err
	}
	s.gNext = s.lay.ClassGrams(s.set.pool, s.vNext)
	// ⟨V, Φ⟩ with Φ_p = Ũ_pᵀD_p of the new U (the V numerators).
	s.lossT = dense.Dot(s.set.pool, s.vNext, s.phi)
	return nil
}

// Objective is the loss of Eq. 9 at the candidate (uNext, vNext), the
// whole objective: Σ_p ‖D_p − Ũ_pV_p‖²_F from lossT and the Grams the step
// left (grouping.ClassResidualSq).
func (s *solver) Objective() (float64, []engine.Term) {
	f := grouping.ClassResidualSq(s.set.pool, s.dnorm2, s.lossT, s.gNext, s.utuNext)
	return f, []engine.Term{{Name: TermLoss, Value: f}}
}

// updateU computes uNext from u with V = vc (and its class Grams g):
//
//	U0 ← U0 ∗ (Σ_p D_pH_pᵀ + ε) / (U0 Σ_p H_pH_pᵀ + Σ_p U_pW_pH_pᵀ + ε)     (line 7)
//	U_p ← U_p ∗ (D_pW_pᵀ + ε) / (U_pW_pW_pᵀ + U0H_pW_pᵀ + ε)                 (line 9)
//
// the U_p update using the new U0, as Algorithm 5 orders them. Numerators
// are D·Hᵀ and grouping.MulBlockDiag; denominators are small dense
// products with the blocks of the class Grams.
func (s *solver) updateU(ctx context.Context, vc *mat.Dense, g []*mat.Dense) error {
	p := s.set.pool
	if s.Ks > 0 {
		s0 := s.SharedGram(g)
		sparse.MulDense(p, s.num0, s.lay.D, s.H(vc)) // Σ_p D_pH_pᵀ
		dense.MulSmall(p, s.den0, s.U0(s.u), s0)     // U0 Σ_p H_pH_pᵀ
		if s.Kc > 0 {
			t0 := mat.NewDense(s.m, s.Ks, nil)
			dense.MulSmall(p, t0, s.Uc(s.u), s.WH(g)) // Σ_p U_pW_pH_pᵀ
			s.den0.Add(s.den0, t0)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if f := grouping.MultiplicativeStep(p, s.U0(s.uNext), s.U0(s.u), s.num0, s.den0, Eps, "U0 update (GMF Alg. 5 line 7)", "U0"); f != nil {
			return f
		}
	}
	if s.Kc > 0 {
		sp := make([]*mat.Dense, s.P)
		for q, gq := range g {
			sp[q] = mat.DenseCopyOf(gq.Slice(s.Ks, s.Kt(), s.Ks, s.Kt()))
		}
		s.lay.MulBlockDiag(p, s.numc, s.W(vc))               // [D_pW_pᵀ]
		grouping.MulBlockDiagDense(p, s.denc, s.Uc(s.u), sp) // [U_pW_pW_pᵀ]
		if s.Ks > 0 {
			dense.MulSmall(p, s.tc, s.U0(s.uNext), s.HW(g)) // U0H_pW_pᵀ with the new U0
			s.denc.Add(s.denc, s.tc)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if f := grouping.MultiplicativeStep(p, s.Uc(s.uNext), s.Uc(s.u), s.numc, s.denc, Eps, "U_p update (GMF Alg. 5 line 9)", "[U_1 … U_P]"); f != nil {
			return f
		}
	}
	return nil
}

// updateV computes vNext from v with U = uc (and its Grams utu):
//
//	V_p ← V_p ∗ (Ũ_pᵀD_p + ε) / (Ũ_pᵀŨ_pV_p + ε)     (line 10)
//
// over units of vUnitDocs documents within each class, leaving Φ_p = Ũ_pᵀD_p
// (stored transposed) in phi.
func (s *solver) updateV(ctx context.Context, uc *mat.Dense, utu []*mat.Dense) error {
	p := s.set.pool
	units := s.lay.Units(vUnitDocs)
	p.For(len(units), 1, func(b, _, _ int) {
		if ctx.Err() != nil {
			return
		}
		un := units[b]
		x := grouping.RowView(s.lay.DT, un.Lo, un.Hi)
		phi := s.phi.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense)
		if s.Ks > 0 {
			sparse.MulDense(p, grouping.Cols(phi, 0, s.Ks), x, s.U0(uc)) // D_pᵀU0
		}
		if s.Kc > 0 {
			sparse.MulDense(p, grouping.Cols(phi, s.Ks, s.Kt()), x, grouping.Cols(uc, s.Ks+un.Class*s.Kc, s.Ks+(un.Class+1)*s.Kc)) // D_pᵀU_p
		}
		vp := s.v.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense)
		den := s.vden.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense)
		dense.MulSmall(p, den, vp, utu[un.Class]) // V_pᵀ(Ũ_pᵀŨ_p)
		grouping.MultiplicativeRows(s.vNext.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense), vp, phi, den, Eps)
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.lay.CheckDocs(p, s.vNext, "V_p update (GMF Alg. 5 line 10)")
}

// Sparsity returns the zero fractions of U0, [U_1 … U_P] and V (current
// iterate); a factor with no entries reads 0.
func (s *solver) Sparsity() []engine.Term {
	return s.Blocks.Sparsity(s.set.pool, s.u, s.v, [3]string{SparsityU0, SparsityUp, SparsityV})
}
