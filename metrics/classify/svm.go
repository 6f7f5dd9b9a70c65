package classify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
)

// Options configures Train. The zero value is valid: C = 1, a bias feature
// of value 1, tolerance 0.1, at most 1000 outer iterations, shrinking on,
// seed 0, serial.
type Options struct {
	// C is the cost of the squared hinge loss (0 means 1).
	C float64
	// NoBias drops the constant bias feature.
	NoBias bool
	// BiasValue is the value B of the constant feature (0 means 1).
	BiasValue float64
	// Tol stops the solver when max PG − min PG ≤ Tol (0 means 0.1,
	// LIBLINEAR's default for the dual solvers).
	Tol float64
	// MaxIter bounds the outer iterations of each binary problem (0 means
	// 1000, LIBLINEAR's bound).
	MaxIter int
	// NoShrinking turns off shrinking of the active set.
	NoShrinking bool
	// Seed seeds the coordinate order of every binary problem.
	Seed uint64
	// Pool, when set, solves the one-vs-rest problems in parallel, each
	// worker up to eight in lockstep; the result is the same bits as the
	// serial run.
	Pool *parallel.Pool
}

func (o Options) withDefaults() (Options, error) {
	o.C = cmp.Or(o.C, 1)
	o.BiasValue = cmp.Or(o.BiasValue, 1)
	o.Tol = cmp.Or(o.Tol, 0.1)
	o.MaxIter = cmp.Or(o.MaxIter, 1000)
	switch {
	case !(o.C > 0) || math.IsInf(o.C, 0):
		return o, fmt.Errorf("classify: C = %v, want a finite positive number", o.C)
	case !(o.Tol > 0) || math.IsInf(o.Tol, 0):
		return o, fmt.Errorf("classify: Tol = %v, want a finite positive number", o.Tol)
	case o.MaxIter < 0:
		return o, fmt.Errorf("classify: MaxIter = %d, want ≥ 0", o.MaxIter)
	case math.IsNaN(o.BiasValue) || math.IsInf(o.BiasValue, 0):
		return o, fmt.Errorf("classify: BiasValue = %v, want a finite number", o.BiasValue)
	}
	if o.NoBias {
		o.BiasValue = 0
	}
	return o, nil
}

// Model is a trained linear classifier.
type Model struct {
	// Classes are the distinct training labels, increasing.
	Classes []int
	// Weights has one vector per binary problem (see the package
	// documentation): none for one class, one for two classes (Classes[1]
	// positive), one per class otherwise. Each has Features+1 entries when
	// Bias ≠ 0, the last being the weight of the constant feature.
	Weights [][]float64
	// Bias is the value of the constant feature (0: none). The intercept of
	// problem j is Weights[j][Features]·Bias.
	Bias float64
	// Features is the number of input features.
	Features int
	// Iterations[j] is the number of outer iterations problem j took.
	Iterations []int
	// Warnings report problems stopped by MaxIter.
	Warnings []string
}

