package factortest

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// MonotoneSlack is the relative increase of the objective between two
// recorded iterations that the monotonicity check tolerates (rounding in
// the evaluation of the objective; see sparse.ResidualSqParts).
const MonotoneSlack = 1e-12

// Config is what the suite asks a family's constructor for.
type Config struct {
	// K is the number of topics (may be invalid: negative, or larger than
	// the corpus allows, when the suite tests validation).
	K int
	// Seed is the seed of every random choice of the fit.
	Seed uint64
	// MaxIter is the number of iterations to run. The constructor must
	// disable the relative-tolerance stop (engine.Stopping.RelTol < 0), so
	// that a fit runs exactly MaxIter iterations unless cancelled.
	MaxIter int
	// Pool is the pool the Method must run on (its Options.Pool).
	Pool *parallel.Pool
}

// Family describes a model family to the suite.
type Family struct {
	// Name labels the subtests.
	Name string
	// New returns the Method for corpus c and cfg. It may return an error
	// for an invalid cfg (the validation checks accept an error from New or
	// from Fit).
	New func(c *engine.Corpus, cfg Config) (engine.Method, error)
	// NonNegative: both factors (and fold-ins) must be ≥ 0.
	NonNegative bool
	// NonNegativeData: the model needs D ≥ 0 (counts, or a matrix that NMF
	// factors), so a corpus built as a literal, past NewCorpus's check, with
	// a negative weight must be an error naming the entry, "D[r,c] = -2".
	NonNegativeData bool
	// Monotone: the objective is non-increasing (the paper proves it).
	Monotone bool
	// KLimited: K > min(M, N) must be an error, worded as
	// engine.CheckFactors words it. The group models leave it off: their
	// bound is on a document's Ks + Kc topics, not on K = Ks + P·Kc
	// (grouping.Layout.CheckK, tested in engine/grouping).
	KLimited bool
	// OneShot: the fit is one direct computation recorded as a single
	// iteration (LSI's truncated SVD), so it cannot be cancelled after
	// iteration 2; the cancel check then covers only a context cancelled
	// before Fit.
	OneShot bool
	// K is the number of topics used by the checks; 0 means 4.
	K int
	// HugeK is the number of topics of the huge-entry fits (3×3 and 4×4
	// corpora); 0 means 2. A family whose model needs more sets it (GNMFNC
	// needs K = Ks + 3·Kp ≥ 4 on three categories).
	HugeK int
	// Iters is the number of iterations of the checked fits; 0 means 8.
	Iters int
	// Invalid lists family-specific invalid configurations (e.g. a NaN λ);
	// each must give an error from New or from Fit, not a panic.
	Invalid []Invalid
	// FoldInCheck, if set, is called with a model fitted on the suite's main
	// corpus for FoldInIters iterations, the training documents folded in
	// (rows of DocTopics) and their fold-in, to check that "fold-in of a
	// training document returns its representation" within the family's
	// tolerance.
	FoldInCheck func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense)
	// FoldInIters is the number of iterations of the model given to
	// FoldInCheck; 0 means 200.
	FoldInIters int
	// Reload, if set, saves a fitted model and loads it back (a round trip
	// through engine/modelio's files): the loaded model must have the
	// same factors and fold in with the same bits as the fitted one.
	Reload func(m engine.Model) (engine.Model, error)
}

// Invalid is one invalid configuration.
type Invalid struct {
	Name string
	New  func(c *engine.Corpus, cfg Config) (engine.Method, error)
}

// Reporter is the part of *testing.T the checks use, so that the suite's
// own tests can run a check against a broken family and see it fail. A
// *testing.T or *testing.B is one.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}

// outcome is one guarded fit.
type outcome struct {
	model    engine.Model
	status   engine.Status
	err      error
	panicked any
	rec      *engine.Recorder
}

