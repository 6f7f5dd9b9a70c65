package lsi

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
)

func TestMED(t *testing.T) {
	// On MED's tf-idf matrix with K = 20 and the default settings: the
	// singular values agree with the eigenvalues of the dense DᵀD (1033×1033, the reference), and DocTopics is the fold-in
	// of the training documents.
	c := testcorpus.MED(t, "tfidf")
	m, st, err := Options{K: 20, Seed: 1, PowerIters: DefaultPowerIters}.Fit(context.Background(), c, nil)
	if err != nil || st.Reason != engine.Converged {
		t.Fatalf("%v, %v", st, err)
	}
	got := m.(*Model).SingularValues()
	fold, err := m.FoldIn(context.Background(), c.DT)
	if err != nil {
		t.Fatal(err)
	}
	if !testcorpus.BitsEqual(fold, m.DocTopics()) {
		t.Error("fold-in of the training documents differs from DocTopics")
	}
	if testing.Short() {
		return
	}
	d := testcorpus.DenseOf(c.DT) // N×M
	var g mat.SymDense
	g.SymOuterK(1, d)
	var eig mat.EigenSym
	if !eig.Factorize(&g, false) {
		t.Fatal("dense eigendecomposition failed")
	}
	ev := eig.Values(nil) // ascending
	worst := 0.0
	for k := 0; k < 20; k++ {
		want := math.Sqrt(ev[len(ev)-1-k])
		worst = math.Max(worst, math.Abs(got[k]-want)/want)
	}
	// 1e-6: measured 3.2e-7 at worst over the 20 values (σ_20); the
	// eigenvalues of DᵀD carry relative errors of only about
	// ε·σ_1²/σ_k² ≈ 1e-15 here, so the difference is the randomized
	// method's. (engine/rsvd's defaults, p = 10 and q = 4, give 3e-2.)
	if worst > 1e-6 {
		t.Errorf("singular values differ from the dense reference by %.3g (relative)", worst)
	}
	t.Logf("MED %d×%d, K=20: σ_1 = %.6g, σ_20 = %.6g, worst relative error %.3g, loss %.6g",
		c.Terms(), c.Docs(), got[0], got[19], worst, st.Objective)
}
