package grouprlsi

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective terms (in this order) and sparsities.
const (
	TermLoss   = "loss"            // Σ_p ‖D_p − Ũ_pV_p‖²_F
	TermU0     = "lambda1*|U0|_1"  // λ1 Σ|u⁽⁰⁾_mk|
	TermUp     = "lambda1*|Up|_1"  // λ1 Σ_p Σ|u⁽ᵖ⁾_mk|
	TermV      = "lambda2*|V|_F^2" // λ2 Σ_p Σ_n ‖v⁽ᵖ⁾_n‖²
	SparsityU0 = "U0"              // fraction of zeros of U0
	SparsityUp = "Up"              // fraction of zeros of [U_1, …, U_P]
	SparsityV  = "V"               // fraction of zeros of the V_p (Ks+Kc per document)
	cdBlock    = 64                // term rows per block of the lasso loops
	vUnitDocs  = sparse.RowBlock   // documents per unit of the V_p update
)

// Fit runs Algorithm 1 of GMF (GRLSI) on a labelled corpus: U_p ← 0 and V_p
// random for every class, then repeatedly U0 ← UpdateU0 (Alg. 2), U_p ←
// UpdateU_p (Alg. 3) and V_p ← UpdateV_p (Alg. 4) for every class, through
// engine.Iterate: recording after each iteration the wall time, the
// Sparsity of U0, [U_1 … U_P] and the V_p and (when evaluated) the
// Objective of Eq. 3 and its terms. It stops at the iteration limit or the
// relative-change tolerance, on cancellation or on a NaN/Inf (Status
// NumericalFailure naming the step), returning the last accepted iterate.
// A corpus without labels, with a document whose label is −1, or whose
// ‖D‖²_F overflows float64, is an error, and so is Ks + Kc above min(M,
// N) (grouping.Layout.CheckK).
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	set, err := o.resolve()
	if err != nil {
		return nil, engine.Status{}, err
	}
	return grouping.Fit(ctx, c, rec, "grouprlsi", set.stop, func(lay *grouping.Layout) (grouping.Solver, error) {
		if err := lay.CheckK("grouprlsi", set.ks, set.kc, "Kc"); err != nil {
			return nil, err
		}
		s := newSolver(set, lay)
		if err := lay.CheckNorm("grouprlsi", s.dnorm2); err != nil {
			return nil, err
		}
		s.initV(engine.NewRand(set.seed).NormFloat64)
		return s, nil
	})
}

// Model is the model of the current iterate.
func (s *solver) Model() engine.Model { return newModel(s) }

// solver holds the factors and work buffers of one fit. U = [U0 | U_1 … U_P]
// is one M×K matrix (K = Ks + P·Kc); the V_p are stored transposed and
// compactly as one N×(Ks+Kc) matrix in class-major order (row i is the
// document at position i: its Ks shared weights h, then its Kc class
// weights w). u and v are the last complete iterate; uNext and vNext
// receive the iterate being computed.
type solver struct {
	set             settings
	lay             *grouping.Layout
	m, n            int
	grouping.Blocks              // Ks, Kc, P and the views U0, Uc, H, W
	u, uNext        *mat.Dense   // M×K
	v, vNext        *mat.Dense   // N×kt
	r0, t0          *mat.Dense   // M×Ks: R0 and Σ_p U_pW_pH_pᵀ
	rc, tc          *mat.Dense   // M×P·Kc: [R_1 … R_P] and [U0H_1W_1ᵀ …]
	phi             *mat.Dense   // N×kt: row i = (Ũ_pᵀd_i)ᵀ
	g, gNext        []*mat.Dense // per class kt×kt: V_pV_pᵀ of v, of vNext
	utu             []*mat.Dense // per class kt×kt: Ũ_pᵀŨ_p of uNext
	sigma           []*mat.Dense // per class (Ũ_pᵀŨ_p + λ2 I)⁻¹
	dnorm2          float64
}

func newSolver(set settings, lay *grouping.Layout) *solver {
	s := &solver{set: set, lay: lay, m: lay.M, n: lay.N, Blocks: grouping.Blocks{Ks: set.ks, Kc: set.kc, P: lay.P}}
	s.u, s.uNext = mat.NewDense(s.m, s.K(), nil), mat.NewDense(s.m, s.K(), nil)
	if s.n > 0 {
		s.v, s.vNext = mat.NewDense(s.n, s.Kt(), nil), mat.NewDense(s.n, s.Kt(), nil)
		s.phi = mat.NewDense(s.n, s.Kt(), nil)
	}
	if s.Ks > 0 {
		s.r0, s.t0 = mat.NewDense(s.m, s.Ks, nil), mat.NewDense(s.m, s.Ks, nil)
	}
	if s.Kc > 0 {
		s.rc, s.tc = mat.NewDense(s.m, s.P*s.Kc, nil), mat.NewDense(s.m, s.P*s.Kc, nil)
	}
	s.utu = s.NewGrams()
	s.sigma = make([]*mat.Dense, s.P)
	s.dnorm2 = sparse.FrobeniusSq(set.pool, lay.D)
	return s
}

