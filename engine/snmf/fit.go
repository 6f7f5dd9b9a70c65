package snmf

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// DefaultK is the number of topics when K is 0.
const DefaultK = 10

// Options configures an SNMF/R fit; every option is declared once, by its
// tags (engine/param). Start from Defaults(): in a Go literal η and β at 0
// mean exactly 0 (plain ANLS NMF), while K and the iteration limit at 0
// select their defaults. Options implements engine.Method.
type Options struct {
	// K is the number of topics, 1 ≤ K ≤ min(M, N).
	K int `param:"k" default:"10" range:"[1,inf)" doc:"number of topics K (1 ≤ K ≤ min(terms, documents))"`
	// Eta is η, the weight of ‖U‖²_F; it bounds the scale of U, which β > 0
	// would otherwise let grow without limit (Kim & Park use η = max(A)²).
	Eta float64 `param:"eta" default:"0.01" range:"[0,inf)" doc:"η, weight of ‖U‖²_F (bounds the topics' scale)"`
	// Beta is β, the weight of Σ_n ‖v_n‖²₁: larger β, sparser documents.
	Beta float64 `param:"beta" default:"0.01" range:"[0,inf)" doc:"β, weight of Σ_n ‖v_n‖₁² (larger: sparser documents)"`
	// Stopping is the stopping rule on the objective (engine.Stopping).
	Stopping engine.Stopping `param:"iters,tol" tol:"relative decrease of the objective that stops the fit; 0 runs every iteration"`
	// Seed seeds the random starting U (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random starting U"`
	// Pool runs the parallel kernels; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults.
func Defaults() Options { return param.DefaultsOf[Options]() }

// Name is the registry name "snmf".
func (o Options) Name() string { return "snmf" }

// ANLS configures plain NMF by alternating NNLS: SNMF/R with η = β = 0.
type ANLS struct {
	K        int             `param:"k" default:"10" range:"[1,inf)" doc:"number of topics K (1 ≤ K ≤ min(terms, documents))"`
	Stopping engine.Stopping `param:"iters,tol" tol:"relative decrease of ½‖D−UVᵀ‖²_F that stops the fit; 0 runs every iteration"`
	Seed     uint64          `param:"seed" default:"1" doc:"seed of the random starting U"`
	Pool     *parallel.Pool
}

// DefaultsANLS returns the declared defaults of ANLS.
func DefaultsANLS() ANLS { return param.DefaultsOf[ANLS]() }

// Name is the registry name "nmf-anls".
func (o ANLS) Name() string { return "nmf-anls" }

// Fit is Options.Fit with η = β = 0.
func (o ANLS) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	return Options{K: o.K, Stopping: o.Stopping, Seed: o.Seed, Pool: o.Pool}.fit(ctx, o.Name(), c, rec)
}

func (o Options) validate(name string, m, n int) (Options, error) {
	if err := o.Stopping.Validate(); err != nil {
		return o, fmt.Errorf("%s: %w", name, err)
	}
	if err := param.Check(o); err != nil {
		return o, fmt.Errorf("%s: %w", name, err)
	}
	if err := engine.ResolveK(name, &o.K, DefaultK, m, n); err != nil {
		return o, err
	}
	return o, nil
}

// Fit factorizes the corpus's term-document matrix (doc.go).
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	return o.fit(ctx, o.Name(), c, rec)
}

func (o Options) fit(ctx context.Context, name string, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, o, err := engine.Prepare(c, name, func(m, n int) (Options, error) { return o.validate(name, m, n) })
	if err != nil {
		return nil, engine.Status{}, err
	}
	a := Sparse{A: c.D, AT: dt}
	u, err := RandomStart(a, o.K, o.Seed, o.Pool)
	if err != nil {
		return nil, engine.Status{}, fmt.Errorf("%s: %w", name, err)
	}
	s := NewSolver(o.Pool, a, u, mat.NewDense(c.Docs(), o.K, nil), o.Eta, o.Beta)
	st := engine.Iterate(ctx, o.Stopping, rec, s.Steps())
	return &Model{U: s.U, V: s.V, name: name, opts: o}, st, nil
}