// Train fits a linear SVM to the rows of x with labels y (any integers).
// It stops with ctx's error, checked before every outer iteration of every
// binary problem, when ctx is cancelled.
func Train(ctx context.Context, x Features, y []int, opts Options) (*Model, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if x == nil {
		return nil, errors.New("classify: nil features")
	}
	n := x.Rows()
	if n != len(y) {
		return nil, fmt.Errorf("classify: %d examples but %d labels", n, len(y))
	}
	if n == 0 {
		return nil, errors.New("classify: no training examples")
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("classify: %d training examples, at most %d", n, math.MaxInt32)
	}
	if err := x.check(); err != nil {
		return nil, err
	}
	classes := slices.Clone(y)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	m := &Model{Classes: classes, Bias: o.BiasValue, Features: x.Cols()}
	var positives []int // the positive class of each problem
	switch len(classes) {
	case 1:
	case 2:
		positives = []int{classes[1]}
	default:
		positives = classes
	}
	m.Weights = make([][]float64, len(positives))
	m.Iterations = make([]int, len(positives))
	sv := &dualSolver{
		x: x, o: o, y: y, positives: positives,
		n: n, d: x.Cols(), hasBias: o.BiasValue != 0, diag: 0.5 / o.C,
		qd:        make([]float64, n),
		converged: make([]bool, len(positives)),
		cancelled: make([]error, len(positives)),
		w:         m.Weights,
		iter:      m.Iterations,
	}
	for i := range n {
		sv.qd[i] = x.sqNorm(i) + o.BiasValue*o.BiasValue
	}
	// Workers take problems from one queue; each advances up to lanes
	// problems in lockstep. Problems are independent, so which worker
	// solves which cannot change a bit.
	var queue atomic.Int64
	take := func() (int, bool) {
		j := int(queue.Add(1) - 1)
		return j, j < len(positives)
	}
	if groups := parallel.Blocks(len(positives), lanes); o.Pool != nil && groups > 1 {
		o.Pool.For(min(groups, o.Pool.Workers()), 1, func(_, _, _ int) { sv.run(ctx, take) })
	} else {
		sv.run(ctx, take)
	}
	for _, err := range sv.cancelled {
		if err != nil {
			return nil, fmt.Errorf("classify: %w", err)
		}
	}
	for j, ok := range sv.converged {
		if !ok {
			m.Warnings = append(m.Warnings, fmt.Sprintf("classify: problem %d (class %d positive) stopped after %d iterations without reaching Tol %g",
				j, positives[j], m.Iterations[j], o.Tol))
		}
	}
	return m, nil
}

// lanes is the number of binary problems a worker advances in lockstep:
// the number of independent dot-product chains in flight at once.
const lanes = 8

// dualSolver solves the binary problems of one Train call by dual
// coordinate descent (Hsieh et al. 2008, Algorithm 1 with the shrinking of
// Sec. 3.2) for the L2-loss SVM; see the package documentation.
//
// Almost all of the time goes to the gradient's dot product wᵀx_i, a
// sequential sum whose additions depend on each other: one chain runs at
// the latency of an addition, not at the machine's throughput. The binary
// problems of one-vs-rest are independent (each has its own labels, random
// order, α, active set and w), so run advances up to lanes of them in
// lockstep: each step computes the next dot product of every problem in
// one loop (Features.dots), several independent chains in flight, and then
// lets each problem finish its coordinate update on its own. Each dot
// product still adds its terms left to right from 0, and each problem sees
// exactly the operations, in the order, of solving it alone (its own
// shuffles, shrinking, outer-iteration bookkeeping, ctx checks and
// MaxIter), so the result is the same bits as solving the problems one
// after the other, on any number of workers.
type dualSolver struct {
	x         Features
	o         Options
	y         []int // labels
	positives []int // the positive class of each problem
	n, d      int
	hasBias   bool
	diag      float64   // D_ii = 1/(2C)
	qd        []float64 // Q̄_ii = x_iᵀx_i + B² + D_ii is qd[i] + diag

	// results, one per problem
	w         [][]float64 // with the bias weight last when hasBias
	iter      []int
	converged []bool
	cancelled []error
}

// dualProblem is one binary problem between two coordinate visits.
type dualProblem struct {
	j     int       // problem number
	y     []int8    // ±1
	w     []float64 // d weights, then the bias weight
	alpha []float64
	// index holds the coordinates; the first active are the active set.
	// It and y are small types because the coordinates are visited in
	// random order: the less memory each problem's arrays take, the more of
	// them stay in cache beside the lanes-1 other problems and the rows.
	index      []int32
	rng        *rand.Rand
	active     int // size of the active set
	s          int // position of the next visit in index
	iter       int // outer iterations done
	pgMax      float64
	pgMin      float64
	pgMaxOld   float64 // max PG of the previous iteration, for shrinking
	yi, ai, qi float64 // y_i, α_i and qd[i] of i = index[s], loaded by next
	done       bool    // converged, stopped by MaxIter or cancelled
}