// initV sets V_p⁽⁰⁾ (GMF Algorithm 1 line 3, "random matrix"): every entry
// rnd() (Fit passes N(0, 1) draws from engine.NewRand(Seed)), drawn
// document by document in corpus order and, within a document, over its Ks
// shared then Kc class weights. U_p⁽⁰⁾ = 0 (line 2), and U0 is first computed from them. With one
// class and Kc = 0 these are exactly the draws of engine/rlsi.
func (s *solver) initV(rnd func() float64) {
	if s.n == 0 {
		return
	}
	raw := s.v.RawMatrix()
	for _, pos := range s.lay.Pos {
		row := raw.Data[pos*raw.Stride : pos*raw.Stride+s.Kt()]
		for j := range row {
			row[j] = rnd()
		}
	}
	s.g = s.classGrams(s.v)
}

func (s *solver) classGrams(v *mat.Dense) []*mat.Dense {
	if s.n == 0 {
		return s.NewGrams()
	}
	return s.lay.ClassGrams(s.set.pool, v)
}

// Step computes the candidate (uNext, vNext) of one iteration of GMF
// Algorithm 1 from (u, v): U0 (Alg. 2), then the U_p with the new U0
// (Alg. 3), then the V_p with the new U (Alg. 4), and the class Grams
// V_pV_pᵀ of the new V, which serve the objective and, once accepted, the
// next iteration. It returns ctx.Err() when cancelled between or inside the
// updates (the candidate is then incomplete and is discarded).
func (s *solver) Step(ctx context.Context, _ int) error {
	for _, update := range []func(context.Context) error{s.updateU0, s.updateUc, s.updateV} {
		if err := update(ctx); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	s.gNext = s.classGrams(s.vNext)
	return nil
}

// Objective is the objective of Eq. 3 at the candidate, the sum of its
// four terms.
func (s *solver) Objective() (float64, []engine.Term) {
	terms := s.objectiveTerms()
	return terms[0].Value + terms[1].Value + terms[2].Value + terms[3].Value, terms
}

// Accept makes the computed iterate current.
func (s *solver) Accept() {
	s.u, s.uNext = s.uNext, s.u
	s.v, s.vNext = s.vNext, s.v
	s.g, s.gNext = s.gNext, s.g
}

// block copies the [r0, r1) × [c0, c1) block of a kt×kt matrix into a
// packed (c1−c0)-stride slice.
func block(a *mat.Dense, r0, r1, c0, c1 int) []float64 {
	out := make([]float64, 0, (r1-r0)*(c1-c0))
	for i := r0; i < r1; i++ {
		for j := c0; j < c1; j++ {
			out = append(out, a.At(i, j))
		}
	}
	return out
}

// updateU0 is GMF Algorithm 2 (§4.1.1): with S0 = Σ_p H_pH_pᵀ and
// R0 = Σ_p D_pH_pᵀ − Σ_p U_pW_pH_pᵀ (Eq. 5–6), each row ū⁽⁰⁾_m solves the
// lasso min ‖d̄_m − Hᵀū‖² + λ1‖ū‖₁ by coordinate descent with
// soft-thresholding at λ1/2 (solve.Lasso, the update rule after Eq. 6).
// U_p are the current ones (old iterate), as in Algorithm 1 line 6.
func (s *solver) updateU0(ctx context.Context) error {
	if s.Ks == 0 {
		return nil
	}
	p := s.set.pool
	// S0 = Σ_p H_pH_pᵀ, the Ks×Ks leading blocks of the class Grams, added
	// in class order.
	s0 := s.SharedGram(s.g)
	if f := engine.CheckFinite(p, s0, "UpdateU0 (GMF Alg. 2 line 1): S0 = Σ H_pH_pᵀ", "S0"); f != nil {
		return f
	}
	if s.n > 0 {
		sparse.MulDense(p, s.r0, s.lay.D, s.H(s.v)) // Σ_p D_pH_pᵀ = D·Hᵀ
	} else {
		s.r0.Zero()
	}
	if s.Kc > 0 {
		// Σ_p U_p(W_pH_pᵀ) = [U_1 … U_P]·[C_1; …; C_P], C_p = W_pH_pᵀ (Kc×Ks).
		dense.MulSmall(p, s.t0, s.Uc(s.u), s.WH(s.g))
		s.r0.Sub(s.r0, s.t0)
	}
	return s.lassoUpdate(ctx, s.U0(s.uNext), s.U0(s.u), s.r0, [][]float64{s0.RawMatrix().Data}, s.Ks,
		"UpdateU0 (GMF Alg. 2 line 2): R0 = Σ D_pH_pᵀ − Σ U_pW_pH_pᵀ", "R0", "UpdateU0 (GMF Alg. 2)", "U0")
}

// updateUc is GMF Algorithm 3 (§4.1.2) for every class: with S_p = W_pW_pᵀ
// and R_p = D_pW_pᵀ − U0H_pW_pᵀ (the new U0, Algorithm 1 line 8), each row
// of U_p solves the lasso of Eq. 7 by the same coordinate descent. All
// classes are done in one pass: R_p for every class by one sweep over D
// (grouping.MulBlockDiag) and one product U0·[H_1W_1ᵀ … H_PW_Pᵀ]; the P·M
// row problems run over fixed blocks of term rows, each covering every
// class.
func (s *solver) updateUc(ctx context.Context) error {
	if s.Kc == 0 {
		return nil
	}
	p := s.set.pool
	sp := make([][]float64, s.P)
	for q, g := range s.g {
		sp[q] = block(g, s.Ks, s.Kt(), s.Ks, s.Kt())
		if f := engine.CheckFinite(p, mat.NewDense(s.Kc, s.Kc, sp[q]), fmt.Sprintf("UpdateU_p (GMF Alg. 3 line 1), class %d: S_p = W_pW_pᵀ", q), "S_p"); f != nil {
			return f
		}
	}
	if s.n > 0 {
		s.lay.MulBlockDiag(p, s.rc, s.W(s.v)) // [D_1W_1ᵀ … D_PW_Pᵀ]
	} else {
		s.rc.Zero()
	}
	if s.Ks > 0 {
		// U0·[H_1W_1ᵀ … H_PW_Pᵀ] with H_pW_pᵀ = (Ks×Kc) block of the class Gram.
		dense.MulSmall(p, s.tc, s.U0(s.uNext), s.HW(s.g))
		s.rc.Sub(s.rc, s.tc)
	}
	return s.lassoUpdate(ctx, s.Uc(s.uNext), s.Uc(s.u), s.rc, sp, s.Kc,
		"UpdateU_p (GMF Alg. 3 line 2): R_p = D_pW_pᵀ − U0H_pW_pᵀ", "R_p", "UpdateU_p (GMF Alg. 3)", "U_p")
}

// lassoUpdate ends a topic update (UpdateU0, UpdateU_p) once the
// right-hand sides r of its lasso rows are computed: unless cancelled, it
// checks r (an *engine.NonFiniteError of step rStep naming rName), solves
// the rows into dst by lassoRows from prev, and, unless cancelled meanwhile,
// checks dst (step, named name).
func (s *solver) lassoUpdate(ctx context.Context, dst, prev, r *mat.Dense, ss [][]float64, k int, rStep, rName, step, name string) error {
	p := s.set.pool
	if err := ctx.Err(); err != nil {
		return err
	}
	if f := engine.CheckFinite(p, r, rStep, rName); f != nil {
		return f
	}
	s.lassoRows(ctx, dst, prev, r, ss, k)
	if err := ctx.Err(); err != nil {
		return err
	}
	return engine.CheckFinite(p, dst, step, name)
}

// lassoRows solves, for every term row m and every segment q of width k
// (len(ss) segments), min_x xᵀS_qx − 2r_{m,q}ᵀx + λ1‖x‖₁ by solve.Lasso
// (SolveRows per segment and block: Solve's bits for every row), starting
// from the same segment of prev (or zero when ColdStart), writing dst.
// Blocks of cdBlock rows run in parallel; a block starting after
// cancellation is skipped. Each row's result depends on that row alone.
func (s *solver) lassoRows(ctx context.Context, dst, prev, r *mat.Dense, ss [][]float64, k int) {
	rows, _ := dst.Dims()
	draw, praw, rraw := dst.RawMatrix(), prev.RawMatrix(), r.RawMatrix()
	set := s.set
	set.pool.For(rows, cdBlock, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		lasso := solve.NewLasso(k)
		for q, sq := range ss {
			rows := solve.Rows{
				N: hi - lo,
				R: rraw.Data[lo*rraw.Stride+q*k:], RStride: rraw.Stride,
				X: draw.Data[lo*draw.Stride+q*k:], XStride: draw.Stride,
			}
			if !set.coldStart {
				rows.Start, rows.StartStride = praw.Data[lo*praw.Stride+q*k:], praw.Stride
			}
			lasso.SolveRows(sq, set.lambda1, rows, set.innerSweeps, set.innerTol)
		}
	})
}