// fit builds and fits, turning a panic into outcome.panicked. The fit runs
// inside cfg.Pool.Do so that a pool of one worker runs one goroutine.
func fit(ctx context.Context, newFn func(*engine.Corpus, Config) (engine.Method, error), c *engine.Corpus, cfg Config, rec *engine.Recorder) (o outcome) {
	o.rec = rec
	if cfg.Pool == nil {
		cfg.Pool = parallel.NewPool(2)
	}
	defer func() {
		if r := recover(); r != nil {
			o.panicked = r
		}
	}()
	meth, err := newFn(c, cfg)
	if err != nil {
		o.err = err
		return o
	}
	run := func() {
		defer func() {
			if r := recover(); r != nil {
				o.panicked = r
			}
		}()
		o.model, o.status, o.err = meth.Fit(ctx, c, rec)
	}
	if err := cfg.Pool.Do(context.Background(), run); err != nil {
		o.err = err
	}
	return o
}

// Run runs every check on family f. See the package documentation.
func Run(t *testing.T, f Family) {
	t.Helper()
	if f.New == nil {
		t.Fatal("factortest: Family.New is nil")
	}
	f.K = cmp.Or(f.K, 4)
	f.Iters = cmp.Or(f.Iters, 8)
	f.FoldInIters = cmp.Or(f.FoldInIters, 200)
	c := Corpus(t, 300, 1100, 6, 1)
	name := cmp.Or(f.Name, "family")
	t.Run(name+"/shapes", func(t *testing.T) { checkShapes(t, f, c) })
	t.Run(name+"/same-seed", func(t *testing.T) { checkSameSeed(t, f, c) })
	t.Run(name+"/workers", func(t *testing.T) { checkWorkers(t, f, c) })
	t.Run(name+"/cancel", func(t *testing.T) { checkCancel(t, f, c) })
	t.Run(name+"/invalid", func(t *testing.T) { checkInvalid(t, f, c) })
	t.Run(name+"/degenerate", func(t *testing.T) { checkDegenerate(t, f) })
	t.Run(name+"/huge", func(t *testing.T) { checkHuge(t, f) })
	t.Run(name+"/foldin", func(t *testing.T) { checkFoldIn(t, f, c) })
	if f.Reload != nil {
		t.Run(name+"/saved", func(t *testing.T) { checkSaved(t, f, c) })
	}
}

// checkSaved fits a model, reloads it (Family.Reload) and checks that the
// loaded model's TermTopics, DocTopics and fold-in of new and training
// documents are the fitted model's, bit for bit.
func checkSaved(t Reporter, f Family, c *engine.Corpus) {
	o := mustFit(t, f, c, f.cfg(19, parallel.NewPool(2)), engine.NewRecorder())
	loaded, err := f.Reload(o.model)
	if err != nil {
		t.Fatalf("save and load: %v", err)
	}
	for _, p := range []struct {
		what string
		a, b *mat.Dense
	}{{"TermTopics", o.model.TermTopics(), loaded.TermTopics()}, {"DocTopics", o.model.DocTopics(), loaded.DocTopics()}} {
		if d := DiffBits(p.a, p.b); d != "" {
			t.Errorf("loaded model's %s differs: %s", p.what, d)
		}
	}
	// New documents: training documents with every count doubled.
	rows := make([]int, 40)
	for i := range rows {
		rows[i] = 3 + 17*i
	}
	other := c.DT.SelectRows(rows)
	other.Val = append([]float64(nil), other.Val...)
	for q := range other.Val {
		other.Val[q] *= 2
	}
	for _, x := range []struct {
		what string
		x    *sparse.CSR
	}{{"training documents", c.DT.SelectRows([]int{0, 1, 2, 500, 1099})}, {"new documents", other}} {
		want, err := o.model.FoldIn(context.Background(), x.x)
		if err != nil {
			t.Fatalf("fitted model: FoldIn of %s: %v", x.what, err)
		}
		got, err := loaded.FoldIn(context.Background(), x.x)
		if err != nil {
			t.Fatalf("loaded model: FoldIn of %s: %v", x.what, err)
		}
		if d := DiffBits(want, got); d != "" {
			t.Errorf("FoldIn of %s: the loaded model differs from the fitted one: %s", x.what, d)
		}
	}
}