// run solves the problems that take hands out, up to lanes at a time in
// lockstep, until take has none left. Live problems occupy slot[:live].
func (sv *dualSolver) run(ctx context.Context, take func() (int, bool)) {
	var (
		slot [lanes]*dualProblem
		rows [lanes]int       // the coordinate each problem visits next
		ws   [lanes][]float64 // its weights w[:d]
		g    [lanes]float64   // the dot products wᵀx_i
	)
	// fill puts the next problem that has a coordinate to visit in slot k.
	fill := func(k int) bool {
		for {
			j, ok := take()
			if !ok {
				return false
			}
			p := sv.start(ctx, j)
			if i, ok := sv.next(ctx, p); ok {
				slot[k], rows[k], ws[k] = p, i, p.w[:sv.d]
				return true
			}
			sv.finish(p)
		}
	}
	live := 0
	for live < lanes && fill(live) {
		live++
	}
	for live > 0 {
		sv.x.dots(rows[:live], ws[:live], g[:live])
		for k := 0; k < live; k++ {
			p := slot[k]
			sv.visit(p, g[k])
			if i, ok := sv.next(ctx, p); ok {
				rows[k] = i
				continue
			}
			sv.finish(p)
			if fill(k) {
				continue
			}
			// no problem left to start: the last live one moves here
			live--
			if k < live {
				slot[k], rows[k], ws[k], g[k] = slot[live], rows[live], ws[live], g[live]
				k-- // and finishes this step's visit in this slot
			}
			slot[live], ws[live] = nil, nil
		}
	}
}

// start sets up problem j (class positives[j] positive, coordinate order
// drawn from engine.DeriveSeed(Seed, "classify", j), α = 0, w = 0, all
// coordinates active) and begins its first outer iteration.
func (sv *dualSolver) start(ctx context.Context, j int) *dualProblem {
	p := &dualProblem{
		j:        j,
		y:        make([]int8, sv.n),
		w:        make([]float64, sv.d+1),
		alpha:    make([]float64, sv.n),
		index:    make([]int32, sv.n),
		rng:      engine.NewRand(engine.DeriveSeed(sv.o.Seed, "classify", strconv.Itoa(j))),
		active:   sv.n,
		pgMaxOld: math.Inf(1),
	}
	for i, l := range sv.y {
		p.y[i] = -1
		if l == sv.positives[j] {
			p.y[i] = 1
		}
	}
	for i := range p.index {
		p.index[i] = int32(i)
	}
	sv.begin(ctx, p)
	return p
}

// begin begins an outer iteration of p unless MaxIter iterations are done
// or ctx is cancelled: max/min PG are reset and the active set is permuted
// at random.
func (sv *dualSolver) begin(ctx context.Context, p *dualProblem) {
	if p.iter >= sv.o.MaxIter {
		p.done = true
		return
	}
	if err := ctx.Err(); err != nil {
		sv.cancelled[p.j] = err
		p.done = true
		return
	}
	p.pgMax, p.pgMin = math.Inf(-1), math.Inf(1)
	index := p.index[:p.active]
	for i := range index {
		j := i + p.rng.IntN(len(index)-i)
		index[i], index[j] = index[j], index[i]
	}
	p.s = 0
}

// next returns the coordinate p visits next, or false when p is done. At
// the end of an outer iteration it applies the stopping rule max PG − min
// PG ≤ Tol: with all coordinates active p has converged; with some shrunk,
// every coordinate is checked again. Otherwise the shrinking threshold
// becomes this iteration's max PG (∞ when that is ≤ 0). Then the next outer
// iteration begins.
func (sv *dualSolver) next(ctx context.Context, p *dualProblem) (int, bool) {
	for !p.done && p.s >= p.active {
		p.iter++
		if p.pgMax-p.pgMin <= sv.o.Tol {
			if p.active == sv.n {
				sv.converged[p.j] = true
				p.done = true
				break
			}
			// the shrunk problem converged: check every coordinate again
			p.active = sv.n
			p.pgMaxOld = math.Inf(1)
		} else {
			p.pgMaxOld = p.pgMax
			if p.pgMaxOld <= 0 {
				p.pgMaxOld = math.Inf(1)
			}
		}
		sv.begin(ctx, p)
	}
	if p.done {
		return 0, false
	}
	i := p.index[p.s]
	// loaded now, not in visit, so that the loads overlap the dot products
	p.yi, p.ai, p.qi = float64(p.y[i]), p.alpha[i], sv.qd[i]
	return int(i), true
}

