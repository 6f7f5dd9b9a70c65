package solve

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// nnlsProblem draws C (m×k) and the right-hand sides B (r×m, one per row)
// with entries of mixed sign, so that many solutions have active bounds, and
// returns G = CᵀC and P = B C (rows Cᵀb_i).
func nnlsProblem(m, k, r int, seed uint64) (c, b, g, p *mat.Dense) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	c = mat.NewDense(m, k, nil)
	b = mat.NewDense(r, m, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < k; j++ {
			c.Set(i, j, rnd.NormFloat64())
		}
	}
	for i := 0; i < r; i++ {
		for j := 0; j < m; j++ {
			b.Set(i, j, rnd.NormFloat64())
		}
	}
	g = mat.NewDense(k, k, nil)
	g.Mul(c.T(), c)
	p = mat.NewDense(r, k, nil)
	p.Mul(b, c)
	return c, b, g, p
}

// bruteForce solves one row by trying every passive set F: the NNLS solution
// is the unique x with x_F = G_FF⁻¹ p_F ≥ 0, x elsewhere 0 and G x − p ≥ 0
// off F (G positive definite); among candidates that are feasible it returns
// the one of least objective ½xᵀGx − pᵀx, an independent characterization.
func bruteForce(g *mat.Dense, p []float64) []float64 {
	k := len(p)
	best, bestF := []float64(nil), math.Inf(1)
	for mask := 0; mask < 1<<k; mask++ {
		var idx []int
		for j := 0; j < k; j++ {
			if mask&(1<<j) != 0 {
				idx = append(idx, j)
			}
		}
		x := make([]float64, k)
		if len(idx) > 0 {
			sub := mat.NewDense(len(idx), len(idx), nil)
			rhs := mat.NewVecDense(len(idx), nil)
			for a, ja := range idx {
				rhs.SetVec(a, p[ja])
				for bb, jb := range idx {
					sub.Set(a, bb, g.At(ja, jb))
				}
			}
			var sol mat.VecDense
			if err := sol.SolveVec(sub, rhs); err != nil {
				continue
			}
			for a, j := range idx {
				x[j] = sol.AtVec(a)
			}
		}
		feasible := true
		for _, v := range x {
			if v < -1e-12 {
				feasible = false
			}
		}
		if !feasible {
			continue
		}
		f := 0.0
		for a := 0; a < k; a++ {
			for bb := 0; bb < k; bb++ {
				f += 0.5 * x[a] * g.At(a, bb) * x[bb]
			}
			f -= p[a] * x[a]
		}
		if f < bestF {
			best, bestF = x, f
		}
	}
	return best
}

func TestNNLSAgainstEnumeration(t *testing.T) {
	for _, size := range []struct{ m, k, r int }{{1, 1, 3}, {3, 2, 20}, {8, 5, 50}, {12, 7, 40}} {
		for seed := uint64(1); seed <= 5; seed++ {
			_, _, g, p := nnlsProblem(size.m, size.k, size.r, seed)
			x := mat.NewDense(size.r, size.k, nil)
			if err := NNLS(parallel.NewPool(2), x, g, p); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < size.r; i++ {
				want := bruteForce(g, p.RawRowView(i))
				for j, w := range want {
					if got := x.At(i, j); math.Abs(got-w) > 1e-9*(1+math.Abs(w)) {
						t.Fatalf("m=%d k=%d seed %d row %d: x = %v, enumeration gives %v", size.m, size.k, seed, i, x.RawRowView(i), want)
					}
				}
			}
		}
	}
}