func (f Family) cfg(seed uint64, pool *parallel.Pool) Config {
	return Config{K: f.K, Seed: seed, MaxIter: f.Iters, Pool: pool}
}

func mustFit(t Reporter, f Family, c *engine.Corpus, cfg Config, rec *engine.Recorder) outcome {
	t.Helper()
	o := fit(context.Background(), f.New, c, cfg, rec)
	if o.panicked != nil {
		t.Fatalf("Fit panicked: %v", o.panicked)
	}
	if o.err != nil {
		t.Fatalf("Fit: %v", o.err)
	}
	if o.model == nil {
		t.Fatalf("Fit returned a nil model and no error")
	}
	return o
}

func checkFactorShapes(t Reporter, m engine.Model, terms, docs, k int) {
	t.Helper()
	u, v := m.TermTopics(), m.DocTopics()
	if u == nil || v == nil {
		t.Fatalf("nil factors: TermTopics %v, DocTopics %v", u != nil, v != nil)
	}
	if r, c := u.Dims(); r != terms || c != k {
		t.Errorf("TermTopics is %d×%d, want %d×%d (M×K)", r, c, terms, k)
	}
	if r, c := v.Dims(); r != docs || c != k {
		t.Errorf("DocTopics is %d×%d, want %d×%d (N×K)", r, c, docs, k)
	}
	for name, a := range map[string]*mat.Dense{"TermTopics": u, "DocTopics": v} {
		if i, j, ok := firstBad(a, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }); ok {
			t.Errorf("%s[%d,%d] = %v is not finite", name, i, j, a.At(i, j))
		}
	}
}