// RandomStart returns a starting U (M×K) as scikit-learn's NMF(init="random")
// draws W: |z|·√(mean(A)/K) with z standard normal, row by row, where mean(A)
// is the mean of all M·N entries (√(mean|A|/K) when A has negative entries).
// ANLS needs no starting V: the first step solves for it.
func RandomStart(a Matrix, k int, seed uint64, p *parallel.Pool) (*mat.Dense, error) {
	m, n := a.Dims()
	ones := mat.NewDense(m, 1, nil)
	for i := range m {
		ones.Set(i, 0, 1)
	}
	colSums := mat.NewDense(n, 1, nil)
	a.MulTU(p, colSums, ones)
	var s dense.Sum
	for _, v := range colSums.RawMatrix().Data {
		s.Add(math.Abs(v))
	}
	scale := math.Sqrt(s.Value() / (float64(m) * float64(n)) / float64(k))
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, fmt.Errorf("initialization: the scale √(mean(A)/K) = %v is not a positive finite number (an all-zero matrix, or entries that overflow float64)", scale)
	}
	rnd := engine.NewRand(seed)
	u := mat.NewDense(m, k, nil)
	solve.HalfNormal(rnd, scale, u.RawMatrix().Data)
	return u, nil
}

// Solver runs ANLS iterations on a Matrix: the trial-step contract of
// engine.Iterate, with the factors U (M×K) and V (N×K) exported so that a
// caller (the joint topic-document model) can warm-start and read them.
type Solver struct {
	U, V      *mat.Dense
	eta, beta float64

	p            *parallel.Pool
	a            Matrix
	normA2       float64
	uNext, vNext *mat.Dense
	gu, gv, g    *mat.Dense // UᵀU, VᵀV of the candidate; the Gram of an NNLS
	av, atu      *mat.Dense // A V (M×K), Aᵀ U (N×K)
}

// NewSolver returns a solver starting from U (V is only the buffer the first
// step overwrites) with weights η and β.
func NewSolver(p *parallel.Pool, a Matrix, u, v *mat.Dense, eta, beta float64) *Solver {
	m, n := a.Dims()
	_, k := u.Dims()
	return &Solver{U: u, V: v, eta: eta, beta: beta, p: p, a: a, normA2: a.FrobeniusSq(p),
		uNext: mat.NewDense(m, k, nil), vNext: mat.NewDense(n, k, nil),
		gu: mat.NewDense(k, k, nil), gv: mat.NewDense(k, k, nil), g: mat.NewDense(k, k, nil),
		av: mat.NewDense(m, k, nil), atu: mat.NewDense(n, k, nil)}
}

// SetData replaces A (same shape) and the weights, keeping the factors: the
// joint topic-document model calls it once per outer iteration.
func (s *Solver) SetData(a Matrix, eta, beta float64) {
	s.a, s.eta, s.beta, s.normA2 = a, eta, beta, a.FrobeniusSq(s.p)
}

// Steps is the solver as engine.Iterate's steps.
func (s *Solver) Steps() engine.Steps {
	return engine.Steps{Step: s.Step, Objective: s.Objective, Accept: s.Accept, Sparsity: s.sparsity}
}