func TestNNLSKKT(t *testing.T) {
	for _, size := range []struct{ m, k, r int }{{60, 20, 700}, {200, 50, 300}, {30, 30, 64}} {
		_, _, g, p := nnlsProblem(size.m, size.k, size.r, uint64(size.k))
		x := mat.NewDense(size.r, size.k, nil)
		if err := NNLS(nil, x, g, p); err != nil {
			t.Fatal(err)
		}
		if v := KKTViolation(x, g, p); v > 1e-10 {
			t.Errorf("k=%d: KKT violation %g > 1e-10", size.k, v)
		}
		active := 0
		for _, v := range x.RawMatrix().Data {
			if v == 0 {
				active++
			}
		}
		// With signs mixed, a real share of bounds is active: otherwise the
		// test would not exercise pivoting.
		if frac := float64(active) / float64(size.r*size.k); frac < 0.2 || frac > 0.9 {
			t.Errorf("k=%d: %.2f of the entries at the bound; the problem does not exercise pivoting", size.k, frac)
		}
	}
}

// The KKT check itself must fail on a wrong answer: the unconstrained
// least-squares solution has negative entries.
func TestKKTViolationDetectsWrongAnswers(t *testing.T) {
	_, _, g, p := nnlsProblem(20, 6, 30, 3)
	var chol mat.Cholesky
	sym := mat.NewSymDense(6, nil)
	for i := 0; i < 6; i++ {
		for j := i; j < 6; j++ {
			sym.SetSym(i, j, g.At(i, j))
		}
	}
	if !chol.Factorize(sym) {
		t.Fatal("G not positive definite")
	}
	var ls mat.Dense
	if err := chol.SolveTo(&ls, p.T()); err != nil {
		t.Fatal(err)
	}
	if v := KKTViolation(mat.DenseCopyOf(ls.T()), g, p); v < 1e-3 {
		t.Errorf("unconstrained solution: KKT violation %g, want a clear violation", v)
	}
	clipped := mat.DenseCopyOf(ls.T())
	clipped.Apply(func(_, _ int, v float64) float64 { return math.Max(v, 0) }, clipped)
	if v := KKTViolation(clipped, g, p); v < 1e-3 {
		t.Errorf("clipped solution: KKT violation %g, want a clear violation", v)
	}
}

func TestNNLSSameBitsForAnyWorkers(t *testing.T) {
	_, _, g, p := nnlsProblem(80, 16, 3*NNLSBlock+17, 11)
	x1 := mat.NewDense(3*NNLSBlock+17, 16, nil)
	x2 := mat.NewDense(3*NNLSBlock+17, 16, nil)
	if err := NNLS(parallel.NewPool(1), x1, g, p); err != nil {
		t.Fatal(err)
	}
	if err := NNLS(parallel.NewPool(3), x2, g, p); err != nil {
		t.Fatal(err)
	}
	for i, v := range x1.RawMatrix().Data {
		if math.Float64bits(v) != math.Float64bits(x2.RawMatrix().Data[i]) {
			t.Fatalf("entry %d: %v with 1 worker, %v with 3", i, v, x2.RawMatrix().Data[i])
		}
	}
}