func firstBad(a *mat.Dense, bad func(float64) bool) (int, int, bool) {
	if a.IsEmpty() {
		return 0, 0, false
	}
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if bad(a.At(i, j)) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

func checkShapes(t Reporter, f Family, c *engine.Corpus) {
	rec := engine.NewRecorder()
	o := mustFit(t, f, c, f.cfg(7, parallel.NewPool(2)), rec)
	checkFactorShapes(t, o.model, c.Terms(), c.Docs(), f.K)
	st := o.status
	if st.Reason != engine.IterationLimit && st.Reason != engine.Converged {
		t.Errorf("status %v, want iteration limit or converged", st)
	}
	if st.Iterations < 1 || st.Iterations > f.Iters {
		t.Errorf("status reports %d iterations, want 1..%d", st.Iterations, f.Iters)
	}
	its := rec.Iterations()
	if len(its) != st.Iterations {
		t.Errorf("recorder holds %d iterations, status says %d", len(its), st.Iterations)
	}
	for i, it := range its {
		if it.Iter != i+1 {
			t.Errorf("recorded iteration %d has Iter = %d", i, it.Iter)
		}
		if it.Seconds < 0 || math.IsNaN(it.Seconds) {
			t.Errorf("iteration %d: Seconds = %v", it.Iter, it.Seconds)
		}
	}
	if f.NonNegative {
		for name, a := range map[string]*mat.Dense{"TermTopics": o.model.TermTopics(), "DocTopics": o.model.DocTopics()} {
			if i, j, bad := firstBad(a, func(x float64) bool { return x < 0 }); bad {
				t.Errorf("%s[%d,%d] = %v is negative", name, i, j, a.At(i, j))
			}
		}
	}
	if f.Monotone {
		NonIncreasing(t, f.Name, its, MonotoneSlack)
	}
}

// NonIncreasing fails t for every evaluated objective of its that rose
// above the previous evaluated one by more than the relative slack,
// obj > prev + slack·|prev| (the rounding of the objective's evaluation;
// MonotoneSlack for a fit whose every update lowers it); what names the
// fit. An iteration whose objective was not evaluated (NaN, see
// engine.Stopping.EvalEvery) is skipped, and fewer than two evaluated
// objectives fail: monotonicity was then not checked. The suite runs it
// on Family.Monotone families; the families' own tests run it on their
// corpora.
func NonIncreasing(t Reporter, what string, its []engine.Iteration, slack float64) {
	t.Helper()
	prev, prevIter, n := math.NaN(), 0, 0
	for _, it := range its {
		obj := it.Objective
		if math.IsNaN(obj) {
			continue
		}
		n++
		if !math.IsNaN(prev) && obj > prev+slack*math.Abs(prev) {
			t.Errorf("%s: objective rose from %.17g (iteration %d) to %.17g (iteration %d)", what, prev, prevIter, obj, it.Iter)
		}
		prev, prevIter = obj, it.Iter
	}
	if n < 2 {
		t.Errorf("%s: only %d evaluated objectives recorded: monotonicity not checked", what, n)
	}
}

// Decreasing is NonIncreasing and, beyond it, a last recorded objective
// below the first: the fit made progress.
func Decreasing(t Reporter, what string, its []engine.Iteration, slack float64) {
	t.Helper()
	NonIncreasing(t, what, its, slack)
	if len(its) > 0 {
		if first, last := its[0].Objective, its[len(its)-1].Objective; !(last < first) {
			t.Errorf("%s: objective did not decrease overall: %.17g → %.17g", what, first, last)
		}
	}
}

// sameBits compares two fits bit for bit.
func sameBits(t Reporter, what string, a, b outcome) {
	t.Helper()
	for _, pair := range []struct {
		name string
		x, y *mat.Dense
	}{
		{"TermTopics", a.model.TermTopics(), b.model.TermTopics()},
		{"DocTopics", a.model.DocTopics(), b.model.DocTopics()},
	} {
		if msg := DiffBits(pair.x, pair.y); msg != "" {
			t.Errorf("%s: %s differ: %s", what, pair.name, msg)
		}
	}
	ia, ib := a.rec.Iterations(), b.rec.Iterations()
	if len(ia) != len(ib) {
		t.Errorf("%s: %d vs %d recorded iterations", what, len(ia), len(ib))
		return
	}
	for i := range ia {
		if math.Float64bits(ia[i].Objective) != math.Float64bits(ib[i].Objective) {
			t.Errorf("%s: objective of iteration %d differs: %.17g vs %.17g", what, ia[i].Iter, ia[i].Objective, ib[i].Objective)
			return
		}
	}
	if a.status.Reason != b.status.Reason || a.status.Iterations != b.status.Iterations {
		t.Errorf("%s: status %v vs %v", what, a.status, b.status)
	}
}

// DiffBits says where x and y first differ bit for bit: their shapes, or
// the first entry (row-major) with both values. It is empty when they have
// the same shape and the same bits.
func DiffBits(x, y *mat.Dense) string {
	xr, xc := x.Dims()
	yr, yc := y.Dims()
	if xr != yr || xc != yc {
		return fmt.Sprintf("shapes %d×%d and %d×%d", xr, xc, yr, yc)
	}
	for i := 0; i < xr; i++ {
		for j := 0; j < xc; j++ {
			if math.Float64bits(x.At(i, j)) != math.Float64bits(y.At(i, j)) {
				return fmt.Sprintf("first at [%d,%d]: %.17g vs %.17g", i, j, x.At(i, j), y.At(i, j))
			}
		}
	}
	return ""
}

func checkSameSeed(t Reporter, f Family, c *engine.Corpus) {
	a := mustFit(t, f, c, f.cfg(11, parallel.NewPool(2)), engine.NewRecorder())
	b := mustFit(t, f, c, f.cfg(11, parallel.NewPool(2)), engine.NewRecorder())
	sameBits(t, "same seed", a, b)
}

func checkWorkers(t Reporter, f Family, c *engine.Corpus) {
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	a := mustFit(t, f, c, f.cfg(13, parallel.NewPool(1)), engine.NewRecorder())
	runtime.GOMAXPROCS(2)
	b := mustFit(t, f, c, f.cfg(13, parallel.NewPool(2)), engine.NewRecorder())
	sameBits(t, "1 vs 2 workers", a, b)
}

func checkCancel(t Reporter, f Family, c *engine.Corpus) {
	if f.OneShot {
		checkPreCancelled(t, f, c)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := engine.NewRecorder()
	rec.OnIteration = func(it engine.Iteration) {
		if it.Iter == 2 {
			cancel()
		}
	}
	cfg := f.cfg(17, parallel.NewPool(2))
	cfg.MaxIter = 50
	o := fit(ctx, f.New, c, cfg, rec)
	if o.panicked != nil {
		t.Fatalf("Fit panicked: %v", o.panicked)
	}
	if o.err != nil {
		t.Fatalf("cancelled Fit returned an error (cancelling is a Status): %v", o.err)
	}
	if o.status.Reason != engine.Cancelled {
		t.Errorf("status %v, want cancelled", o.status)
	}
	if o.status.Iterations < 2 || o.status.Iterations > 3 {
		t.Errorf("cancelled after iteration 2 but status reports %d iterations, want 2 or 3", o.status.Iterations)
	}
	if o.model == nil {
		t.Fatalf("cancelled Fit returned a nil model")
	}
	checkFactorShapes(t, o.model, c.Terms(), c.Docs(), f.K)
	checkPreCancelled(t, f, c)
}

// checkPreCancelled is the cancel check of a context cancelled before Fit
// (the whole cancel check of a OneShot family): valid input and a
// cancelled context give Status Cancelled after 0 iterations and no error
// (engine.Method: an error is for invalid input only), and no panic.
func checkPreCancelled(t Reporter, f Family, c *engine.Corpus) {
	pre, cancelPre := context.WithCancel(context.Background())
	cancelPre()
	o := fit(pre, f.New, c, f.cfg(17, parallel.NewPool(2)), engine.NewRecorder())
	if o.panicked != nil {
		t.Fatalf("Fit with a cancelled context panicked: %v", o.panicked)
	}
	if o.err != nil {
		t.Errorf("Fit with a cancelled context returned an error (cancelling is a Status): %v", o.err)
	} else if o.status.Reason != engine.Cancelled || o.status.Iterations != 0 {
		t.Errorf("Fit with a cancelled context: status %v, want cancelled after 0 iterations", o.status)
	}
}

func wantError(t Reporter, what string, o outcome) {
	t.Helper()
	if o.panicked != nil {
		t.Errorf("%s: panicked (%v), want an error", what, o.panicked)
	} else if o.err == nil {
		t.Errorf("%s: no error (status %v)", what, o.status)
	}
}

func checkInvalid(t Reporter, f Family, c *engine.Corpus) {
	cfg := f.cfg(1, parallel.NewPool(2))
	if f.NonNegativeData {
		neg := *c
		neg.D = c.D.Clone()
		neg.D.Val[0] = -2
		neg.DT = neg.D.T()
		r, col := neg.D.Locate(0)
		want := fmt.Sprintf("D[%d,%d] = -2", r, col)
		if o := fit(context.Background(), f.New, &neg, cfg, nil); o.panicked != nil || o.err == nil || !strings.Contains(o.err.Error(), want) {
			t.Errorf("a corpus with %s: panic %v, error %v; want an error naming the entry", want, o.panicked, o.err)
		}
	}
	// The checks every family makes of D (engine.Corpus.Transposed), in
	// their words: a non-finite entry, and no non-zero entry.
	for _, bad := range []struct {
		what string
		val  float64
		want string
	}{{"a NaN entry", math.NaN(), "D[%d,%d] = NaN, want finite"}, {"no non-zero entry", 0, "has no non-zero entry"}} {
		b := *c
		b.D = c.D.Clone()
		if bad.val == 0 {
			clear(b.D.Val)
		} else {
			b.D.Val[0] = bad.val
		}
		b.DT = b.D.T()
		r, col := b.D.Locate(0)
		want := bad.want
		if strings.Contains(want, "%d") {
			want = fmt.Sprintf(want, r, col)
		}
		if o := fit(context.Background(), f.New, &b, cfg, nil); o.panicked != nil || o.err == nil || !strings.Contains(o.err.Error(), want) {
			t.Errorf("a corpus with %s: panic %v, error %v; want an error saying %q", bad.what, o.panicked, o.err, want)
		}
	}
	cfg.K = -1
	wantError(t, "K = -1", fit(context.Background(), f.New, c, cfg, nil))
	if f.KLimited {
		cfg.K = min(c.Terms(), c.Docs()) + 1
		what := fmt.Sprintf("K = %d > min(M, N)", cfg.K)
		o := fit(context.Background(), f.New, c, cfg, nil)
		wantError(t, what, o)
		// The wording of engine.CheckFactors, the one check of K.
		want := fmt.Sprintf("exceeds min(M, N) = min(%d terms, %d documents) = %d", c.Terms(), c.Docs(), cfg.K-1)
		if o.err != nil && !strings.Contains(o.err.Error(), want) {
			t.Errorf("%s: error %q, want one that says %q", what, o.err, want)
		}
	}
	for _, inv := range f.Invalid {
		wantError(t, inv.Name, fit(context.Background(), inv.New, c, f.cfg(1, parallel.NewPool(2)), nil))
	}
}

// tolerate accepts an error or a finite model of the right shape (also,
// and in particular, with Status NumericalFailure: the model is then the
// last finite iterate).
func tolerate(t Reporter, what string, o outcome, c *engine.Corpus, k int) {
	t.Helper()
	if o.panicked != nil {
		t.Errorf("%s: panicked: %v", what, o.panicked)
		return
	}
	if o.err != nil {
		t.Logf("%s: error (accepted): %v", what, o.err)
		return
	}
	if o.model == nil {
		t.Errorf("%s: nil model and no error (status %v)", what, o.status)
		return
	}
	checkFactorShapes(t, o.model, c.Terms(), c.Docs(), k)
}

// checkHuge fits corpora whose entries overflow every squared norm (1e308,
// a 3×3 of one value, and 1e200, a 4×4 of distinct values): a fit must give
// an error, or Status NumericalFailure with a finite model of the right
// shape; a success is accepted only with a finite model, a finite objective
// and factors that are not identically zero (the mark of an overflow that
// zeroed a norm or a similarity: "converged, objective 0"). Nothing may
// panic. The configuration (K = 2) must fit an ordinary corpus of
// the same shape (entries 1 + i + 2j), or an error on the huge corpus would
// come from validation and the check would never reach the fit.
func checkHuge(t Reporter, f Family) {
	for _, h := range []struct {
		name string
		n    int
		val  func(i, j int) float64
	}{
		{"3×3 of 1e308", 3, func(int, int) float64 { return 1e308 }},
		{"4×4 of about 1e200", 4, func(i, j int) float64 { return float64(1+i+2*j) * 1e200 }},
	} {
		cfg := f.cfg(23, parallel.NewPool(2))
		cfg.K = cmp.Or(f.HugeK, 2)
		ordinary := fit(context.Background(), f.New, square(t, "ordinary", h.n, func(i, j int) float64 { return float64(1 + i + 2*j) }), cfg, nil)
		if ordinary.panicked != nil || ordinary.err != nil || ordinary.model == nil {
			t.Errorf("corpus %s: K = %d does not fit an ordinary %d×%d corpus (panic %v, error %v), so the check would not reach the fit: Family.New must accept it", h.name, cfg.K, h.n, h.n, ordinary.panicked, ordinary.err)
			continue
		}
		c := square(t, "huge", h.n, h.val)
		o := fit(context.Background(), f.New, c, cfg, engine.NewRecorder())
		what := "corpus " + h.name
		tolerate(t, what, o, c, cfg.K)
		if o.panicked != nil || o.err != nil || o.model == nil {
			continue
		}
		switch st := o.status; st.Reason {
		case engine.NumericalFailure:
			t.Logf("%s: %v (accepted: the model is finite)", what, st)
		case engine.Converged, engine.IterationLimit:
			if math.IsNaN(st.Objective) || math.IsInf(st.Objective, 0) {
				t.Errorf("%s: status %v: a success needs a finite objective (an overflow must be an error or a numerical failure)", what, st)
			}
			for _, f := range []struct {
				name string
				a    *mat.Dense
			}{{"TermTopics", o.model.TermTopics()}, {"DocTopics", o.model.DocTopics()}} {
				if _, _, nonzero := firstBad(f.a, func(x float64) bool { return x != 0 }); !nonzero {
					t.Errorf("%s: status %v with %s identically zero: the data vanished in an overflow (it must be an error or a numerical failure)", what, st, f.name)
				}
			}
		default:
			t.Errorf("%s: status %v, want a numerical failure, an error or a success", what, st)
		}
	}
}

// square builds the n×n corpus of entries val(i, j).
func square(t Reporter, name string, n int, val func(i, j int) float64) *engine.Corpus {
	var ts []sparse.Triplet
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: val(i, j)})
		}
	}
	return build(t, name, n, n, ts)
}

