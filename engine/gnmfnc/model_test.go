package gnmfnc

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// TestTopicScore checks Eq. 13 by hand with Ks = Kp = 1, P = 2 (K = 3): a
// query of category 0, q = [3, 4, 0], against d = [1, 0, 2] of category 1
// shares only the shared topic: 3/(5·√5); against d = [2, 1, 0] of its own
// category: (6 + 4)/(5·√5) = 2/√5.
func TestTopicScore(t *testing.T) {
	q := []float64{3, 4, 0}
	for _, c := range []struct {
		d    []float64
		want float64
	}{{[]float64{1, 0, 2}, 3 / (5 * math.Sqrt(5))}, {[]float64{2, 1, 0}, 2 / math.Sqrt(5)}, {[]float64{0, 0, 0}, 0}} {
		if got := TopicScore(q, c.d); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("TopicScore(%v, %v) = %.17g, want %.17g", q, c.d, got, c.want)
		}
	}
}

// fitted is a GNMFNC model of a grouped corpus, with σ3 = 0 (see the
// package documentation, "Scale": σ3 = 1 on raw data gives up the fit).
func fitted(t *testing.T) (*engine.Corpus, *Model) {
	t.Helper()
	c := testcorpus.Grouped(t, 11, 3, 20, 2, 2, 5)
	m, _, err := Options{Ks: 2, Kp: 2, A: 10, Seed: 1, Stopping: engine.Stopping{MaxIter: 150, RelTol: -1}, Sigma1: DefaultSigma, Sigma2: DefaultSigma}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, m.(*Model)
}

// compact returns the Ks+Kp coordinates of a K-space row in category p.
func compact(m *Model, row []float64, p int) []float64 {
	ks, kp, _ := m.Dims()
	return append(append([]float64(nil), row[:ks]...), row[ks+p*kp:ks+(p+1)*kp]...)
}

// TestFoldInNNLS checks Eq. 12: every folded-in query satisfies the KKT
// conditions of min_{v≥0} ‖q − [U_s, U_p]v‖² (solve.KKTViolation, with
// ŨᵀŨ and Ũᵀq formed here by gonum), is 0 outside its category's columns,
// and the class-unknown fold-in takes the category of least
// reconstruction error, which equals ‖q − Ũ_pv_p‖² recomputed directly.
func TestFoldInNNLS(t *testing.T) {
	c, m := fitted(t)
	ks, kp, np := m.Dims()
	ctx := context.Background()
	x := c.D.T()
	rng := engine.NewRand(5)
	var ts []sparse.Triplet // a few random queries beside the training questions
	for i := 0; i < 5; i++ {
		for j := 0; j < c.Terms(); j++ {
			if rng.Float64() < 0.2 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: rng.Float64()})
			}
		}
	}
	extra, _ := sparse.FromTriplets(5, c.Terms(), ts)
	dense := testcorpus.DenseOf(x)
	dx := testcorpus.DenseOf(extra)
	q := mat.NewDense(x.Rows+5, c.Terms(), nil)
	q.Slice(0, x.Rows, 0, c.Terms()).(*mat.Dense).Copy(dense)
	q.Slice(x.Rows, x.Rows+5, 0, c.Terms()).(*mat.Dense).Copy(dx)
	qs := testcorpus.CSROf(q)
	n := qs.Rows
	errs, err := m.ReconstructionErrors(ctx, qs)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.PredictClasses(ctx, qs)
	if err != nil {
		t.Fatal(err)
	}
	correct := 0
	for p := 0; p < np; p++ {
		classes := make([]int, n)
		for i := range classes {
			classes[i] = p
		}
		reps, err := m.FoldInClass(ctx, qs, classes)
		if err != nil {
			t.Fatal(err)
		}
		ut := mat.NewDense(c.Terms(), ks+kp, nil)
		ut.Augment(m.Shared(), m.ClassTopics(p))
		var g mat.Dense
		g.Mul(ut.T(), ut)
		xs := mat.NewDense(n, ks+kp, nil)
		var rhs mat.Dense
		rhs.Mul(q, ut)
		for i := 0; i < n; i++ {
			row := reps.RawRowView(i)
			for k, v := range row {
				if (k >= ks && (k < ks+p*kp || k >= ks+(p+1)*kp)) && v != 0 {
					t.Fatalf("query %d in category %d: column %d = %v outside the category", i, p, k, v)
				}
			}
			copy(xs.RawRowView(i), compact(m, row, p))
			var r mat.VecDense
			r.MulVec(ut, mat.NewVecDense(ks+kp, xs.RawRowView(i)))
			r.SubVec(q.RowView(i), &r)
			e := mat.Dot(&r, &r)
			if math.Abs(e-errs.At(i, p)) > 1e-9*math.Max(1, e) {
				t.Errorf("query %d, category %d: E = %v, direct %v", i, p, errs.At(i, p), e)
			}
		}
		if v := solve.KKTViolation(xs, &g, &rhs); v > 1e-9 {
			t.Errorf("category %d: KKT violation %g", p, v)
		}
	}
	for i := 0; i < n; i++ {
		for p := 0; p < np; p++ {
			if errs.At(i, p) < errs.At(i, pred[i]) {
				t.Fatalf("query %d: predicted %d with E %v, category %d has %v", i, pred[i], errs.At(i, pred[i]), p, errs.At(i, p))
			}
		}
		if i < x.Rows && pred[i] == c.Labels[i] {
			correct++
		}
	}
	// The grouped corpus plants one category block per question: the
	// class-unknown fold-in should find most categories.
	if acc := float64(correct) / float64(x.Rows); acc < 0.8 {
		t.Errorf("class-unknown fold-in predicts %.2f of the training categories, want ≥ 0.8", acc)
	}
}
