package rlsi

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/lassoref"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/solve"
	"gonum.org/v1/gonum/mat"
)

// testSolver builds a solver for c with the given options and sets V (N×K
// stored) to v0 with S = VVᵀ.
func testSolver(t *testing.T, c *engine.Corpus, o Options, v0 *mat.Dense) *solver {
	t.Helper()
	set, err := o.resolve(c.Terms(), c.Docs())
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(set, c.D, c.DT)
	s.v.Copy(v0)
	dense.Gram(set.pool, s.sv, s.v)
	return s
}

func randomDense(seed uint64, r, c int, normal bool) *mat.Dense {
	rnd := engine.NewRand(seed)
	a := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if normal {
				a.Set(i, j, rnd.NormFloat64())
			} else {
				a.Set(i, j, rnd.Float64())
			}
		}
	}
	return a
}

// refGramAndR returns S = VᵀV (the paper's VVᵀ) and R = D·V (the paper's
// DVᵀ) by plain gonum products, independent of the engine kernels.
func refGramAndR(d, v *mat.Dense) (*mat.Dense, *mat.Dense) {
	var s, r mat.Dense
	s.Mul(v.T(), v)
	r.Mul(d, v)
	return &s, &r
}

func TestUpdateUK1ClosedForm(t *testing.T) {
	// K = 1: each u_m = S_{λ1/2}(d̄_m·v)/(v·v), the lasso solution of Eq. 3
	// with one variable.
	c := testcorpus.CorpusOf(t, randomSparse(1, 40, 25, 0.3))
	v0 := randomDense(2, 25, 1, false)
	lambda1 := 1.7
	s := testSolver(t, c, Options{K: 1, Lambda1: lambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, v0)
	if f := s.updateU(context.Background()); f != nil {
		t.Fatal(f)
	}
	d := testcorpus.DenseOf(c.D)
	vv := mat.Dot(v0.ColView(0), v0.ColView(0))
	zeros := 0
	for m := 0; m < 40; m++ {
		dv := mat.Dot(d.RowView(m), v0.ColView(0))
		want := solve.SoftThreshold(dv, lambda1/2) / vv
		if want == 0 {
			zeros++
		}
		if got := s.uNext.At(m, 0); math.Abs(got-want) > 1e-14*math.Max(1, math.Abs(want)) {
			t.Errorf("u[%d] = %.17g, want %.17g", m, got, want)
		}
	}
	if zeros == 0 || zeros == 40 {
		t.Errorf("%d of 40 rows are zero: λ1 should cut some but not all (test not discriminating)", zeros)
	}
}

func TestUpdateUOrthogonalDesign(t *testing.T) {
	// V's topics supported on disjoint documents make S = VVᵀ diagonal, and
	// then u_mk = S_{λ1/2}(r_mk)/s_kk, the soft-thresholded least squares.
	const n, k = 30, 3
	c := testcorpus.CorpusOf(t, randomSparse(3, 50, n, 0.4))
	v0 := mat.NewDense(n, k, nil)
	rnd := engine.NewRand(4)
	for j := 0; j < n; j++ {
		v0.Set(j, j%k, 0.1+rnd.Float64())
	}
	lambda1 := 0.8
	s := testSolver(t, c, Options{K: k, Lambda1: lambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, v0)
	if f := s.updateU(context.Background()); f != nil {
		t.Fatal(f)
	}
	sRef, rRef := refGramAndR(testcorpus.DenseOf(c.D), v0)
	for m := 0; m < 50; m++ {
		for j := 0; j < k; j++ {
			want := solve.SoftThreshold(rRef.At(m, j), lambda1/2) / sRef.At(j, j)
			if got := s.uNext.At(m, j); math.Abs(got-want) > 1e-13*math.Max(1, math.Abs(want)) {
				t.Errorf("u[%d,%d] = %.17g, want %.17g", m, j, got, want)
			}
		}
	}
}

func TestUpdateULassoMatchesBruteForce(t *testing.T) {
	// ℓ1 U update with correlated topics: every converged row equals the
	// exact lasso minimizer found by sign-pattern enumeration.
	const m, n, k = 30, 20, 3
	c := testcorpus.CorpusOf(t, randomSparse(5, m, n, 0.3))
	v0 := randomDense(6, n, k, false)
	lambda1 := 0.9
	s := testSolver(t, c, Options{K: k, Lambda1: lambda1, InnerSweeps: 100000, InnerTol: 1e-15, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping()}, v0)
	if f := s.updateU(context.Background()); f != nil {
		t.Fatal(f)
	}
	sRef, rRef := refGramAndR(testcorpus.DenseOf(c.D), v0)
	checkLassoRows(t, "u", s.uNext, sRef, rRef, lambda1)
}

// checkLassoRows checks that every row of got (n×K) is the exact lasso
// minimizer for the Gram matrix g and its row of rhs found by sign-pattern
// enumeration (values to 1e-9, zeros exactly), and that the zeros are
// neither none nor all (else the test would not discriminate).
func checkLassoRows(t *testing.T, name string, got, g, rhs *mat.Dense, lambda float64) {
	t.Helper()
	n, k := got.Dims()
	gp := packed(g)
	zeros := 0
	for i := 0; i < n; i++ {
		want := lassoref.Brute(gp, k, rhs.RawRowView(i), lambda)
		for j := 0; j < k; j++ {
			if want[j] == 0 {
				zeros++
			}
			if x := got.At(i, j); math.Abs(x-want[j]) > 1e-9 || (x == 0) != (want[j] == 0) {
				t.Errorf("%s[%d,%d] = %.15g, brute force %.15g", name, i, j, x, want[j])
			}
		}
	}
	if zeros == 0 || zeros == n*k {
		t.Errorf("%d of %d entries zero: test not discriminating", zeros, n*k)
	}
}

func TestUpdateURidgeMatchesSolve(t *testing.T) {
	// ℓ2 on U: U = DVᵀ(VVᵀ + λ1 I)⁻¹, checked against mat.Solve of
	// (S + λ1 I) Uᵀ = Rᵀ.
	for _, k := range []int{1, 4, 7} {
		c := testcorpus.CorpusOf(t, randomSparse(7, 35, 25, 0.3))
		v0 := randomDense(8, 25, k, true)
		lambda1 := 0.3
		s := testSolver(t, c, Options{K: k, Lambda1: lambda1, Variant: U2V2, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, v0)
		if f := s.updateU(context.Background()); f != nil {
			t.Fatal(f)
		}
		sRef, rRef := refGramAndR(testcorpus.DenseOf(c.D), v0)
		for i := 0; i < k; i++ {
			sRef.Set(i, i, sRef.At(i, i)+lambda1)
		}
		var ut mat.Dense
		if err := ut.Solve(sRef, rRef.T()); err != nil {
			t.Fatal(err)
		}
		want := mat.DenseCopyOf(ut.T())
		if d := matcmp.MaxAbsDiff(s.uNext, want); d > 1e-10 {
			t.Errorf("K=%d: max |U − solve| = %g, want ≤ 1e-10", k, d)
		}
	}
}

func TestUpdateVRidgeMatchesSolve(t *testing.T) {
	// ℓ2 on V (Algorithm 3): v_n = (UᵀU + λ2 I)⁻¹ Uᵀ d_n, checked against
	// mat.Solve of (UᵀU + λ2 I) V = UᵀD.
	for _, k := range []int{1, 5} {
		c := testcorpus.CorpusOf(t, randomSparse(9, 40, 30, 0.25))
		lambda2 := 0.7
		s := testSolver(t, c, Options{K: k, Lambda2: lambda2, Lambda1: DefaultLambda1, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, randomDense(10, 30, k, false))
		u := randomDense(11, 40, k, true)
		s.uNext.Copy(u)
		if f := s.updateV(context.Background()); f != nil {
			t.Fatal(f)
		}
		var a, b, vt mat.Dense
		a.Mul(u.T(), u)
		for i := 0; i < k; i++ {
			a.Set(i, i, a.At(i, i)+lambda2)
		}
		b.Mul(u.T(), testcorpus.DenseOf(c.D))
		if err := vt.Solve(&a, &b); err != nil {
			t.Fatal(err)
		}
		if d := matcmp.MaxAbsDiff(s.vNext, mat.DenseCopyOf(vt.T())); d > 1e-10 {
			t.Errorf("K=%d: max |V − solve| = %g, want ≤ 1e-10", k, d)
		}
	}
}

func TestUpdateVLassoMatchesBruteForce(t *testing.T) {
	// ℓ1 on V: each v_n is the lasso min ‖d_n − U v‖² + λ2‖v‖₁.
	const m, n, k = 25, 30, 4
	c := testcorpus.CorpusOf(t, randomSparse(12, m, n, 0.3))
	lambda2 := 0.6
	s := testSolver(t, c, Options{K: k, Lambda2: lambda2, Variant: U1V1, InnerSweeps: 100000, InnerTol: 1e-15, Lambda1: DefaultLambda1, Stopping: engine.DefaultStopping()},
		randomDense(13, n, k, false))
	u := randomDense(14, m, k, true)
	s.uNext.Copy(u)
	if f := s.updateV(context.Background()); f != nil {
		t.Fatal(f)
	}
	var g, phi mat.Dense
	g.Mul(u.T(), u)
	phi.Mul(testcorpus.DenseOf(c.DT), u)
	checkLassoRows(t, "v", s.vNext, &g, &phi, lambda2)
}