func checkDegenerate(t Reporter, f Family) {
	// A corpus with an empty document (3) and an unused term (5).
	rng := rand.New(rand.NewPCG(5, 5))
	var ts []sparse.Triplet
	for j := 0; j < 30; j++ {
		if j == 3 {
			continue
		}
		for q := 0; q < 6; q++ {
			i := rng.IntN(40)
			if i == 5 {
				continue
			}
			ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: float64(1 + rng.IntN(3))})
		}
	}
	c := build(t, "empty-doc", 40, 30, ts)
	cfg := f.cfg(3, parallel.NewPool(2))
	o := fit(context.Background(), f.New, c, cfg, engine.NewRecorder())
	tolerate(t, "corpus with an empty document", o, c, cfg.K)
	if o.err == nil && o.panicked == nil && o.model != nil {
		x := c.DT.SelectRows([]int{3})
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("FoldIn of an empty document panicked: %v", r)
				}
			}()
			got, err := o.model.FoldIn(context.Background(), x)
			if err == nil {
				if i, j, bad := firstBad(got, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }); bad {
					t.Errorf("FoldIn of an empty document: entry [%d,%d] = %v", i, j, got.At(i, j))
				}
			}
		}()
	}

	// One document of six terms, K = 1.
	one := build(t, "one-doc", 6, 1, []sparse.Triplet{{Row: 0, Col: 0, Val: 2}, {Row: 2, Col: 0, Val: 1}, {Row: 5, Col: 0, Val: 3}})
	cfg.K = 1
	tolerate(t, "one-document corpus", fit(context.Background(), f.New, one, cfg, engine.NewRecorder()), one, 1)
}

