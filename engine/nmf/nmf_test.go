package nmf

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Reference problem for the scikit-learn comparison: D is 7 terms × 6
// documents, and the starting factors follow a formula that the Python
// script below reproduces.
var skD = [][]float64{
	{3, 0, 1, 0, 2, 0},
	{0, 2, 0, 1, 0, 4},
	{1, 1, 0, 0, 3, 0},
	{0, 0, 5, 2, 0, 1},
	{2, 0, 0, 0, 1, 0},
	{0, 3, 1, 0, 0, 2},
	{1, 0, 0, 4, 0, 0},
}

func skStart() (u0, v0 *mat.Dense) {
	u0 = mat.NewDense(7, 3, nil)
	v0 = mat.NewDense(6, 3, nil)
	for i := 0; i < 7; i++ {
		for j := 0; j < 3; j++ {
			u0.Set(i, j, 0.1+0.05*float64((i*3+j*5)%7))
		}
	}
	for n := 0; n < 6; n++ {
		for j := 0; j < 3; j++ {
			v0.Set(n, j, 0.2+0.03*float64((n*2+j*7)%5))
		}
	}
	return u0, v0
}

func corpusFromRows(t testing.TB, rows [][]float64) *engine.Corpus {
	t.Helper()
	var ts []sparse.Triplet
	for i, r := range rows {
		for j, x := range r {
			if x != 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: x})
			}
		}
	}
	d, err := sparse.FromTriplets(len(rows), len(rows[0]), ts)
	if err != nil {
		t.Fatal(err)
	}
	vocab := make([]string, len(rows))
	for i := range vocab {
		vocab[i] = string(rune('a' + i))
	}
	c, err := engine.NewCorpus("sk", vocab, d, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAgainstScikitLearn compares 20 iterations from the same start with
// scikit-learn 1.2.1 (Debian python3-sklearn), produced by:
//
//	D = np.array(skD)                       # 7×6, as above
//	U0[i,j] = 0.1 + 0.05*((i*3 + j*5) % 7); V0[n,j] = 0.2 + 0.03*((n*2 + j*7) % 5)
//	m = NMF(n_components=3, init='custom', solver='mu', beta_loss='frobenius',
//	        max_iter=20, tol=0, alpha_W=0, alpha_H=0)
//	W = m.fit_transform(D.T.copy(), W=V0.copy(), H=U0.T.copy())
//	V, U = W, m.components_.T
//	np.sum((D - U @ V.T)**2)   # 20.0223119128464
//
// scikit-learn updates W then H of X ≈ WH, so X = Dᵀ, W = V, H = Uᵀ gives
// our order (V, then U). scikit-learn adds no ε (it only replaces zero
// denominators, which do not occur here); we add 1e-16 to numerator and
// denominator, a relative change of ~1e-16/denominator per step, so the
// results agree to ~1e-12 except in entries that decay to ~0 (e.g. sklearn's
// V[1,0] = 8e-22), whose absolute difference is below 1e-12.
func TestAgainstScikitLearn(t *testing.T) {
	c := corpusFromRows(t, skD)
	u0, v0 := skStart()
	o := Options{K: 3, Init: InitCustom, U0: u0, V0: v0, Stopping: engine.Stopping{MaxIter: 20, RelTol: -1}}
	m, st, err := o.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != engine.IterationLimit || st.Iterations != 20 {
		t.Fatalf("status %v", st)
	}
	const wantObj = 20.0223119128464
	if math.Abs(st.Objective-wantObj) > 1e-12*wantObj {
		t.Errorf("objective after 20 iterations = %.15g, scikit-learn %.15g", st.Objective, wantObj)
	}
	u, v := m.TermTopics(), m.DocTopics()
	for _, e := range []struct {
		name      string
		got, want float64
	}{
		{"U[0,0]", u.At(0, 0), 0.1426582475263962},
		{"U[3,2]", u.At(3, 2), 0.17724431518848138},
		{"U[1,2]", u.At(1, 2), 9.0379424987295809e-01},
		{"V[2,1]", v.At(2, 1), 0.22172112357664098},
		{"V[5,0]", v.At(5, 0), 0.0019942232731022104},
		{"V[0,1]", v.At(0, 1), 3.2195861356093016},
		{"V[1,0]", v.At(1, 0), 7.9793435030009349e-22},
	} {
		if math.Abs(e.got-e.want) > 1e-12*math.Max(1, math.Abs(e.want)) {
			t.Errorf("%s = %.17g, scikit-learn %.17g", e.name, e.got, e.want)
		}
	}
	// The objective also agrees with a direct dense computation.
	var uv mat.Dense
	uv.Mul(u, v.T())
	direct := 0.0
	for i := range skD {
		for j := range skD[i] {
			d := skD[i][j] - uv.At(i, j)
			direct += d * d
		}
	}
	if math.Abs(direct-st.Objective) > 1e-12*direct {
		t.Errorf("recorded objective %.17g, direct %.17g", st.Objective, direct)
	}
}

// TestPlantedRecovery: D = U* V*ᵀ with random non-negative rank-4 factors
// (a dense 60×50 matrix) is fitted to a small relative error.
func TestPlantedRecovery(t *testing.T) {
	rng := engine.NewRand(21)
	const m, n, k = 60, 50, 4
	us := mat.NewDense(m, k, nil)
	vs := mat.NewDense(n, k, nil)
	for _, f := range []*mat.Dense{us, vs} {
		raw := f.RawMatrix().Data
		for i := range raw {
			if rng.Float64() < 0.5 { // sparse planted factors are identifiable
				raw[i] = rng.Float64()
			}
		}
	}
	var prod mat.Dense
	prod.Mul(us, vs.T())
	rows := make([][]float64, m)
	for i := range rows {
		rows[i] = mat.Row(nil, i, &prod)
	}
	c := corpusFromRows(t, rows)
	norm2 := sparse.FrobeniusSq(nil, c.D)
	for _, init := range []string{InitRandom, InitNNDSVDA} {
		rec := engine.NewRecorder()
		_, st, err := Options{K: k, Seed: 3, Init: init, Stopping: engine.Stopping{MaxIter: 3000, RelTol: 1e-12}}.Fit(context.Background(), c, rec)
		if err != nil {
			t.Fatal(err)
		}
		rel := math.Sqrt(st.Objective / norm2)
		if rel > 1e-3 {
			t.Errorf("init %s: relative error ‖D − UVᵀ‖/‖D‖ = %.3g after %v, want < 1e-3", init, rel, st)
		}
		its := rec.Iterations()
		if its[0].Objective < its[len(its)-1].Objective {
			t.Errorf("init %s: objective went up overall", init)
		}
	}
}

func TestInitializations(t *testing.T) {
	c := factortest.Corpus(t, 80, 60, 4, 2)
	mean := sparse.Mean(c.D)
	// Random: every entry |z|·sqrt(mean/K) > 0; E|z| = sqrt(2/π).
	o, err := Options{K: 5, Stopping: engine.DefaultStopping()}.resolved(c.Terms(), c.Docs())
	if err != nil {
		t.Fatal(err)
	}
	u, v, err := initFactors(c.D, c.DT, o)
	if err != nil {
		t.Fatal(err)
	}
	avg := math.Sqrt(mean / 5)
	sum, cnt := 0.0, 0
	for _, f := range []*mat.Dense{u, v} {
		for _, x := range f.RawMatrix().Data {
			if x <= 0 {
				t.Fatalf("random init entry %v ≤ 0", x)
			}
			sum += x
			cnt++
		}
	}
	if got, want := sum/float64(cnt), avg*math.Sqrt(2/math.Pi); math.Abs(got-want) > 0.1*want {
		t.Errorf("random init mean %v, want ≈ %v (sqrt(mean(D)/K)·sqrt(2/π))", got, want)
	}

	// NNDSVD: non-negative, first column = sqrt(σ₀)|u₀| so U[:,0]V[:,0]ᵀ is
	// the best rank-1 approximation; its loss is below that of the random
	// start; nndsvda has no zeros.
	o.Init = InitNNDSVD
	un, vn, err := initFactors(c.D, c.DT, o)
	if err != nil {
		t.Fatal(err)
	}
	ud, vd := mat.DenseCopyOf(un), mat.DenseCopyOf(vn)
	o.Init = InitNNDSVDA
	ua, va, err := initFactors(c.D, c.DT, o)
	if err != nil {
		t.Fatal(err)
	}
	zeros := 0
	for _, f := range []*mat.Dense{ud, vd} {
		for _, x := range f.RawMatrix().Data {
			if x < 0 {
				t.Fatalf("nndsvd entry %v < 0", x)
			}
			if x == 0 {
				zeros++
			}
		}
	}
	if zeros == 0 {
		t.Error("nndsvd produced no zeros (the sign split should give some)")
	}
	for _, f := range []*mat.Dense{ua, va} {
		for _, x := range f.RawMatrix().Data {
			if x <= 0 {
				t.Fatalf("nndsvda entry %v ≤ 0", x)
			}
		}
	}
	if lr, ln := sparse.ResidualSq(nil, c.D, u, v), sparse.ResidualSq(nil, c.D, ud, vd); ln >= lr {
		t.Errorf("nndsvd start loss %v not below the random start %v", ln, lr)
	}

	// Hand example of the NNDSVD rule on a rank-2 matrix with known
	// singular vectors would need exact SVD output; instead check the
	// rank-1 part against the dense SVD: U[:,0]·V[:,0]ᵀ = σ₀|u₀||v₀|ᵀ.
	var svd mat.SVD
	dd := mat.NewDense(c.Terms(), c.Docs(), nil)
	for i := 0; i < c.Terms(); i++ {
		idx, val := c.D.Row(i)
		for q, j := range idx {
			dd.Set(i, int(j), val[q])
		}
	}
	svd.Factorize(dd, mat.SVDThin)
	var lu, lv mat.Dense
	svd.UTo(&lu)
	svd.VTo(&lv)
	s0 := svd.Values(nil)[0]
	for _, i := range []int{0, 7, 33} {
		for _, j := range []int{1, 20} {
			want := s0 * math.Abs(lu.At(i, 0)) * math.Abs(lv.At(j, 0))
			got := ud.At(i, 0) * vd.At(j, 0)
			if want < NNDSVDZero {
				continue
			}
			if math.Abs(got-want) > 1e-6*want+1e-9 {
				t.Errorf("nndsvd rank-1 term at (%d,%d) = %v, dense SVD gives %v", i, j, got, want)
			}
		}
	}
}

func TestValidation(t *testing.T) {
	c := factortest.Corpus(t, 20, 8, 2, 3)
	good := mat.NewDense(20, 2, nil)
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"negative K", Options{K: -2, Stopping: engine.DefaultStopping()}, "K = -2"},
		{"K too large", Options{K: 9, Stopping: engine.DefaultStopping()}, "exceeds min"},
		{"bad init", Options{Init: "NNDSVD", Stopping: engine.DefaultStopping()}, "Init"},
		{"custom missing V0", Options{K: 2, Init: InitCustom, U0: good, Stopping: engine.DefaultStopping()}, "needs both"},
		{"custom wrong shape", Options{K: 2, Init: InitCustom, U0: good, V0: mat.NewDense(7, 2, nil), Stopping: engine.DefaultStopping()}, "V0 is 7×2"},
		{"custom negative", Options{K: 2, Init: InitCustom, U0: mat.NewDense(20, 2, nil), V0: mat.NewDense(8, 2, []float64{1, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}), Stopping: engine.DefaultStopping()}, "V0[1,1] = -1"},
		{"NaN tol", Options{Stopping: engine.Stopping{RelTol: math.NaN()}}, "RelTol"},
	} {
		_, _, err := tc.o.Fit(context.Background(), c, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, _, err := (Options{Stopping: engine.DefaultStopping()}).Fit(context.Background(), nil, nil); err == nil {
		t.Error("nil corpus: no error")
	}
	// Defaults: K = 10 when it fits; custom takes K from U0.
	big := factortest.Corpus(t, 30, 20, 3, 4)
	m, _, err := Options{Stopping: engine.Stopping{MaxIter: 2, RelTol: engine.DefaultRelTol}}.Fit(context.Background(), big, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, k := m.TermTopics().Dims(); k != DefaultK {
		t.Errorf("default K = %d, want %d", k, DefaultK)
	}
	u0, v0 := mat.NewDense(20, 2, nil), mat.NewDense(8, 2, nil)
	u0.Apply(func(_, _ int, _ float64) float64 { return 1 }, u0)
	v0.Apply(func(_, _ int, _ float64) float64 { return 1 }, v0)
	m, _, err = Options{Init: InitCustom, U0: u0, V0: v0, Stopping: engine.Stopping{MaxIter: 2, RelTol: engine.DefaultRelTol}}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, k := m.TermTopics().Dims(); k != 2 {
		t.Errorf("custom K = %d, want 2 from U0", k)
	}
	if u0.At(0, 0) != 1 {
		t.Error("Fit modified U0")
	}
}

// TestNumericalFailure: overflow in each step stops the fit with
// NumericalFailure naming the step and returns the last complete (here:
// initial) factors.
func TestNumericalFailure(t *testing.T) {
	for _, tc := range []struct {
		name       string
		scale, u0v float64
		step       string
	}{
		// DᵀU = 1e300·1e10 overflows in the numerator of the V update.
		{"V", 1e300, 1e10, "V update"},
		// V update fine (V ≈ 1e298), then D·V overflows in the U update.
		{"U", 1e300, 1, "U update"},
		// UᵀU = Inf makes the V update 0, the U update keeps U, and the loss
		// is Inf·0 = NaN.
		{"objective", 1, 1e200, "objective"},
	} {
		rows := make([][]float64, len(skD))
		for i := range skD {
			rows[i] = make([]float64, len(skD[i]))
			for j, x := range skD[i] {
				rows[i][j] = x * tc.scale
			}
		}
		c := corpusFromRows(t, rows)
		u0, v0 := mat.NewDense(7, 2, nil), mat.NewDense(6, 2, nil)
		u0.Apply(func(_, _ int, _ float64) float64 { return tc.u0v }, u0)
		v0.Apply(func(_, _ int, _ float64) float64 { return 1 }, v0)
		m, st, err := Options{Init: InitCustom, U0: u0, V0: v0, Stopping: engine.DefaultStopping()}.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Reason != engine.NumericalFailure || !strings.Contains(st.Detail, tc.step) || st.Iterations != 0 {
			t.Errorf("%s: status %v, want a numerical failure in the %s of iteration 1", tc.name, st, tc.step)
		}
		if !mat.Equal(m.TermTopics(), u0) || !mat.Equal(m.DocTopics(), v0) {
			t.Errorf("%s: failed fit did not return the last complete iterate", tc.name)
		}
	}
}

func TestFoldIn(t *testing.T) {
	c := corpusFromRows(t, skD)
	u0, v0 := skStart()
	m, _, err := Options{K: 3, Init: InitCustom, U0: u0, V0: v0, Stopping: engine.Stopping{MaxIter: 5000, RelTol: 1e-15}}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Fold in all training documents at once and one at a time: same bits.
	all, err := m.FoldIn(context.Background(), c.DT)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < c.Docs(); n++ {
		one, err := m.FoldIn(context.Background(), c.DT.SelectRows([]int{n}))
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			if math.Float64bits(one.At(0, j)) != math.Float64bits(all.At(n, j)) {
				t.Fatalf("document %d folded alone differs from the batch", n)
			}
		}
	}
	// Hand example: with U fixed and one document x = U·w for w ≥ 0 (here
	// w = (1, 0, 2)), fold-in recovers a representation whose loss is ~0.
	u := m.TermTopics()
	w := []float64{1, 0, 2}
	var ts []sparse.Triplet
	for i := 0; i < 7; i++ {
		x := u.At(i, 0)*w[0] + u.At(i, 1)*w[1] + u.At(i, 2)*w[2]
		if x != 0 {
			ts = append(ts, sparse.Triplet{Row: 0, Col: i, Val: x})
		}
	}
	x, _ := sparse.FromTriplets(1, 7, ts)
	got, err := m.FoldIn(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	var fit mat.VecDense
	fit.MulVec(u, got.RowView(0))
	res, nx := 0.0, 0.0
	for i := 0; i < 7; i++ {
		xi := x.At(0, i)
		res += (xi - fit.AtVec(i)) * (xi - fit.AtVec(i))
		nx += xi * xi
	}
	if res > 1e-6*nx {
		t.Errorf("fold-in of U·(1,0,2): relative loss %g, representation %v", res/nx, got.RawRowView(0))
	}
	// Errors: negative value, wrong width, cancelled context; empty batch.
	neg, _ := sparse.FromTriplets(1, 7, []sparse.Triplet{{Row: 0, Col: 3, Val: -1}})
	if _, err := m.FoldIn(context.Background(), neg); err == nil || !strings.Contains(err.Error(), "X[0,3]") {
		t.Errorf("negative entry: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.FoldIn(ctx, c.DT); err == nil {
		t.Error("cancelled FoldIn: no error")
	}
	empty, _ := sparse.New(0, 7, []int{0}, nil, nil)
	if got, err := m.FoldIn(context.Background(), empty); err != nil || !got.IsEmpty() {
		t.Errorf("empty batch: %v %v", got, err)
	}
	if _, err := m.FoldIn(context.Background(), nil); err == nil {
		t.Error("nil X: no error")
	}
}

// TestRecording: every evaluated iteration records the loss term equal to
// the objective, every iteration the sparsity of U and V; EvalEvery skips
// evaluations (and their terms).
func TestRecording(t *testing.T) {
	c := factortest.Corpus(t, 40, 30, 3, 5)
	rec := engine.NewRecorder()
	_, st, err := Options{K: 3, Stopping: engine.Stopping{MaxIter: 7, EvalEvery: 3, RelTol: -1}, Pool: parallel.NewPool(1)}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	its := rec.Iterations()
	if len(its) != 7 || st.Iterations != 7 {
		t.Fatalf("%d recorded, status %v", len(its), st)
	}
	for _, it := range its {
		evaluated := it.Iter%3 == 0 || it.Iter == 7
		if evaluated == math.IsNaN(it.Objective) {
			t.Errorf("iteration %d: objective %v, evaluated = %v", it.Iter, it.Objective, evaluated)
		}
		if evaluated && (len(it.Terms) != 1 || it.Terms[0].Name != "loss" || it.Terms[0].Value != it.Objective) ||
			!evaluated && len(it.Terms) != 0 {
			t.Errorf("iteration %d: terms %v (evaluated = %v)", it.Iter, it.Terms, evaluated)
		}
		if len(it.Sparsity) != 2 || it.Sparsity[0].Name != "U" || it.Sparsity[1].Name != "V" {
			t.Errorf("iteration %d: sparsity %v", it.Iter, it.Sparsity)
		}
	}
	if st.Objective != its[6].Objective {
		t.Errorf("status objective %v, last recorded %v", st.Objective, its[6].Objective)
	}
	head := strings.Join(rec.Header(), ",")
	if head != "iter,seconds,objective,loss,sparsity_U,sparsity_V" {
		t.Errorf("recorder header %s", head)
	}
	// Converged: a loose tolerance stops early.
	_, st, err = Options{K: 3, Stopping: engine.Stopping{MaxIter: 500, RelTol: 1e-3}}.Fit(context.Background(), c, nil)
	if err != nil || st.Reason != engine.Converged || st.Iterations >= 500 {
		t.Errorf("RelTol 1e-3: %v %v", st, err)
	}
}
