package jtd

import (
	"cmp"
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rsvd"
	"github.com/topicmf/topicmf/engine/snmf"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Term and diagnostic names recorded per iteration. The objective recorded
// is the augmented Lagrangian of Eq. 5 at the new iterate, the sum of the
// five terms; the paper's objective (Eq. 4) is the sum of the first three.
const (
	TermS        = "|S|_{1,2}^2"
	TermE        = "lambda*|E|_1"
	TermN        = "tau/2*|N|_F^2"
	TermPenalty  = "mu/2*|D-BS-E-N|_F^2"
	TermLagrange = "<Y,D-BS-E-N>"
	DiagResidual = "residual"
	DiagMu       = "mu"
)

// Fit learns B, S, E and N from the corpus's term-document matrix (doc.go).
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, err := c.Transposed("jtd")
	if err != nil {
		return nil, engine.Status{}, err
	}
	set, err := o.resolve(c.D, dt)
	if err != nil {
		return nil, engine.Status{}, err
	}
	b, v, err := initialFactors(ctx, snmf.Sparse{A: c.D, AT: dt}, set)
	if err != nil {
		return nil, engine.Status{}, fmt.Errorf("jtd: %w", err)
	}
	s := newSolver(set, dt, b, v)
	st := engine.Iterate(ctx, engine.Stopping{MaxIter: set.maxIter, RelTol: -1}, rec, engine.Steps{
		Step: s.step, Objective: s.objective, Accept: s.accept,
		Sparsity: s.sparsity, Diagnostics: s.diagnostics,
		Converged: func(_, _ float64) bool { return s.residual <= set.residualTol },
	})
	return &Model{set: set, B: s.b, S: s.v, E: s.e, N: s.nz, BS: s.bs, Residual: s.residual}, st, nil
}

// resolve applies the defaults, computing the data scales they need. They
// are computed whatever the state of the fit's context (‖D‖₂, the default
// μ0's, is a rank-1 randomized SVD, cheaper than one outer iteration): a
// cancelled fit still returns a model whose fold-in has its μ0, with
// Status Cancelled, as engine.Method says, rather than an error.
func (o Options) resolve(d, dt *sparse.CSR) (settings, error) {
	if err := o.check(); err != nil {
		return settings{}, err
	}
	m, n := d.Rows, d.Cols
	set := settings{k: cmp.Or(o.K, DefaultK), gamma: cmp.Or(o.Gamma, DefaultGamma), rho: cmp.Or(o.Rho, DefaultRho),
		inner: cmp.Or(o.InnerIters, DefaultInnerIters), maxIter: cmp.Or(o.MaxIter, DefaultMaxIter),
		residualTol: o.ResidualTol, seed: o.Seed, pool: o.Pool}
	if err := engine.ResolveK("jtd", &set.k, DefaultK, m, n); err != nil {
		return set, err
	}
	// Beyond B and S, a fit holds ten dense N×M matrices (E, N, Y, BS and
	// X⁽³⁾, each twice): as a document factor of K + 10M columns.
	if err := engine.CheckMemory("jtd", set.k, set.k+10*m, m, n); err != nil {
		return set, err
	}
	normD := sparse.Frobenius(set.pool, d)
	if math.IsInf(normD, 0) {
		return set, fmt.Errorf("jtd: ‖D‖_F overflows float64: rescale the data")
	}
	set.sigmaHat = normD / math.Sqrt(float64(d.NNZ()))
	var mass dense.Sum
	for _, v := range d.Val {
		mass.Add(v)
	}
	set.meanL1 = mass.Value() / float64(n)
	set.lambda = cmp.Or(o.Lambda, cmp.Or(o.LambdaFactor, 1)*set.meanL1)
	set.tau = cmp.Or(o.Tau, cmp.Or(o.TauFactor, 1)*set.lambda/set.sigmaHat)
	set.initIters = o.InitIters
	if set.initIters == 0 {
		set.initIters = DefaultInitIters
	} else if set.initIters < 0 {
		set.initIters = 0
	}
	set.mu0 = o.Mu0
	if set.mu0 == 0 {
		top, err := rsvd.SVD(context.Background(), d, dt, rsvd.Options{K: 1, Seed: o.Seed, Pool: set.pool})
		if err != nil {
			return set, fmt.Errorf("jtd: ‖D‖₂ for the default μ0: %w", err)
		}
		set.spectralNorm = top.S[0]
		set.mu0 = 1.25 / set.spectralNorm
	}
	set.muMax = cmp.Or(o.MuMax, DefaultMuMaxFactor*set.mu0)
	if set.muMax < set.mu0 {
		return set, fmt.Errorf("jtd: μ_max = %v is below μ0 = %v", set.muMax, set.mu0)
	}
	return set, nil
}

// solver holds the iterate (current and candidate) of one fit.
type solver struct {
	set   settings
	p     *parallel.Pool
	dt    *sparse.CSR // Dᵀ, N×M: one row per document
	normD float64

	b, bNext       *mat.Dense // B, M×K
	v, vNext       *mat.Dense // Sᵀ, N×K
	e, eNext       *mat.Dense // Eᵀ, N×M
	nz, nNext      *mat.Dense // Nᵀ, N×M
	y, yNext       *mat.Dense // Yᵀ, N×M
	bs, bsNext     *mat.Dense // (BS)ᵀ, N×M
	x3, x3t        *mat.Dense // X⁽³⁾ᵀ (N×M) and X⁽³⁾ (M×N)
	bt             *mat.Dense // Bᵀ scratch, K×M
	inner          *snmf.Solver
	mu, muUsed     float64
	residual, next float64 // primal residual of the current iterate, of the candidate
	sums           partSums
}