func checkFoldIn(t Reporter, f Family, c *engine.Corpus) {
	docs := []int{0, 1, 2, 500, 1099}
	x := c.DT.SelectRows(docs)
	o := mustFit(t, f, c, f.cfg(19, parallel.NewPool(2)), engine.NewRecorder())
	var got *mat.Dense
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("FoldIn panicked: %v", r)
			}
		}()
		got, err = o.model.FoldIn(context.Background(), x)
	}()
	if err != nil {
		t.Fatalf("FoldIn of training documents: %v", err)
	}
	if r, k := got.Dims(); r != len(docs) || k != f.K {
		t.Fatalf("FoldIn of %d documents is %d×%d, want %d×%d", len(docs), r, k, len(docs), f.K)
	}
	if i, j, bad := firstBad(got, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }); bad {
		t.Errorf("FoldIn[%d,%d] = %v is not finite", i, j, got.At(i, j))
	}
	if f.NonNegative {
		if i, j, bad := firstBad(got, func(x float64) bool { return x < 0 }); bad {
			t.Errorf("FoldIn[%d,%d] = %v is negative", i, j, got.At(i, j))
		}
	}
	// Wrong width: an error, not a panic.
	wide, _ := sparse.New(1, c.Terms()+3, []int{0, 1}, []int32{int32(c.Terms() + 2)}, []float64{1})
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("FoldIn with %d columns panicked: %v", c.Terms()+3, r)
			}
		}()
		if _, err := o.model.FoldIn(context.Background(), wide); err == nil {
			t.Errorf("FoldIn with %d columns for a %d-term model: no error", c.Terms()+3, c.Terms())
		}
	}()
	if f.FoldInCheck != nil {
		cfg := f.cfg(19, parallel.NewPool(2))
		cfg.MaxIter = f.FoldInIters
		long := mustFit(t, f, c, cfg, engine.NewRecorder())
		folded, err := long.model.FoldIn(context.Background(), x)
		if err != nil {
			t.Fatalf("FoldIn: %v", err)
		}
		if tt, ok := t.(*testing.T); ok {
			f.FoldInCheck(tt, c, long.model, docs, folded)
		}
	}
}

