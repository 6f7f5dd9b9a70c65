package nmfvariants

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

func smallCorpus(t *testing.T) *engine.Corpus {
	return factortest.Corpus(t, 30, 25, 3, 9)
}

func randomStart(m, n, k int, seed uint64) (u, v *mat.Dense) {
	r := engine.NewRand(seed)
	u, v = mat.NewDense(m, k, nil), mat.NewDense(n, k, nil)
	for _, f := range []*mat.Dense{u, v} {
		raw := f.RawMatrix().Data
		for i := range raw {
			raw[i] = 0.1 + r.Float64()
		}
	}
	return u, v
}

func maxRelDiff(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	d := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d = math.Max(d, math.Abs(a.At(i, j)-b.At(i, j))/(1e-300+math.Max(math.Abs(a.At(i, j)), math.Abs(b.At(i, j)))))
		}
	}
	return d
}

// One NMF_E iteration against the formulas written out with gonum dense
// products (V first, then U with the new V), and its objective against a
// direct evaluation.
func TestNMFEOneIterationLiteral(t *testing.T) {
	c := smallCorpus(t)
	const k, lambda = 3, 0.7
	u0, v0 := randomStart(30, 25, k, 1)
	rec := engine.NewRecorder()
	m, _, err := EOptions{K: k, Lambda: lambda, U0: u0, V0: v0, Stopping: engine.Stopping{MaxIter: 1, RelTol: engine.DefaultRelTol}}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	d := testcorpus.DenseOf(c.D)
	// update is the literal NMF_E step of the factor x with the other
	// factor w fixed: x ∘ (dw + ε) ⊘ (x·wᵀw + λx + ε), d having a row per
	// row of x.
	update := func(x, w *mat.Dense, d mat.Matrix) *mat.Dense {
		var num, g, den mat.Dense
		num.Mul(d, w)
		g.Mul(w.T(), w)
		den.Mul(x, &g)
		r, k := x.Dims()
		out := mat.NewDense(r, k, nil)
		for i := 0; i < r; i++ {
			for a := 0; a < k; a++ {
				out.Set(i, a, x.At(i, a)*(num.At(i, a)+Eps)/(den.At(i, a)+lambda*x.At(i, a)+Eps))
			}
		}
		return out
	}
	v1 := update(v0, u0, d.T())
	u1 := update(u0, v1, d)
	if e := maxRelDiff(m.DocTopics(), v1); e > 1e-12 {
		t.Errorf("V differs from the literal update by %g", e)
	}
	if e := maxRelDiff(m.TermTopics(), u1); e > 1e-12 {
		t.Errorf("U differs from the literal update by %g", e)
	}
	var r mat.Dense
	r.Mul(u1, v1.T())
	r.Sub(d, &r)
	want := mat.Norm(&r, 2)*mat.Norm(&r, 2) + lambda*(mat.Norm(u1, 2)*mat.Norm(u1, 2)+mat.Norm(v1, 2)*mat.Norm(v1, 2))
	if got := rec.Iterations()[0].Objective; math.Abs(got-want) > 1e-10*want {
		t.Errorf("objective %v, want %v", got, want)
	}
}