// Step computes the candidate (U, V) of one ANLS iteration: V by NNLS with
// Gram UᵀU + β11ᵀ and right-hand sides AᵀU, then U by NNLS with Gram
// VᵀV + ηI and right-hand sides AV of the new V.
func (s *Solver) Step(_ context.Context, _ int) error {
	dense.Gram(s.p, s.gu, s.U)
	s.g.Copy(s.gu)
	addConstant(s.g, s.beta)
	s.a.MulTU(s.p, s.atu, s.U)
	if err := solve.NNLS(s.p, s.vNext, s.g, s.atu); err != nil {
		return engine.NonFinite("V update", "%v", err)
	}
	dense.Gram(s.p, s.gv, s.vNext)
	s.g.Copy(s.gv)
	addDiagonal(s.g, s.eta)
	s.a.MulV(s.p, s.av, s.vNext)
	if err := solve.NNLS(s.p, s.uNext, s.g, s.av); err != nil {
		return engine.NonFinite("U update", "%v", err)
	}
	dense.Gram(s.p, s.gu, s.uNext)
	return nil
}

// Objective is ½{‖A − UVᵀ‖²_F + η‖U‖²_F + β Σ_n (1ᵀv_n)²} at the candidate,
// the loss from ‖A‖² − 2⟨U, AV⟩ + ⟨UᵀU, VᵀV⟩ (sparse.ResidualSqParts).
func (s *Solver) Objective() (float64, []engine.Term) {
	loss := 0.5 * sparse.ResidualSqParts(s.p, s.normA2, s.uNext, s.av, s.gu, s.gv)
	ridge := 0.5 * s.eta * traceOf(s.gu)
	l1sq := 0.5 * s.beta * RowL1Sq(s.vNext)
	return loss + ridge + l1sq, []engine.Term{{Name: "loss/2", Value: loss}, {Name: "eta/2*|U|_F^2", Value: ridge}, {Name: "beta/2*sum|v_n|_1^2", Value: l1sq}}
}

// Accept makes the candidate current.
func (s *Solver) Accept() {
	s.U, s.uNext = s.uNext, s.U
	s.V, s.vNext = s.vNext, s.V
}

func (s *Solver) sparsity() []engine.Term {
	return []engine.Term{{Name: "U", Value: dense.ZeroFraction(s.p, s.U)}, {Name: "V", Value: dense.ZeroFraction(s.p, s.V)}}
}

// RowL1Sq is Σ_n (Σ_k |v_nk|)², the ‖S‖²_{1,2} of the ICASSP paper for V =
// Sᵀ, summed in row order.
func RowL1Sq(v *mat.Dense) float64 {
	var s dense.Sum
	r, _ := v.Dims()
	for i := range r {
		l1 := 0.0
		for _, x := range v.RawRowView(i) {
			l1 += math.Abs(x)
		}
		s.Add(l1 * l1)
	}
	return s.Value()
}

func traceOf(g *mat.Dense) float64 {
	k, _ := g.Dims()
	t := 0.0
	for i := range k {
		t += g.At(i, i)
	}
	return t
}

func addConstant(g *mat.Dense, c float64) {
	if c == 0 {
		return
	}
	raw := g.RawMatrix().Data
	for i := range raw {
		raw[i] += c
	}
}

func addDiagonal(g *mat.Dense, c float64) {
	k, _ := g.Dims()
	for i := range k {
		g.Set(i, i, g.At(i, i)+c)
	}
}

// foldIn solves the V problem for new documents X (rows, n×M, checked by
// the caller) with U fixed: v = argmin_{v ≥ 0} ‖Uv − x‖² + β(1ᵀv)², i.e.
// NNLS(UᵀU + β11ᵀ, XU).
func foldIn(p *parallel.Pool, u *mat.Dense, beta float64, x *sparse.CSR) (*mat.Dense, error) {
	_, k := u.Dims()
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	g := mat.NewDense(k, k, nil)
	dense.Gram(p, g, u)
	addConstant(g, beta)
	xu := mat.NewDense(x.Rows, k, nil)
	sparse.MulDense(p, xu, x, u)
	v := mat.NewDense(x.Rows, k, nil)
	if err := solve.NNLS(p, v, g, xu); err != nil {
		return nil, fmt.Errorf("FoldIn: %w", err)
	}
	return v, nil
}