// Corpus returns a random m-term × n-document corpus with planted topics:
// k topics each favour a random tenth of the vocabulary; each document
// mixes two topics and draws 10–60 tokens, its weights are term counts.
// Every document has at least one term. Deterministic in seed.
func Corpus(t testing.TB, m, n, k int, seed uint64) *engine.Corpus {
	t.Helper()
	rng := engine.NewRand(seed)
	topics := make([][]int, k)
	for z := range topics {
		for q := 0; q < max(m/10, 2); q++ {
			topics[z] = append(topics[z], rng.IntN(m))
		}
	}
	var ts []sparse.Triplet
	for j := 0; j < n; j++ {
		a, b := rng.IntN(k), rng.IntN(k)
		length := 10 + rng.IntN(51)
		for q := 0; q < length; q++ {
			var term int
			switch r := rng.Float64(); {
			case r < 0.6:
				term = topics[a][rng.IntN(len(topics[a]))]
			case r < 0.9:
				term = topics[b][rng.IntN(len(topics[b]))]
			default:
				term = rng.IntN(m)
			}
			ts = append(ts, sparse.Triplet{Row: term, Col: j, Val: 1})
		}
	}
	return build(t, fmt.Sprintf("factortest-%dx%d", m, n), m, n, ts)
}

func build(t Reporter, name string, m, n int, ts []sparse.Triplet) *engine.Corpus {
	t.Helper()
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatalf("%v", err)
	}
	vocab := make([]string, m)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("t%d", i)
	}
	c, err := engine.NewCorpus(name, vocab, d, nil, nil, nil)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return c
}

// ArgmaxAgreement is the share of rows of a whose largest entry is in the
// same column as in row docs[i] of b (docs nil: row i).
func ArgmaxAgreement(a, b *mat.Dense, docs []int) float64 {
	rows, _ := a.Dims()
	hits := 0
	for i := range rows {
		d := i
		if docs != nil {
			d = docs[i]
		}
		if argmax(a.RawRowView(i)) == argmax(b.RawRowView(d)) {
			hits++
		}
	}
	return float64(hits) / float64(rows)
}

func argmax(v []float64) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}
