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
	// Pool, when set, solves the one-vs-rest problems in parallel; the
	// result is the same bits as the serial run.
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
	converged := make([]bool, len(positives))
	cancelled := make([]error, len(positives))
	qd := make([]float64, n) // xᵢᵀxᵢ + B²
	for i := range n {
		qd[i] = x.sqNorm(i) + o.BiasValue*o.BiasValue
	}
	solveOne := func(j int) {
		yy := make([]float64, n)
		for i, l := range y {
			yy[i] = -1
			if l == positives[j] {
				yy[i] = 1
			}
		}
		rng := engine.NewRand(engine.DeriveSeed(o.Seed, "classify", strconv.Itoa(j)))
		m.Weights[j], m.Iterations[j], converged[j], cancelled[j] = solveDual(ctx, x, yy, qd, o, rng)
	}
	if o.Pool != nil && len(positives) > 1 {
		o.Pool.For(len(positives), 1, func(_, lo, hi int) {
			for j := lo; j < hi; j++ {
				solveOne(j)
			}
		})
	} else {
		for j := range positives {
			solveOne(j)
		}
	}
	for _, err := range cancelled {
		if err != nil {
			return nil, fmt.Errorf("classify: %w", err)
		}
	}
	for j, ok := range converged {
		if !ok {
			m.Warnings = append(m.Warnings, fmt.Sprintf("classify: problem %d (class %d positive) stopped after %d iterations without reaching Tol %g",
				j, positives[j], m.Iterations[j], o.Tol))
		}
	}
	return m, nil
}

// solveDual runs dual coordinate descent (Hsieh et al. 2008, Algorithm 1
// with the shrinking of Sec. 3.2) for the L2-loss SVM. It returns w (with
// the bias weight last when o.BiasValue ≠ 0), the outer iterations and
// whether the tolerance was reached, or ctx's error when ctx is cancelled.
func solveDual(ctx context.Context, x Features, y, qd []float64, o Options, rng *rand.Rand) ([]float64, int, bool, error) {
	n, d := x.Rows(), x.Cols()
	hasBias := o.BiasValue != 0
	w := make([]float64, d+1)
	diag := 0.5 / o.C // D_ii
	alpha := make([]float64, n)
	index := make([]int, n)
	for i := range index {
		index[i] = i
	}
	active := n
	pgMaxOld := math.Inf(1) // max PG of the previous iteration, for shrinking
	iter, converged := 0, false
	for iter < o.MaxIter {
		if err := ctx.Err(); err != nil {
			return nil, iter, false, err
		}
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		for i := 0; i < active; i++ {
			j := i + rng.IntN(active-i)
			index[i], index[j] = index[j], index[i]
		}
		for s := 0; s < active; s++ {
			i := index[s]
			g := x.dot(i, w[:d])
			if hasBias {
				g += w[d] * o.BiasValue
			}
			g = y[i]*g - 1 + diag*alpha[i]
			pg := 0.0
			if alpha[i] == 0 {
				if !o.NoShrinking && g > pgMaxOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				pg = min(g, 0)
			} else {
				pg = g
			}
			pgMax, pgMin = max(pgMax, pg), min(pgMin, pg)
			if math.Abs(pg) > 1e-12 {
				old := alpha[i]
				alpha[i] = max(old-g/(qd[i]+diag), 0)
				delta := (alpha[i] - old) * y[i]
				x.axpy(i, delta, w[:d])
				if hasBias {
					w[d] += delta * o.BiasValue
				}
			}
		}
		iter++
		if pgMax-pgMin <= o.Tol {
			if active == n {
				converged = true
				break
			}
			// the shrunk problem converged: check every coordinate again
			active = n
			pgMaxOld = math.Inf(1)
			continue
		}
		pgMaxOld = pgMax
		if pgMaxOld <= 0 {
			pgMaxOld = math.Inf(1)
		}
	}
	if !hasBias {
		w = w[:d]
	}
	return w, iter, converged, nil
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
