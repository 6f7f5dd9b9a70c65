package solve

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/topicmf/topicmf/engine/internal/lassoref"
	"gonum.org/v1/gonum/mat"
)

func TestSoftThreshold(t *testing.T) {
	for _, c := range []struct{ w, t, want float64 }{
		{3, 1, 2}, {-3, 1, -2}, {0.5, 1, 0}, {-0.5, 1, 0}, {1, 1, 0}, {-1, 1, 0},
		{0, 0, 0}, {2.5, 0, 2.5}, {-2.5, 0, -2.5},
	} {
		if got := SoftThreshold(c.w, c.t); got != c.want {
			t.Errorf("SoftThreshold(%v, %v) = %v, want %v", c.w, c.t, got, c.want)
		}
	}
}

// randomGramProblem returns S = AᵀA and r = Aᵀy for a random n×k design.
func randomGramProblem(seed uint64, n, k int) ([]float64, []float64) {
	rnd := newRand(seed)
	a := make([]float64, n*k)
	y := make([]float64, n)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	for i := range y {
		y[i] = rnd.NormFloat64()
	}
	s := make([]float64, k*k)
	r := make([]float64, k)
	for i := 0; i < n; i++ {
		for p := 0; p < k; p++ {
			r[p] += a[i*k+p] * y[i]
			for q := 0; q < k; q++ {
				s[p*k+q] += a[i*k+p] * a[i*k+q]
			}
		}
	}
	return s, r
}

func TestLassoK1ClosedForm(t *testing.T) {
	// K = 1: f(x) = s x² − 2 r x + λ|x| has minimizer S_{λ/2}(r)/s, reached
	// by the first coordinate step.
	for _, c := range []struct{ s, r, lambda, want float64 }{
		{2, 3, 1, 1.25},     // (3 − 0.5)/2
		{2, -3, 1, -1.25},   // (−3 + 0.5)/2
		{4, 0.2, 1, 0},      // |r| ≤ λ/2
		{4, 0.5, 1, 0},      // boundary |r| = λ/2
		{0.5, 10, 4, 16},    // (10 − 2)/0.5
		{0, 5, 1, 0},        // s = 0: topic unused, x ← 0
		{1, 7, 1e-300, 7},   // λ tiny: least squares
		{3, -1, 0.5, -0.25}, // (−1 + 0.25)/3
	} {
		x := []float64{0.7}
		NewLasso(1).Solve([]float64{c.s}, []float64{c.r}, c.lambda, x, 5, 0)
		if x[0] != c.want {
			t.Errorf("s=%v r=%v λ=%v: x = %v, want %v", c.s, c.r, c.lambda, x[0], c.want)
		}
	}
}

func TestLassoOrthogonalDesign(t *testing.T) {
	// With S diagonal (orthogonal columns of the design) the lasso decouples:
	// x_k = S_{λ/2}(r_k)/s_kk, the soft-thresholded least-squares solution,
	// reached after one sweep from any start; the second sweep sees no change.
	s := []float64{
		4, 0, 0, 0,
		0, 1, 0, 0,
		0, 0, 9, 0,
		0, 0, 0, 2,
	}
	r := []float64{3, -0.2, -5, 0.4}
	lambda := 1.0
	want := []float64{(3 - 0.5) / 4, 0, (-5 + 0.5) / 9, 0}
	x := []float64{1, 2, 3, 4}
	work := NewLasso(4).Solve(s, r, lambda, x, 100, 0)
	if n, ax, vis := work.Sweeps, work.Axpys, work.Visits; n != 2 || ax != 8 || vis != 8 {
		// 4 updates of g to form g = Sx at the start, 4 moves in sweep 1,
		// none in sweep 2.
		t.Errorf("sweeps, axpys, visits = %d, %d, %d; want 2 (one to solve, one to see no change), 8, 8", n, ax, vis)
	}
	for k := range x {
		if math.Abs(x[k]-want[k]) > 1e-15 {
			t.Errorf("x[%d] = %v, want %v", k, x[k], want[k])
		}
	}
}

func TestLassoMatchesBruteForce(t *testing.T) {
	for _, c := range []struct {
		seed   uint64
		n, k   int
		lambda float64
	}{
		{1, 10, 1, 0.5}, {2, 10, 2, 1}, {3, 8, 3, 2}, {4, 20, 4, 5}, {5, 12, 5, 3},
		{6, 6, 5, 0.1}, {7, 30, 5, 20}, {8, 4, 3, 0.01},
	} {
		s, r := randomGramProblem(c.seed, c.n, c.k)
		want := lassoref.Brute(s, c.k, r, c.lambda)
		x := make([]float64, c.k)
		NewLasso(c.k).Solve(s, r, c.lambda, x, 100000, 1e-15)
		for i := range x {
			if math.Abs(x[i]-want[i]) > 1e-9*math.Max(1, math.Abs(want[i])) {
				t.Errorf("seed %d: x[%d] = %.15g, brute force %.15g", c.seed, i, x[i], want[i])
			}
			if (x[i] == 0) != (want[i] == 0) {
				t.Errorf("seed %d: support differs at %d: %v vs %v", c.seed, i, x[i], want[i])
			}
		}
	}
}