// One NMF_I iteration against Lee & Seung's eq. 5 written out densely, and
// the divergence against a direct sum over all M·N entries.
func TestNMFIOneIterationLiteral(t *testing.T) {
	c := smallCorpus(t)
	const k = 3
	u0, v0 := randomStart(30, 25, k, 2)
	rec := engine.NewRecorder()
	m, _, err := IOptions{K: k, U0: u0, V0: v0, Stopping: engine.Stopping{MaxIter: 1, RelTol: engine.DefaultRelTol}}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	d := testcorpus.DenseOf(c.D)
	// update is eq. 5 for the factor x (a row per r) with the other factor
	// w (a row per s) fixed: x_ra · Σ_s w_sa·d_sr/y_sr / Σ_s w_sa, with d
	// and y = UVᵀ indexed (s, r).
	update := func(x, w *mat.Dense, d, y mat.Matrix) *mat.Dense {
		r, k := x.Dims()
		s, _ := w.Dims()
		out := mat.NewDense(r, k, nil)
		for n := 0; n < r; n++ {
			for a := 0; a < k; a++ {
				num, den := 0.0, 0.0
				for i := 0; i < s; i++ {
					num += w.At(i, a) * d.At(i, n) / y.At(i, n)
					den += w.At(i, a)
				}
				out.Set(n, a, x.At(n, a)*num/den)
			}
		}
		return out
	}
	var y mat.Dense
	y.Mul(u0, v0.T())
	v1 := update(v0, u0, d, &y)
	y.Mul(u0, v1.T())
	u1 := update(u0, v1, d.T(), y.T())
	if e := maxRelDiff(m.DocTopics(), v1); e > 1e-12 {
		t.Errorf("V differs from eq. 5 by %g", e)
	}
	if e := maxRelDiff(m.TermTopics(), u1); e > 1e-12 {
		t.Errorf("U differs from eq. 5 by %g", e)
	}
	y.Mul(u1, v1.T())
	want := 0.0
	for i := 0; i < 30; i++ {
		for n := 0; n < 25; n++ {
			x, yy := d.At(i, n), y.At(i, n)
			if x > 0 {
				want += x * math.Log(x/yy)
			}
			want += yy - x
		}
	}
	if got := rec.Iterations()[0].Objective; math.Abs(got-want) > 1e-10*want {
		t.Errorf("divergence %v, want %v", got, want)
	}
}

// FoldIn of NMF_I reaches the KKT point of min_{v≥0} D(x‖Uv); FoldIn of
// NMF_E reaches that of min_{v≥0} ‖x − Uv‖² + λ‖v‖².
func TestFoldInKKT(t *testing.T) {
	c := factortest.Corpus(t, 80, 120, 4, 3)
	stop := engine.Stopping{MaxIter: 20000, RelTol: -1}
	mi, _, err := IOptions{K: 4, Stopping: engine.Stopping{MaxIter: 50, RelTol: engine.DefaultRelTol}, Pool: parallel.NewPool(2)}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	im := mi.(*IModel)
	im.set.stop = stop
	x := c.DT.SelectRows([]int{0, 7, 33, 119})
	vi, err := im.FoldIn(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	me, _, err := EOptions{K: 4, Lambda: 0.5, Stopping: engine.Stopping{MaxIter: 50, RelTol: engine.DefaultRelTol}}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	em := me.(*EModel)
	em.set.stop = stop
	ve, err := em.FoldIn(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < x.Rows; r++ {
		xr := x.RowDense(r, nil)
		for a := 0; a < 4; a++ {
			// I-divergence gradient: Σ_i u_ia (1 − x_i/(Uv)_i).
			gi := 0.0
			for i := 0; i < 80; i++ {
				ua := im.u.At(i, a)
				y := 0.0
				for b := 0; b < 4; b++ {
					y += im.u.At(i, b) * vi.At(r, b)
				}
				gi += ua
				if xr[i] > 0 {
					gi -= ua * xr[i] / y
				}
			}
			// Ridge gradient: 2(Uᵀ(Uv − x) + λv).
			ge := 2 * 0.5 * ve.At(r, a)
			for i := 0; i < 80; i++ {
				y := 0.0
				for b := 0; b < 4; b++ {
					y += em.u.At(i, b) * ve.At(r, b)
				}
				ge += 2 * em.u.At(i, a) * (y - xr[i])
			}
			for _, kk := range []struct {
				name string
				v, g float64
			}{{"nmfi", vi.At(r, a), gi}, {"nmfe", ve.At(r, a), ge}} {
				if kk.g < -1e-5 || (kk.v > 1e-6 && math.Abs(kk.g) > 1e-5) {
					t.Errorf("%s: document %d topic %d: v = %g, gradient %g", kk.name, r, a, kk.v, kk.g)
				}
			}
		}
	}
}