func TestNNLSEdgeCases(t *testing.T) {
	// Zero right-hand sides: x = 0.
	g := mat.NewDense(2, 2, []float64{2, 1, 1, 2})
	x := mat.NewDense(1, 2, []float64{5, 5})
	if err := NNLS(nil, x, g, mat.NewDense(1, 2, nil)); err != nil || x.At(0, 0) != 0 || x.At(0, 1) != 0 {
		t.Errorf("p = 0: x = %v, err %v; want 0", x.RawMatrix().Data, err)
	}
	// Hand-computed: G = [[2,1],[1,2]], p = (3, −3): unconstrained x = (3, −3),
	// so coordinate 2 is bounded and x = (p1/G11, 0) = (1.5, 0) with
	// y2 = G21·1.5 − p2 = 1.5 + 3 = 4.5 ≥ 0.
	if err := NNLS(nil, x, g, mat.NewDense(1, 2, []float64{3, -3})); err != nil || math.Abs(x.At(0, 0)-1.5) > 1e-15 || x.At(0, 1) != 0 {
		t.Errorf("x = %v, err %v; want (1.5, 0)", x.RawMatrix().Data, err)
	}
	// Shape mismatch.
	if err := NNLS(nil, mat.NewDense(3, 2, nil), g, mat.NewDense(2, 2, nil)); err == nil || !strings.Contains(err.Error(), "want") {
		t.Errorf("mismatched shapes: err %v", err)
	}
	// Not a Gram matrix (eigenvalues 3 and −1): an error, not garbage.
	indefinite := mat.NewDense(2, 2, []float64{1, 2, 2, 1})
	if err := NNLS(nil, mat.NewDense(1, 2, nil), indefinite, mat.NewDense(1, 2, []float64{1, 1})); err == nil || !strings.Contains(err.Error(), "positive definite") {
		t.Errorf("indefinite G: err %v, want a not-positive-definite error", err)
	}
	// Two identical columns of C: G is singular, the solution set a
	// segment; the ridge picks a point of it that meets the KKT conditions.
	c := mat.NewDense(3, 2, []float64{1, 1, 2, 2, 0.5, 0.5})
	b := mat.NewDense(1, 3, []float64{1, 2, 1})
	var gd, pd mat.Dense
	gd.Mul(c.T(), c)
	pd.Mul(b, c)
	x = mat.NewDense(1, 2, nil)
	if err := NNLS(nil, x, &gd, &pd); err != nil {
		t.Fatalf("dependent columns: %v", err)
	}
	if v := KKTViolation(x, &gd, &pd); v > 1e-8 {
		t.Errorf("dependent columns: x = %v violates the KKT conditions by %g", x.RawRowView(0), v)
	}
}

// TestPivotToleranceAndLimit drives one row's pivoting past exactPivots: a
// coordinate a rounding error below 0 (which the exact test would keep
// flipping) counts as feasible and is clamped to 0, and a row that still has
// not terminated after twice as many exchanges ends with an error instead of
// looping.
func TestPivotToleranceAndLimit(t *testing.T) {
	const k = 3
	row := bppRow{passive: []bool{true, true, false}, ninf: k + 1, alpha: pivotRounds, pScale: 1, pivots: exactPivots(k)}
	x := []float64{0.5, -1e-18, 0}
	y := []float64{0, 0, -1e-18}
	more, err := row.pivot(x, y)
	if err != nil || more {
		t.Fatalf("tolerant pivot: more %v, err %v; want a finished row", more, err)
	}
	if x[1] != 0 {
		t.Errorf("x[1] = %g after the tolerant stop, want clamped to 0", x[1])
	}
	exact := bppRow{passive: []bool{true, true, false}, ninf: k + 1, alpha: pivotRounds, pScale: 1}
	x = []float64{0.5, -1e-18, 0}
	if more, _ := exact.pivot(x, y); !more {
		t.Errorf("exact pivot: a coordinate at -1e-18 must still count as infeasible before exactPivots")
	}
	// A row that became feasible on its last allowed exchange has
	// terminated: it finishes (clamped) instead of reporting the limit.
	last := bppRow{passive: []bool{true, true, false}, ninf: k + 1, alpha: pivotRounds, pScale: 1, pivots: 2 * exactPivots(k)}
	x = []float64{0.5, -1e-18, 0}
	if more, err := last.pivot(x, y); err != nil || more || x[1] != 0 {
		t.Errorf("feasible after %d exchanges: more %v, err %v, x %v; want a finished row with x[1] clamped to 0", last.pivots, more, err, x)
	}
	stuck := bppRow{passive: []bool{true, true, false}, ninf: k + 1, alpha: pivotRounds, pScale: 1, pivots: 2 * exactPivots(k)}
	if _, err := stuck.pivot([]float64{0.5, -1, 0}, y); err == nil || !strings.Contains(err.Error(), "did not terminate") {
		t.Errorf("pivot after %d exchanges: error %v, want one saying it did not terminate", stuck.pivots, err)
	}
}
