package classify

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// refTrain is Train as it was before the binary problems were solved in
// lockstep: one problem after the other, each by refSolveDual, the
// straightforward transcription of Hsieh et al. 2008, Algorithm 1 with the
// shrinking of Sec. 3.2. TestLockstepBits compares Train with it bit for bit.
func refTrain(ctx context.Context, x Features, y []int, opts Options) (*Model, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	n := x.Rows()
	classes := slices.Clone(y)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	m := &Model{Classes: classes, Bias: o.BiasValue, Features: x.Cols()}
	var positives []int
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
	qd := make([]float64, n)
	for i := range n {
		qd[i] = x.sqNorm(i) + o.BiasValue*o.BiasValue
	}
	for j := range positives {
		yy := make([]float64, n)
		for i, l := range y {
			yy[i] = -1
			if l == positives[j] {
				yy[i] = 1
			}
		}
		rng := engine.NewRand(engine.DeriveSeed(o.Seed, "classify", strconv.Itoa(j)))
		var err error
		m.Weights[j], m.Iterations[j], converged[j], err = refSolveDual(ctx, x, yy, qd, o, rng)
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

// refSolveDual is solveDual before the lockstep: one problem, one dot
// product at a time.
func refSolveDual(ctx context.Context, x Features, y, qd []float64, o Options, rng *rand.Rand) ([]float64, int, bool, error) {
	n, d := x.Rows(), x.Cols()
	hasBias := o.BiasValue != 0
	w := make([]float64, d+1)
	diag := 0.5 / o.C
	alpha := make([]float64, n)
	index := make([]int, n)
	for i := range index {
		index[i] = i
	}
	active := n
	pgMaxOld := math.Inf(1)
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
			g := refDot(x, i, w[:d])
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
				refAxpy(x, i, delta, w[:d])
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

// refDot and refAxpy are the row kernels before the lockstep, written out
// here so that a change to features.go cannot change the reference.
func refDot(x Features, i int, w []float64) float64 {
	s := 0.0
	switch x := x.(type) {
	case *denseRows:
		for j, v := range x.row(i) {
			s += v * w[j]
		}
	case *sparseRows:
		cols, vals := x.row(i)
		for k, c := range cols {
			s += vals[k] * w[c]
		}
	default:
		panic("refDot: unknown features")
	}
	return s
}

func refAxpy(x Features, i int, a float64, w []float64) {
	switch x := x.(type) {
	case *denseRows:
		for j, v := range x.row(i) {
			w[j] += a * v
		}
	case *sparseRows:
		cols, vals := x.row(i)
		for k, c := range cols {
			w[c] += a * vals[k]
		}
	default:
		panic("refAxpy: unknown features")
	}
}

// sameModel reports the first difference between two models, comparing
// every weight by its bits.
func sameModel(got, want *Model) error {
	if !slices.Equal(got.Classes, want.Classes) || got.Bias != want.Bias || got.Features != want.Features {
		return fmt.Errorf("classes %v bias %v features %d, want %v %v %d", got.Classes, got.Bias, got.Features, want.Classes, want.Bias, want.Features)
	}
	if !slices.Equal(got.Iterations, want.Iterations) {
		return fmt.Errorf("iterations %v, want %v", got.Iterations, want.Iterations)
	}
	if !slices.Equal(got.Warnings, want.Warnings) {
		return fmt.Errorf("warnings %q, want %q", got.Warnings, want.Warnings)
	}
	if len(got.Weights) != len(want.Weights) {
		return fmt.Errorf("%d weight vectors, want %d", len(got.Weights), len(want.Weights))
	}
	for j := range got.Weights {
		if len(got.Weights[j]) != len(want.Weights[j]) {
			return fmt.Errorf("problem %d: %d weights, want %d", j, len(got.Weights[j]), len(want.Weights[j]))
		}
		for k, v := range got.Weights[j] {
			if math.Float64bits(v) != math.Float64bits(want.Weights[j][k]) {
				return fmt.Errorf("problem %d weight %d: %v (%#x), want %v (%#x)", j, k, v, math.Float64bits(v), want.Weights[j][k], math.Float64bits(want.Weights[j][k]))
			}
		}
	}
	return nil
}

// randomProblem draws n rows of d features in the given number of classes:
// non-negative (topic-like, rows scaled to unit length) or signed, with
// about a fifth of the rows all zero (or one zero column for d = 1 chance),
// some exact zeros and negative zeros, labels from a planted argmax with
// noise so that the classes overlap.
func randomProblem(rng *rand.Rand, n, d, classes int) (*mat.Dense, []int) {
	x := mat.NewDense(n, d, nil)
	y := make([]int, n)
	signed := rng.IntN(2) == 0
	for i := range n {
		row := x.RawRowView(i)
		y[i] = rng.IntN(classes)
		if rng.IntN(5) == 0 {
			if rng.IntN(2) == 0 {
				for j := range row {
					row[j] = math.Copysign(0, -1)
				}
			}
			continue
		}
		norm := 0.0
		for j := range row {
			switch r := rng.IntN(10); {
			case r == 0:
				row[j] = 0
			case r == 1:
				row[j] = math.Copysign(0, -1)
			case signed:
				row[j] = rng.NormFloat64()
			default:
				row[j] = rng.Float64()
			}
			if j%classes == y[i] && rng.IntN(3) > 0 {
				row[j] += 1
			}
			norm += row[j] * row[j]
		}
		if !signed && norm > 0 {
			for j := range row {
				row[j] /= math.Sqrt(norm)
			}
		}
	}
	return x, y
}

func sparseFromDense(x *mat.Dense) *sparse.CSR {
	n, d := x.Dims()
	var ts []sparse.Triplet
	for i := range n {
		for j, v := range x.RawRowView(i) {
			if v != 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: v})
			}
		}
	}
	m, err := sparse.FromTriplets(n, d, ts)
	if err != nil {
		panic(err)
	}
	return m
}