// visit finishes p's visit of coordinate i = index[s] given g0 = wᵀx_i.
// The gradient is G = y_i (wᵀx_i + w_B·B) − 1 + D_ii α_i. With shrinking, a
// coordinate with α_i = 0 and G above the previous iteration's max PG
// leaves the active set: it is swapped behind it and position s is visited
// again. Otherwise PG (min(G, 0) at α_i = 0, else G) enters max/min PG and,
// when |PG| > 10⁻¹², α_i ← max(α_i − G/Q̄_ii, 0) and w += Δα_i y_i x_i.
func (sv *dualSolver) visit(p *dualProblem, g0 float64) {
	i := int(p.index[p.s])
	g := g0
	if sv.hasBias {
		g += p.w[sv.d] * sv.o.BiasValue
	}
	g = p.yi*g - 1 + sv.diag*p.ai
	pg := 0.0
	if p.ai == 0 {
		if !sv.o.NoShrinking && g > p.pgMaxOld {
			p.active--
			p.index[p.s], p.index[p.active] = p.index[p.active], p.index[p.s]
			return
		}
		pg = min(g, 0)
	} else {
		pg = g
	}
	p.pgMax, p.pgMin = max(p.pgMax, pg), min(p.pgMin, pg)
	if math.Abs(pg) > 1e-12 {
		old := p.ai
		p.alpha[i] = max(old-g/(p.qi+sv.diag), 0)
		delta := (p.alpha[i] - old) * p.yi
		sv.x.axpy(i, delta, p.w[:sv.d])
		if sv.hasBias {
			p.w[sv.d] += delta * sv.o.BiasValue
		}
	}
	p.s++
}

// finish records the weights of p (nil when cancelled) and its number of
// outer iterations.
func (sv *dualSolver) finish(p *dualProblem) {
	sv.iter[p.j] = p.iter
	switch {
	case sv.cancelled[p.j] != nil:
	case sv.hasBias:
		sv.w[p.j] = p.w
	default:
		sv.w[p.j] = p.w[:sv.d]
	}
}

// Decision returns the decision values of every row: one per binary
// problem (none for a one-class model).
func (m *Model) Decision(x Features) ([][]float64, error) {
	if x == nil {
		return nil, errors.New("classify: nil features")
	}
	if x.Cols() != m.Features {
		return nil, fmt.Errorf("classify: examples have %d features, the model %d", x.Cols(), m.Features)
	}
	out := make([][]float64, x.Rows())
	for i := range out {
		out[i] = make([]float64, len(m.Weights))
		for j, w := range m.Weights {
			v := x.dot(i, w[:m.Features])
			if m.Bias != 0 {
				v += w[m.Features] * m.Bias
			}
			out[i][j] = v
		}
	}
	return out, nil
}

// Predict returns the predicted label of every row.
func (m *Model) Predict(x Features) ([]int, error) {
	dec, err := m.Decision(x)
	if err != nil {
		return nil, err
	}
	pred := make([]int, len(dec))
	for i, d := range dec {
		switch len(m.Weights) {
		case 0:
			pred[i] = m.Classes[0]
		case 1:
			pred[i] = m.Classes[0]
			if d[0] > 0 {
				pred[i] = m.Classes[1]
			}
		default:
			best := 0
			for j := 1; j < len(d); j++ {
				if d[j] > d[best] {
					best = j
				}
			}
			pred[i] = m.Classes[best]
		}
	}
	return pred, nil
}