// initialFactors starts (B, S) from InitIters iterations of ANLS NMF on a = D
// (engine/snmf, η = β = 0) from a random B, normalized by Eq. 12, so that
// the first E step sees the residual of a topic fit rather than all of D.
func initialFactors(ctx context.Context, a snmf.Sparse, set settings) (b, v *mat.Dense, err error) {
	b, err = snmf.RandomStart(a, set.k, set.seed, set.pool)
	if err != nil {
		return nil, nil, err
	}
	s := snmf.NewSolver(set.pool, a, b, mat.NewDense(a.A.Cols, set.k, nil), 0, 0)
	if set.initIters > 0 {
		st := engine.Iterate(ctx, engine.Stopping{MaxIter: set.initIters, RelTol: -1}, nil, s.Steps())
		if st.Reason == engine.NumericalFailure {
			return nil, nil, fmt.Errorf("initialization by ANLS NMF: %s", st.Detail)
		}
	}
	normalizeColumns(s.U, s.V)
	return s.U, s.V, nil
}

func newSolver(set settings, dt *sparse.CSR, b, v *mat.Dense) *solver {
	n, m := dt.Rows, dt.Cols
	k := set.k
	nm := func() *mat.Dense { return mat.NewDense(n, m, nil) }
	s := &solver{set: set, p: set.pool, dt: dt, normD: sparse.Frobenius(set.pool, dt),
		b: b, bNext: mat.NewDense(m, k, nil), v: v, vNext: mat.NewDense(n, k, nil),
		e: nm(), eNext: nm(), nz: nm(), nNext: nm(), y: nm(), yNext: nm(), bs: nm(), bsNext: nm(),
		x3: nm(), x3t: mat.NewDense(m, n, nil), bt: mat.NewDense(k, m, nil),
		mu: set.mu0, residual: math.NaN()}
	lowRank(set.pool, s.bs, v, b, s.bt)
	s.inner = snmf.NewSolver(set.pool, snmf.Dense{A: s.x3t, AT: s.x3}, mat.NewDense(m, k, nil), mat.NewDense(n, k, nil), 0, 0)
	return s
}

// step computes the candidate of one outer iteration (doc.go) into the
// *Next buffers, leaving the current iterate untouched.
func (s *solver) step(ctx context.Context, _ int) error {
	mu := s.mu
	splitParts(s.p, s.set, mu, s.dt, s.bs, s.y, s.nz, s.eNext, s.nNext, s.x3)
	transpose(s.p, s.x3t, s.x3)

	// (B, S) by SNMF/R on X⁽³⁾ (Eq. 11), warm-started from B.
	s.inner.U.Copy(s.b)
	s.inner.SetData(snmf.Dense{A: s.x3t, AT: s.x3}, 2*s.set.gamma/mu, 2/mu)
	for it := 1; it <= s.set.inner; it++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.inner.Step(ctx, it); err != nil {
			return engine.NonFinite("(B, S) sub-problem", "inner iteration %d: %v", it, err)
		}
		s.inner.Accept()
	}
	s.bNext.Copy(s.inner.U)
	s.vNext.Copy(s.inner.V)
	normalizeColumns(s.bNext, s.vNext) // Eq. 12
	if err := engine.CheckFinite(s.p, s.bNext, "(B, S) sub-problem", "B"); err != nil {
		return err
	}
	if err := engine.CheckFinite(s.p, s.vNext, "(B, S) sub-problem", "Sᵀ"); err != nil {
		return err
	}
	lowRank(s.p, s.bsNext, s.vNext, s.bNext, s.bt)
	s.sums = updateMultiplier(s.p, mu, s.dt, s.bsNext, s.eNext, s.nNext, s.y, s.yNext)
	if !s.sums.finite() {
		return engine.NonFinite("multiplier update", "Y or the residual is not finite (Σz² = %v, Σy² = %v)", s.sums.z2, s.sums.y2)
	}
	s.next = math.Sqrt(s.sums.z2) / s.normD
	return nil
}

// objective is the augmented Lagrangian (Eq. 5) at the candidate, with the
// μ of this iteration and the multiplier before its update.
func (s *solver) objective() (float64, []engine.Term) {
	terms := []engine.Term{
		{Name: TermS, Value: snmf.RowL1Sq(s.vNext)},
		{Name: TermE, Value: s.set.lambda * s.sums.absE},
		{Name: TermN, Value: s.set.tau / 2 * s.sums.n2},
		{Name: TermPenalty, Value: s.mu / 2 * s.sums.z2},
		{Name: TermLagrange, Value: s.sums.yz},
	}
	f := 0.0
	for _, t := range terms {
		f += t.Value
	}
	return f, terms
}

func (s *solver) accept() {
	s.b, s.bNext = s.bNext, s.b
	s.v, s.vNext = s.vNext, s.v
	s.e, s.eNext = s.eNext, s.e
	s.nz, s.nNext = s.nNext, s.nz
	s.y, s.yNext = s.yNext, s.y
	s.bs, s.bsNext = s.bsNext, s.bs
	s.residual = s.next
	s.muUsed = s.mu
	s.mu = math.Min(s.set.rho*s.mu, s.set.muMax)
}

func (s *solver) sparsity() []engine.Term {
	return []engine.Term{
		{Name: "E", Value: dense.ZeroFraction(s.p, s.e)},
		{Name: "S", Value: dense.ZeroFraction(s.p, s.v)},
		{Name: "B", Value: dense.ZeroFraction(s.p, s.b)},
	}
}

func (s *solver) diagnostics() []engine.Term {
	return []engine.Term{{Name: DiagResidual, Value: s.residual}, {Name: DiagMu, Value: s.muUsed}}
}
