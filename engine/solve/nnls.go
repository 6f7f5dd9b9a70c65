package solve

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// NNLSBlock is the number of right-hand sides per parallel block of NNLS: a
// constant, so that the blocks (and so the bits) do not depend on the number
// of workers.
const NNLSBlock = 256

// NNLS solves, for every row i of X (r×k), the non-negativity-constrained
// least-squares problem
//
//	min_{x ≥ 0} ‖C x − b_i‖²₂
//
// given only the Gram matrix G = CᵀC (k×k, symmetric positive definite) and
// the rows p_i = Cᵀb_i of P (r×k). The rows of the engine's row-major factors
// are exactly these right-hand sides: the V update of NMF by alternating
// non-negative least squares is NNLS(V, UᵀU, DᵀU), the U update
// NNLS(U, VᵀV, DV).
//
// The method is block principal pivoting (Kim & Park, "Fast nonnegative
// matrix factorization: an active-set-like method and comparisons", SIAM J.
// Sci. Comput. 33(6), 2011, Algorithm 2; Júdice & Pires 1994): each row keeps
// a passive set F (the coordinates allowed to be positive), solves the
// unconstrained problem on F (with a relative ridge of 1e-10 when G_FF is
// numerically singular),
//
//	x_F = G_FF⁻¹ p_F,   x_G = 0,   y = G x − p  (y_F = 0),
//
// and exchanges every infeasible coordinate (x_j < 0 on F, y_j < 0 off F)
// between the sets at once; if a full exchange does not reduce the number of
// infeasible coordinates for α = 3 consecutive rounds, it falls back to
// exchanging only the infeasible coordinate of largest index (Murty's rule),
// which terminates in exact arithmetic. In floating point a row can still
// cycle, flipping a coordinate whose x_j or y_j is a rounding error away from
// 0 (seen on a JTD fit: a 50-topic S update that never returned), so after
// exactPivots(k) exchanges a row tests feasibility with a tolerance (x_j and
// y_j count as infeasible only below −1e-12 times the row's largest |x| and
// |p|, and x is clamped at 0 when the row stops), and a row still infeasible
// after twice as many is an error naming the row instead of a loop. Rows that finish
// within exactPivots(k) exchanges, as every row of the tests does, never see
// the tolerance. Rows of a block that share a passive set share one
// Cholesky factorization of G_FF. The result satisfies the KKT conditions
// x ≥ 0, y ≥ 0, x∘y = 0 up to rounding.
//
// X is overwritten; its starting content is ignored (the passive sets start
// empty, x = 0, y = −p). It returns an error when G is not k×k, P and X are
// not r×k, or G_FF is not positive definite for a passive set reached (G
// singular, e.g. a zero column of C).
func NNLS(pool *parallel.Pool, x, g, p *mat.Dense) error {
	k, kc := g.Dims()
	r, pk := p.Dims()
	xr, xk := x.Dims()
	if k != kc || pk != k || xr != r || xk != k {
		return fmt.Errorf("nnls: G is %d×%d, P %d×%d, X %d×%d; want k×k, r×k, r×k", k, kc, r, pk, xr, xk)
	}
	errs := make([]error, parallel.Blocks(r, NNLSBlock))
	pool.For(r, NNLSBlock, func(b, lo, hi int) {
		errs[b] = nnlsBlock(x, g, p, lo, hi)
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// exactPivots is the number of exchanges a row of k coordinates makes with
// the exact feasibility test before it switches to the tolerant one; twice
// as many end the row with an error.
func exactPivots(k int) int { return 50 + 10*k }

// pivotTol is the relative tolerance of the feasibility test after
// exactPivots exchanges.
const pivotTol = 1e-12

// pivotRounds is α of Kim & Park's Algorithm 2: the number of full
// exchanges allowed without progress before the single-exchange backup rule.
const pivotRounds = 3

// bppRow is the pivoting state of one right-hand side.
type bppRow struct {
	passive []bool // F
	ninf    int    // fewest infeasible coordinates seen so far
	alpha   int    // full exchanges left without progress
	pivots  int    // exchanges made so far
	pScale  float64
	done    bool
}

// nnlsBlock solves rows lo..hi-1.
func nnlsBlock(x, g, p *mat.Dense, lo, hi int) error {
	k, _ := g.Dims()
	rows := make([]bppRow, hi-lo)
	y := make([][]float64, hi-lo)
	for i := range rows {
		rows[i] = bppRow{passive: make([]bool, k), ninf: k + 1, alpha: pivotRounds}
		xi := x.RawRowView(lo + i)
		for j := range xi {
			xi[j] = 0
		}
		y[i] = make([]float64, k)
		for j, pj := range p.RawRowView(lo + i) {
			y[i][j] = -pj
			rows[i].pScale = max(rows[i].pScale, math.Abs(pj))
		}
	}
	solver := newPassiveSolver(g)
	for {
		// Pivot every unfinished row; collect those that need a solve.
		var pending []int
		for i := range rows {
			if rows[i].done {
				continue
			}
			more, err := rows[i].pivot(x.RawRowView(lo+i), y[i])
			if err != nil {
				return fmt.Errorf("nnls: row %d: %w", lo+i+1, err)
			}
			if !more {
				rows[i].done = true
				continue
			}
			pending = append(pending, i)
		}
		if len(pending) == 0 {
			return nil
		}
		// Solve the rows grouped by passive set, in first-seen order.
		groups := map[string][]int{}
		var order []string
		for _, i := range pending {
			key := setKey(rows[i].passive)
			if _, ok := groups[key]; !ok {
				order = append(order, key)
			}
			groups[key] = append(groups[key], i)
		}
		for _, key := range order {
			members := groups[key]
			if err := solver.factor(rows[members[0]].passive); err != nil {
				return fmt.Errorf("nnls: row %d: %w", lo+members[0]+1, err)
			}
			for _, i := range members {
				solver.solve(rows[i].passive, x.RawRowView(lo+i), y[i], p.RawRowView(lo+i))
			}
		}
	}
}

// pivot checks the KKT conditions of the current (x, y) and, if some
// coordinate is infeasible, exchanges coordinates between the passive and
// active sets and reports true (a solve is needed). After exactPivots(k)
// exchanges the test is tolerant (see NNLS); a row that still needs an
// exchange after twice as many is an error.
func (s *bppRow) pivot(x, y []float64) (bool, error) {
	k := len(x)
	tolX, tolY := 0.0, 0.0
	tolerant := s.pivots >= exactPivots(k)
	if tolerant {
		xScale := 0.0
		for _, v := range x {
			xScale = max(xScale, math.Abs(v))
		}
		tolX, tolY = pivotTol*xScale, pivotTol*s.pScale
	}
	infeasible := func(j int) bool {
		return s.passive[j] && x[j] < -tolX || !s.passive[j] && y[j] < -tolY
	}
	count, last := 0, -1
	for j := range x {
		if infeasible(j) {
			count++
			last = j
		}
	}
	if count == 0 {
		if tolerant {
			for j, v := range x {
				x[j] = max(v, 0)
			}
		}
		return false, nil
	}
	// The limit is on exchanges, so it is checked only when another one is
	// needed: a row that became feasible on its last allowed exchange has
	// terminated.
	if s.pivots >= 2*exactPivots(k) {
		return false, fmt.Errorf("block principal pivoting did not terminate in %d exchanges", s.pivots)
	}
	s.pivots++
	switch {
	case count < s.ninf:
		s.ninf, s.alpha = count, pivotRounds
		s.exchangeAll(infeasible)
	case s.alpha > 0:
		s.alpha--
		s.exchangeAll(infeasible)
	default:
		s.passive[last] = !s.passive[last]
	}
	return true, nil
}

// exchangeAll moves every infeasible coordinate to the other set.
func (s *bppRow) exchangeAll(infeasible func(int) bool) {
	var flip []int
	for j := range s.passive {
		if infeasible(j) {
			flip = append(flip, j)
		}
	}
	for _, j := range flip {
		s.passive[j] = !s.passive[j]
	}
}

func setKey(passive []bool) string {
	b := make([]byte, len(passive))
	for j, f := range passive {
		if f {
			b[j] = 1
		}
	}
	return string(b)
}

// passiveSolver solves G_FF x_F = p_F for one passive set F at a time.
type passiveSolver struct {
	g    *mat.Dense
	idx  []int // F as indices
	chol mat.Cholesky
	rhs  *mat.VecDense
	sol  *mat.VecDense
}

func newPassiveSolver(g *mat.Dense) *passiveSolver { return &passiveSolver{g: g} }

// factor factorizes G_FF for the passive set F.
func (s *passiveSolver) factor(passive []bool) error {
	s.idx = s.idx[:0]
	for j, f := range passive {
		if f {
			s.idx = append(s.idx, j)
		}
	}
	n := len(s.idx)
	if n == 0 {
		return nil
	}
	sub := mat.NewSymDense(n, nil)
	for a, ja := range s.idx {
		for b := a; b < n; b++ {
			sub.SetSym(a, b, s.g.At(ja, s.idx[b]))
		}
	}
	if s.chol.Factorize(sub) {
		s.rhs = mat.NewVecDense(n, nil)
		s.sol = mat.NewVecDense(n, nil)
		return nil
	}
	// Numerically dependent columns of C (two topics that coincide): the
	// restricted problem has a line of solutions. A ridge of relative size
	// 1e-10 picks one and changes the others by about as much.
	trace := 0.0
	for a := range n {
		trace += sub.At(a, a)
	}
	ridge := 1e-10 * trace / float64(n)
	for a := range n {
		sub.SetSym(a, a, sub.At(a, a)+ridge)
	}
	if !(ridge > 0) || !s.chol.Factorize(sub) {
		return fmt.Errorf("the Gram matrix restricted to the %d passive coordinates is not positive definite (is a column of C zero or dependent?)", n)
	}
	s.rhs = mat.NewVecDense(n, nil)
	s.sol = mat.NewVecDense(n, nil)
	return nil
}

// solve sets x_F = G_FF⁻¹ p_F, x_G = 0 and y = G x − p with y_F = 0 for
// the passive set last factorized.
func (s *passiveSolver) solve(passive []bool, x, y, p []float64) {
	for j := range x {
		x[j] = 0
	}
	if len(s.idx) > 0 {
		for a, j := range s.idx {
			s.rhs.SetVec(a, p[j])
		}
		// A factorization that succeeded cannot fail to solve.
		if err := s.chol.SolveVecTo(s.sol, s.rhs); err != nil && !isConditionWarning(err) {
			panic(err)
		}
		for a, j := range s.idx {
			x[j] = s.sol.AtVec(a)
		}
	}
	for i, f := range passive {
		if f {
			y[i] = 0
			continue
		}
		gi := s.g.RawRowView(i)
		v := -p[i]
		for _, j := range s.idx {
			v += gi[j] * x[j]
		}
		y[i] = v
	}
}

// isConditionWarning reports gonum's ill-conditioning warning, which comes
// with a computed solution.
func isConditionWarning(err error) bool {
	_, ok := err.(mat.Condition)
	return ok
}

// KKTViolation returns the largest violation of the NNLS optimality
// conditions at X for (G, P), over every row: x ≥ 0 (−x_j relative to the
// row's largest |x|), y = G x − p ≥ 0 (−y_j relative to the row's largest
// |p|) and complementarity (|y_j| where x_j > 0, relative to the largest
// |p|). Zero rows count with scale 1. It is exported so that every caller of
// NNLS checks its solutions the same way.
func KKTViolation(x, g, p *mat.Dense) float64 {
	r, k := x.Dims()
	worst := 0.0
	y := make([]float64, k)
	for i := 0; i < r; i++ {
		xi, pi := x.RawRowView(i), p.RawRowView(i)
		xs, ps := maxAbs(xi), maxAbs(pi)
		for a := 0; a < k; a++ {
			v := -pi[a]
			for b, gab := range g.RawRowView(a) {
				v += gab * xi[b]
			}
			y[a] = v
		}
		for a := 0; a < k; a++ {
			worst = math.Max(worst, -xi[a]/xs)
			worst = math.Max(worst, -y[a]/ps)
			if xi[a] > 0 {
				worst = math.Max(worst, math.Abs(y[a])/ps)
			}
		}
	}
	return worst
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	if m == 0 {
		return 1
	}
	return m
}