// updateV is GMF Algorithm 4 (§4.1.3) for every class: Σ_p = (Ũ_pᵀŨ_p +
// λ2 I)⁻¹ (Cholesky, solve.RidgeInverse), Φ_p = Ũ_pᵀD_p and v⁽ᵖ⁾_n = Σ_pφ⁽ᵖ⁾_n,
// with the new U0 and U_p. The documents run as units of vUnitDocs documents
// within each class (grouping.Layout.Units), so a class of any size is
// split evenly over the pool; each document's row depends on it alone.
func (s *solver) updateV(ctx context.Context) error {
	p := s.set.pool
	grouping.TopicGrams(p, s.uNext, s.Ks, s.Kc, s.utu)
	errs := make([]error, s.P)
	p.For(s.P, 1, func(q, _, _ int) {
		s.sigma[q], errs[q] = solve.RidgeInverse(s.utu[q], s.set.lambda2)
	})
	for q, err := range errs {
		if err != nil {
			return engine.NonFinite(fmt.Sprintf("UpdateV_p (GMF Alg. 4 line 1), class %d: Σ_p = (Ũ_pᵀŨ_p + λ2 I)⁻¹", q), "%v", err)
		}
	}
	if s.n == 0 {
		return nil
	}
	units := s.lay.Units(vUnitDocs)
	u0, uc := (*mat.Dense)(nil), (*mat.Dense)(nil)
	if s.Ks > 0 {
		u0 = s.U0(s.uNext)
	}
	if s.Kc > 0 {
		uc = s.Uc(s.uNext)
	}
	p.For(len(units), 1, func(b, _, _ int) {
		if ctx.Err() != nil {
			return
		}
		un := units[b]
		x := grouping.RowView(s.lay.DT, un.Lo, un.Hi)
		phi := s.phi.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense)
		if s.Ks > 0 {
			sparse.MulDense(p, grouping.Cols(phi, 0, s.Ks), x, u0) // D_pᵀU0
		}
		if s.Kc > 0 {
			sparse.MulDense(p, grouping.Cols(phi, s.Ks, s.Kt()), x, grouping.Cols(uc, un.Class*s.Kc, (un.Class+1)*s.Kc)) // D_pᵀU_p
		}
		dense.MulSmall(p, s.vNext.Slice(un.Lo, un.Hi, 0, s.Kt()).(*mat.Dense), phi, s.sigma[un.Class])
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	return engine.CheckFinite(p, s.vNext, "UpdateV_p (GMF Alg. 4)", "V")
}

// objectiveTerms returns the terms of Eq. 3 at (uNext, vNext), given utu
// and phi of uNext and the class Grams gNext of vNext (all left by step).
// The loss is Σ_p ‖D_p − Ũ_pV_p‖²_F = ‖D‖²_F − 2⟨V, Φ⟩ +
// Σ_p ⟨V_pV_pᵀ, Ũ_pᵀŨ_p⟩ (grouping.ClassResidualSq).
func (s *solver) objectiveTerms() []engine.Term {
	p := s.set.pool
	loss, vreg := s.dnorm2, 0.0
	if s.n > 0 {
		loss = grouping.ClassResidualSq(p, s.dnorm2, dense.Dot(p, s.vNext, s.phi), s.gNext, s.utu)
		vreg = s.set.lambda2 * dense.Dot(p, s.vNext, s.vNext)
	}
	u0, uc := 0.0, 0.0
	if s.Ks > 0 {
		u0 = s.set.lambda1 * dense.SumAbs(p, s.U0(s.uNext))
	}
	if s.Kc > 0 {
		uc = s.set.lambda1 * dense.SumAbs(p, s.Uc(s.uNext))
	}
	return []engine.Term{{Name: TermLoss, Value: loss}, {Name: TermU0, Value: u0}, {Name: TermUp, Value: uc}, {Name: TermV, Value: vreg}}
}

// Sparsity returns the zero fractions of U0, [U_1 … U_P] and V (current
// iterate); a factor with no entries reads 0.
func (s *solver) Sparsity() []engine.Term {
	return s.Blocks.Sparsity(s.set.pool, s.u, s.v, [3]string{SparsityU0, SparsityUp, SparsityV})
}
