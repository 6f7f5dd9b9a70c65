package grouprlsi

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/rlsi"
	"gonum.org/v1/gonum/mat"
)

func TestUnknownClassFoldInPicksTrueClass(t *testing.T) {
	// A planted corpus (engine/synthetic: 5 classes of unequal sizes,
	// Ks = 4 shared and Kc = 3 class topics): GRLSI fitted on 80% of the
	// documents predicts the class of the held-out 20% by argmin_p E(d; Ũ_p)
	// (GMF §4.3). The planted class topics put their mass on disjoint-ish
	// term sets, so nearly every document is recognised; 0.95 leaves room
	// for the few short documents dominated by shared topics.
	enginetest.HeldOutClasses(t, 0.95, func(train *engine.Corpus) (engine.Model, engine.Status, error) {
		o := Options{Ks: 4, Kc: 3, Lambda1: 0.05, Lambda2: 0.1, Stopping: engine.Stopping{MaxIter: 30, RelTol: engine.DefaultRelTol}, Seed: 1, InnerTol: rlsi.DefaultInnerTol}
		return o.Fit(context.Background(), train, nil)
	})
}

func TestFoldInKnownClassReproducesFit(t *testing.T) {
	// Eq. 8 with the training document's class gives back its fitted
	// representation bit for bit (same Σ_p, same kernels as Algorithm 4).
	c := testcorpus.Grouped(t, 12, 4, 30, 2, 2, 4)
	m, _, err := Options{Ks: 2, Kc: 2, Lambda1: 0.05, Lambda2: 0.1, Stopping: engine.Stopping{MaxIter: 5, RelTol: engine.DefaultRelTol}, Seed: 5, InnerTol: rlsi.DefaultInnerTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.(*Model).FoldInClass(context.Background(), c.DT, c.Labels)
	if err != nil {
		t.Fatal(err)
	}
	if !matcmp.BitsEqual(got, m.DocTopics()) {
		t.Errorf("fold-in of the training documents differs from DocTopics by %g", matcmp.MaxAbsDiff(got, m.DocTopics()))
	}
}

func TestReconstructionErrors(t *testing.T) {
	// E(d; Ũ_p) = min_v ‖d − Ũ_pv‖² + λ2‖v‖², evaluated directly at the
	// gonum solution of the normal equations, for every class.
	c := testcorpus.Grouped(t, 13, 3, 12, 2, 2, 4)
	m0, _, err := Options{Ks: 2, Kc: 2, Lambda1: 0.05, Lambda2: 0.3, Stopping: engine.Stopping{MaxIter: 4, RelTol: engine.DefaultRelTol}, Seed: 2, InnerTol: rlsi.DefaultInnerTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := m0.(*Model)
	x := c.DT.SelectRows([]int{0, 5, 17, 30})
	enginetest.EachClassError(t, m, x, func(i, p int, got float64, ut *mat.Dense, d *mat.VecDense) {
		var a mat.Dense
		a.Mul(ut.T(), ut)
		for k := 0; k < 4; k++ {
			a.Set(k, k, a.At(k, k)+0.3)
		}
		var b, v, r mat.VecDense
		b.MulVec(ut.T(), d)
		if err := v.SolveVec(&a, &b); err != nil {
			t.Fatal(err)
		}
		r.MulVec(ut, &v)
		r.SubVec(d, &r)
		want := mat.Dot(&r, &r) + 0.3*mat.Dot(&v, &v)
		if math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("E(d_%d; Ũ_%d) = %.12g, direct %.12g", i, p, got, want)
		}
	})
}