func TestLassoMatchesSklearn(t *testing.T) {
	// Reference from scikit-learn 1.2.1 (python3-sklearn, Debian):
	//   import numpy as np; from sklearn.linear_model import Lasso
	//   A = np.array([[1,2,0.5],[0,1,-1],[2,0,1],[1,1,1],[-1,0.5,2],[0.3,-2,1]])
	//   y = np.array([1,2,3,-1,0.5,2])
	//   for a in (0.25, 0.4):
	//     Lasso(alpha=a, fit_intercept=False, tol=1e-15, max_iter=10**7).fit(A, y).coef_
	// sklearn minimizes (1/(2n))‖y − Aw‖² + α‖w‖₁, i.e. ‖y − Aw‖² + 2nα‖w‖₁,
	// so λ = 2·6·α: 3 and 4.8. At α = 0.4 the second weight is exactly zero.
	a := [][]float64{{1, 2, 0.5}, {0, 1, -1}, {2, 0, 1}, {1, 1, 1}, {-1, 0.5, 2}, {0.3, -2, 1}}
	y := []float64{1, 2, 3, -1, 0.5, 2}
	cases := []struct {
		lambda float64
		want   []float64
	}{
		{3, []float64{0.6342888493620766, -0.044404762320775115, 0.10403394801797095}},
		{4.8, []float64{0.5166282068684674, 0, 0.02061445183475867}},
	}
	k := 3
	s := make([]float64, k*k)
	r := make([]float64, k)
	for i, row := range a {
		for p := 0; p < k; p++ {
			r[p] += row[p] * y[i]
			for q := 0; q < k; q++ {
				s[p*k+q] += row[p] * row[q]
			}
		}
	}
	for _, c := range cases {
		x := make([]float64, k)
		NewLasso(k).Solve(s, r, c.lambda, x, 100000, 1e-15)
		for i := range x {
			if math.Abs(x[i]-c.want[i]) > 1e-12 || (x[i] == 0) != (c.want[i] == 0) {
				t.Errorf("λ=%v: x[%d] = %.17g, sklearn %.17g", c.lambda, i, x[i], c.want[i])
			}
		}
	}
}

func TestLassoSweepsNeverIncrease(t *testing.T) {
	// Each coordinate step is an exact one-variable minimization, so f never
	// increases sweep to sweep from any warm start: running n sweeps from x0
	// gives a non-increasing f in n.
	for _, seed := range []uint64{11, 13, 17} {
		s, r := randomGramProblem(seed, 15, 8)
		rnd := newRand(seed + 1)
		x0 := make([]float64, 8)
		for i := range x0 {
			x0[i] = 3 * rnd.NormFloat64()
		}
		prev := lassoref.Objective(s, 8, r, 2, x0)
		for n := 1; n <= 60; n++ {
			x := append([]float64(nil), x0...)
			NewLasso(8).Solve(s, r, 2, x, n, -1)
			f := lassoref.Objective(s, 8, r, 2, x)
			if f > prev+1e-12*math.Abs(prev) {
				t.Fatalf("seed %d, %d sweeps: f rose from %.17g to %.17g", seed, n, prev, f)
			}
			prev = f
		}
	}
}

func TestRidgeInverse(t *testing.T) {
	g := mat.NewDense(2, 2, []float64{2, 1, 1, 3})
	inv, err := RidgeInverse(g, 1) // (G + I)⁻¹ = [[3,1],[1,4]]⁻¹ = [[4,−1],[−1,3]]/11
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{4.0 / 11, -1.0 / 11, -1.0 / 11, 3.0 / 11}
	for i, w := range want {
		if got := inv.At(i/2, i%2); math.Abs(got-w) > 1e-15 {
			t.Errorf("inverse[%d,%d] = %v, want %v", i/2, i%2, got, w)
		}
	}
	if inv.At(0, 1) != inv.At(1, 0) {
		t.Errorf("inverse not exactly symmetric: %v vs %v", inv.At(0, 1), inv.At(1, 0))
	}
	if _, err := RidgeInverse(mat.NewDense(2, 2, []float64{-5, 0, 0, 1}), 1); err == nil {
		t.Error("indefinite matrix: want an error")
	}
}

// newRand is engine.NewRand (the same stream), so the random problems are
// the ones these tests used in engine/rlsi.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }
