package factortest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// fake records failures instead of failing the test, so the suite's checks
// can be run against broken families.
type fake struct {
	mu     sync.Mutex
	errors []string
}

func (f *fake) Helper() {}
func (f *fake) Errorf(format string, args ...any) {
	f.mu.Lock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}
func (f *fake) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}
func (f *fake) Logf(string, ...any) {}

// runCheck runs check on its own goroutine (Fatalf ends it) and returns the
// failures it reported.
func runCheck(check func(r Reporter)) []string {
	f := &fake{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(f)
	}()
	<-done
	return f.errors
}

// bug selects a defect of the toy family.
type bug int

const (
	none bug = iota
	negative
	increasing
	workerDependent
	seedIgnoredRandomly
	ignoresCancel
	panicsOnBadK
	wrongShape
	foldInPanics
	hugeSilentZero // on huge data: a success with zero factors, objective 0
	hugeNilModel   // on huge data: a numerical failure with a nil model
	hugeNaNModel   // on huge data: a numerical failure with a NaN factor
	rejectsK2      // K = 2 is an invalid configuration (the huge check's K)
	ownKWording    // K > min(M, N) refused in words of its own
	errsCancelled  // a context cancelled before Fit is an error
	readsAnyD      // fits a D with NaN or no non-zero entry
)

// toy is a deterministic stand-in model: U and V are filled from the seed,
// the objective decreases as 1/iteration. Its defects are switched on by b.
type toy struct {
	k, iters int
	seed     uint64
	pool     *parallel.Pool
	b        bug
}

var toyCalls int

func (m toy) Name() string { return "toy" }

func (m toy) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	if _, err := c.Transposed("toy"); err != nil && m.b != readsAnyD {
		return nil, engine.Status{}, err
	}
	if m.k < 0 {
		if m.b == panicsOnBadK {
			panic("negative K")
		}
		return nil, engine.Status{}, errors.New("toy: negative K")
	}
	if m.b == rejectsK2 && m.k == 2 {
		return nil, engine.Status{}, errors.New("toy: K = 2 is not a valid split")
	}
	if m.k > min(c.Terms(), c.Docs()) {
		if m.b == ownKWording {
			return nil, engine.Status{}, errors.New("toy: K too large")
		}
		k := m.k
		return nil, engine.Status{}, engine.ResolveK("toy", &k, 3, c.Terms(), c.Docs())
	}
	if m.b == errsCancelled && ctx.Err() != nil {
		return nil, engine.Status{}, ctx.Err()
	}
	rng := engine.NewRand(m.seed)
	if m.b == seedIgnoredRandomly {
		toyCalls++
		rng = engine.NewRand(uint64(toyCalls))
	}
	rows := c.Docs()
	if m.b == wrongShape {
		rows++
	}
	u := mat.NewDense(c.Terms(), m.k, nil)
	v := mat.NewDense(rows, m.k, nil)
	for _, f := range []*mat.Dense{u, v} {
		raw := f.RawMatrix().Data
		for i := range raw {
			raw[i] = rng.Float64()
		}
	}
	if m.b == negative {
		u.Set(0, 0, -1)
	}
	if m.b == workerDependent {
		v.Set(0, 0, float64(m.pool.Workers()))
	}
	model := &toyModel{u: u, v: v, b: m.b}
	if huge(c) {
		switch m.b {
		case hugeSilentZero:
			u.Zero()
			v.Zero()
			return model, engine.Status{Reason: engine.Converged, Iterations: 1}, nil
		case hugeNilModel:
			return nil, engine.Status{Reason: engine.NumericalFailure, Detail: "iteration 1: overflow"}, nil
		case hugeNaNModel:
			u.Set(0, 0, math.NaN())
		}
		return model, engine.Status{Reason: engine.NumericalFailure, Detail: "iteration 1: overflow"}, nil
	}
	for it := 1; it <= m.iters; it++ {
		if m.b != ignoresCancel && ctx.Err() != nil {
			return model, engine.Status{Reason: engine.Cancelled, Iterations: it - 1}, nil
		}
		obj := 1 / float64(it)
		if m.b == increasing && it == 3 {
			obj = 10
		}
		rec.Record(engine.Iteration{Iter: it, Objective: obj})
	}
	return model, engine.Status{Reason: engine.IterationLimit, Iterations: m.iters}, nil
}

// huge reports an entry above 1e100 (the corpora of checkHuge).
func huge(c *engine.Corpus) bool {
	for _, x := range c.D.Val {
		if x > 1e100 {
			return true
		}
	}
	return false
}

type toyModel struct {
	u, v *mat.Dense
	b    bug
}

func (m *toyModel) TermTopics() *mat.Dense { return m.u }
func (m *toyModel) DocTopics() *mat.Dense  { return m.v }
func (m *toyModel) FoldIn(_ context.Context, x *sparse.CSR) (*mat.Dense, error) {
	if m.b == foldInPanics {
		panic("fold-in")
	}
	r, _ := m.u.Dims()
	if x.Cols != r {
		return nil, errors.New("wrong width")
	}
	_, k := m.u.Dims()
	return mat.NewDense(max(x.Rows, 1), k, nil), nil
}

func toyFamily(b bug) Family {
	return Family{
		Name: "toy",
		New: func(c *engine.Corpus, cfg Config) (engine.Method, error) {
			return toy{k: cfg.K, iters: cfg.MaxIter, seed: cfg.Seed, pool: cfg.Pool, b: b}, nil
		},
		NonNegative: true, Monotone: true, KLimited: true, K: 3, Iters: 6, FoldInIters: 6,
	}
}

// TestSuiteCatchesDefects runs each check on the correct toy (no failure)
// and on a toy with a defect the check is meant to catch (a failure).
func TestSuiteCatchesDefects(t *testing.T) {
	c := Corpus(t, 300, 1100, 6, 1)
	checks := map[string]func(r Reporter, f Family){
		"shapes":     func(r Reporter, f Family) { checkShapes(r, f, c) },
		"same-seed":  func(r Reporter, f Family) { checkSameSeed(r, f, c) },
		"workers":    func(r Reporter, f Family) { checkWorkers(r, f, c) },
		"cancel":     func(r Reporter, f Family) { checkCancel(r, f, c) },
		"invalid":    func(r Reporter, f Family) { checkInvalid(r, f, c) },
		"degenerate": func(r Reporter, f Family) { checkDegenerate(r, f) },
		"huge":       func(r Reporter, f Family) { checkHuge(r, f) },
		"foldin":     func(r Reporter, f Family) { checkFoldIn(r, f, c) },
	}
	for name, check := range checks {
		if errs := runCheck(func(r Reporter) { check(r, toyFamily(none)) }); len(errs) > 0 {
			t.Errorf("check %s fails the correct toy: %v", name, errs)
		}
	}
	for _, tc := range []struct {
		check string
		b     bug
	}{
		{"shapes", negative},
		{"shapes", increasing},
		{"shapes", wrongShape},
		{"same-seed", seedIgnoredRandomly},
		{"workers", workerDependent},
		{"cancel", ignoresCancel},
		{"invalid", panicsOnBadK},
		{"invalid", ownKWording},
		{"invalid", readsAnyD},
		{"cancel", errsCancelled},
		{"foldin", foldInPanics},
		{"huge", hugeSilentZero},
		{"huge", hugeNilModel},
		{"huge", hugeNaNModel},
		{"huge", rejectsK2},
	} {
		if errs := runCheck(func(r Reporter) { checks[tc.check](r, toyFamily(tc.b)) }); len(errs) == 0 {
			t.Errorf("check %s did not catch defect %d", tc.check, tc.b)
		}
	}
}

func TestCorpus(t *testing.T) {
	c := Corpus(t, 50, 40, 3, 9)
	if c.Terms() != 50 || c.Docs() != 40 {
		t.Fatalf("corpus is %d×%d", c.Terms(), c.Docs())
	}
	for n := 0; n < c.Docs(); n++ {
		if idx, _ := c.DT.Row(n); len(idx) == 0 {
			t.Errorf("document %d is empty", n)
		}
	}
	d := Corpus(t, 50, 40, 3, 9)
	for q := range c.D.Val {
		if c.D.Val[q] != d.D.Val[q] || c.D.ColIdx[q] != d.D.ColIdx[q] {
			t.Fatal("Corpus is not deterministic in its seed")
		}
	}
}