// TestLockstepBits compares Train (the binary problems advanced in
// lockstep, serially and on a pool) with refTrain (one problem after the
// other) bit for bit on random problems: dense and sparse rows, whole
// matrices and row subsets, 1 to 21 classes, with and without bias and
// shrinking, small MaxIter (problems stopped unconverged) and large.
func TestLockstepBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(2008, 1))
	pool := parallel.NewPool(3)
	sizes := []int{1, 2, 3, 7, 40, 200, 1000, 3000}
	dims := []int{1, 2, 3, 5, 8, 17, 60, 130}
	classCounts := []int{1, 2, 3, 5, 8, 21}
	cases, problems, stopped := 0, 0, 0
	for trial := range 160 {
		n := sizes[trial%len(sizes)]
		d := dims[rng.IntN(len(dims))]
		if n >= 1000 && d > 60 {
			d = 60 // keeps the test under a few seconds
		}
		classes := classCounts[trial%len(classCounts)]
		x, y := randomProblem(rng, n, d, classes)
		opts := Options{
			C:           []float64{0.01, 1, 10, 1000}[rng.IntN(4)],
			NoBias:      rng.IntN(3) == 0,
			BiasValue:   []float64{0, 1, 0.5}[rng.IntN(3)],
			Tol:         []float64{0, 1e-3, 0.5}[rng.IntN(3)],
			MaxIter:     []int{1, 2, 5, 0}[rng.IntN(4)],
			NoShrinking: rng.IntN(3) == 0,
			Seed:        rng.Uint64(),
		}
		if n >= 1000 && opts.MaxIter == 0 {
			// at most 5 outer iterations on the large problems, whose full
			// runs (up to 1000) cost minutes; the small ones cover convergence
			opts.MaxIter = 5
		}
		var feats []Features
		feats = append(feats, Dense(x), Sparse(sparseFromDense(x)))
		if n > 2 {
			// a subset in a shuffled order, as the cross-validation trains
			idx := rng.Perm(n)[:n-n/5]
			sub := make([]int, len(idx))
			for k, i := range idx {
				sub[k] = y[i]
			}
			for _, f := range []Features{Dense(x).subset(idx), Sparse(sparseFromDense(x)).subset(idx)} {
				want, err := refTrain(context.Background(), f, sub, opts)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Train(context.Background(), f, sub, opts)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameModel(got, want); err != nil {
					t.Fatalf("trial %d subset %T n=%d d=%d classes=%d %+v: %v", trial, f, len(idx), d, classes, opts, err)
				}
				cases++
			}
		}
		for _, f := range feats {
			want, err := refTrain(context.Background(), f, y, opts)
			if err != nil {
				t.Fatal(err)
			}
			problems += len(want.Weights)
			stopped += len(want.Warnings)
			for _, p := range []*parallel.Pool{nil, pool} {
				o := opts
				o.Pool = p
				got, err := Train(context.Background(), f, y, o)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameModel(got, want); err != nil {
					t.Fatalf("trial %d %T pool %v n=%d d=%d classes=%d %+v: %v", trial, f, p != nil, n, d, classes, opts, err)
				}
				cases++
			}
		}
	}
	t.Logf("%d models bit-identical; of the whole-matrix ones' %d binary problems, %d stopped by MaxIter", cases, problems, stopped)
	if stopped == 0 || stopped == problems {
		t.Errorf("%d of %d problems stopped by MaxIter: want both outcomes covered", stopped, problems)
	}
}

// BenchmarkTrainTopics trains on a problem the size of a TNMF
// classification (tnmf2013/figures5-8): 10,000 documents, 60 topic
// features (non-negative rows of unit length), 20 classes from a planted
// argmax with 30 % of the labels redrawn at random. cpu-ms/op is the
// process's CPU time per training (it varies far less than the wall time
// on a shared machine).
func BenchmarkTrainTopics(b *testing.B) {
	n, k, classes := 10000, 60, 20
	rng := rand.New(rand.NewPCG(60, 20))
	x := mat.NewDense(n, k, nil)
	y := make([]int, n)
	for i := range n {
		row := x.RawRowView(i)
		norm := 0.0
		for j := range row {
			row[j] = rng.ExpFloat64()
			norm += row[j] * row[j]
		}
		for j := range row {
			row[j] /= math.Sqrt(norm)
		}
		best := 0
		for j := range classes {
			if row[j] > row[best] {
				best = j
			}
		}
		y[i] = best
		if rng.IntN(10) < 3 {
			y[i] = rng.IntN(classes)
		}
	}
	f := Dense(x)
	cpu0 := cpuSeconds()
	for b.Loop() {
		if _, err := Train(context.Background(), f, y, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
}

// cpuSeconds is the process's user and system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
