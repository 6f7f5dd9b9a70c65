package realdata

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/rlsi"
	"gonum.org/v1/gonum/mat"
)

func TestRLSIObjectiveNeverIncreasesMED(t *testing.T) {
	c := med(t, "")
	iters := itersFor(10, 4)
	for _, variant := range []rlsi.Variant{rlsi.U1V2, rlsi.U2V1, rlsi.U1V1, rlsi.U2V2} {
		o := rlsi.Options{K: 10, Lambda1: rlsi.DefaultLambda1, Lambda2: rlsi.DefaultLambda2, Variant: variant, Stopping: engine.Stopping{MaxIter: iters, RelTol: -1}, Seed: 1, InnerTol: rlsi.DefaultInnerTol}
		_, its := fitToLimit(t, o, c, iters)
		factortest.Decreasing(t, variant.String(), its, 1e-10)
	}
}

func TestRLSIMEDDefaultFit(t *testing.T) {
	// The paper's setting (Uℓ1-Vℓ2, λ1 = 0.5, λ2 = 1.0) gives topics with
	// some zero weights (AvgComp < 1; Section 6.3 reports 0.0075 on AP, whose
	// scale differs) but not empty ones, and a training document folds in to
	// exactly its fitted representation.
	c := med(t, "")
	m, its := fitToLimit(t, rlsi.Options{K: 20, Stopping: engine.Stopping{MaxIter: 5, RelTol: -1}, Lambda1: rlsi.DefaultLambda1, Lambda2: rlsi.DefaultLambda2, InnerTol: rlsi.DefaultInnerTol}, c, 5)
	last := its[4]
	avgComp := 1 - last.Sparsity[0].Value
	if avgComp <= 0 || avgComp >= 1 {
		t.Errorf("AvgComp = %v, want sparse but non-empty topics", avgComp)
	}
	t.Logf("MED %d×%d, K=20: objective %.6g (loss %.6g), AvgComp %.4f, V sparsity %.4f",
		c.Terms(), c.Docs(), last.Objective, last.Terms[0].Value, avgComp, last.Sparsity[1].Value)
	got, err := m.FoldIn(context.Background(), c.DT.SelectRows([]int{0, 500, 1032}))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []int{0, 500, 1032} {
		for k := 0; k < 20; k++ {
			if got.At(i, k) != m.DocTopics().At(n, k) {
				t.Fatalf("fold-in of document %d differs at topic %d: %v vs %v", n, k, got.At(i, k), m.DocTopics().At(n, k))
			}
		}
	}
}

// scaledCorpus returns c with every document first scaled to unit length
// (when unit) and then multiplied by alpha.
func scaledCorpus(t *testing.T, c *engine.Corpus, unit bool, alpha float64) *engine.Corpus {
	t.Helper()
	dt := c.DT.Clone()
	for i := 0; i < dt.Rows; i++ {
		lo, hi := dt.RowPtr[i], dt.RowPtr[i+1]
		f := alpha
		if unit {
			var ss float64
			for _, v := range dt.Val[lo:hi] {
				ss += v * v
			}
			if ss == 0 {
				continue
			}
			f /= math.Sqrt(ss)
		}
		for k := lo; k < hi; k++ {
			dt.Val[k] *= f
		}
	}
	out, err := engine.NewCorpus(c.Name, c.Vocab, dt.T(), c.DocIDs, c.Labels, c.ClassNames)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fitU fits c with the given options and V⁽⁰⁾ = scale·G (G a fixed N(0,1)
// draw) and returns U and the AvgComp of U.
func fitU(t *testing.T, c *engine.Corpus, o rlsi.Options, scale float64) (*mat.Dense, float64) {
	t.Helper()
	rnd := engine.NewRand(3)
	v0 := mat.NewDense(c.Docs(), o.K, nil)
	for i := 0; i < c.Docs(); i++ {
		for k := 0; k < o.K; k++ {
			v0.Set(i, k, scale*rnd.NormFloat64())
		}
	}
	o.InitV = v0
	m, _, its := fitRecorded(t, o, c)
	return m.(*rlsi.Model).TermTopics(), 1 - its[len(its)-1].Sparsity[0].Value
}

func TestRLSIRelativeLambdaScaleInvariant(t *testing.T) {
	// Unit-length MED documents and the same documents ×9: with relative
	// λs and V⁽⁰⁾ scaled by √9 = 3, U of the scaled corpus is 3× U of the
	// unit one (same zeros); with absolute λs the sparsity differs.
	base := med(t, "")
	c1 := scaledCorpus(t, base, true, 1)
	c9 := scaledCorpus(t, base, true, 9)
	if s := rlsi.DataScale(nil, c1.D); math.Abs(s-1) > 1e-12 {
		t.Fatalf("DataScale of unit-length documents = %v, want 1", s)
	}
	o := rlsi.Options{K: 10, Lambda1: 0.05, Lambda2: 0.1, RelativeLambda: true, Stopping: engine.Stopping{MaxIter: 4, RelTol: -1}, InnerTol: rlsi.DefaultInnerTol}
	u1, ac1 := fitU(t, c1, o, 1)
	u9, ac9 := fitU(t, c9, o, 3)
	if ac1 <= 0 || ac1 >= 1 {
		t.Fatalf("AvgComp %v on unit documents, want sparse non-empty topics", ac1)
	}
	if ac1 != ac9 {
		t.Errorf("relative λ: AvgComp %v (unit) vs %v (×9), want equal", ac1, ac9)
	}
	var maxDiff, maxU float64
	r, k := u1.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < k; j++ {
			maxDiff = math.Max(maxDiff, math.Abs(u9.At(i, j)/3-u1.At(i, j)))
			maxU = math.Max(maxU, math.Abs(u1.At(i, j)))
		}
	}
	if maxDiff > 1e-8*maxU {
		t.Errorf("relative λ: max |U(9D)/3 − U(D)| = %v (max |U| %v)", maxDiff, maxU)
	}
	o.RelativeLambda = false
	_, abs1 := fitU(t, c1, o, 1)
	_, abs9 := fitU(t, c9, o, 3)
	if abs1 != ac1 {
		t.Errorf("ŝ = 1: absolute AvgComp %v differs from relative %v", abs1, ac1)
	}
	if math.Abs(abs9-abs1) < 0.01 {
		t.Errorf("absolute λ: AvgComp %v (unit) vs %v (×9), expected the scale to matter", abs1, abs9)
	}
	t.Logf("AvgComp unit %.4f, ×9 relative %.4f, ×9 absolute %.4f", ac1, ac9, abs9)
}

// emptyTopics counts the columns of U whose every entry is zero.
func emptyTopics(u *mat.Dense) int {
	r, k := u.Dims()
	n := 0
	for j := 0; j < k; j++ {
		empty := true
		for i := 0; i < r && empty; i++ {
			empty = u.At(i, j) == 0
		}
		if empty {
			n++
		}
	}
	return n
}

func TestRLSIBalancedInitUnitDocuments(t *testing.T) {
	// Unit-length MED documents, Uℓ1-Vℓ1 at λ1 = λ2 = 0.01, seed 0, 30
	// iterations. Measured: from N(0, 1) the first U is ~1/σ too small for
	// the V lasso's threshold and 16–17 of the 20 topics die (objective
	// 1001.75); from the balanced scale σ = √(ŝ/N) = 0.031 no topic dies
	// and the objective is 928.4.
	c := scaledCorpus(t, med(t, ""), true, 1)
	fit := func(balanced bool) (*rlsi.Model, float64) {
		m, _, its := fitRecorded(t, rlsi.Options{K: 20, Variant: rlsi.U1V1, Lambda1: 0.01, Lambda2: 0.01, BalancedInit: balanced,
			Stopping: engine.Stopping{MaxIter: 30, RelTol: -1}, InnerTol: rlsi.DefaultInnerTol}, c)
		return m.(*rlsi.Model), its[len(its)-1].Objective
	}
	mb, ob := fit(true)
	mu, ou := fit(false)
	if e := emptyTopics(mb.TermTopics()); e != 0 {
		t.Errorf("balanced start: %d empty topics, want 0", e)
	}
	if !(ob < ou) {
		t.Errorf("balanced start objective %v not below the N(0, 1) start's %v", ob, ou)
	}
	t.Logf("objective balanced %.6g (%d empty), N(0,1) %.6g (%d empty)", ob, emptyTopics(mb.TermTopics()), ou, emptyTopics(mu.TermTopics()))
}

func TestRLSIBalancedRelativeScaleInvariant(t *testing.T) {
	// With BalancedInit and RelativeLambda the default random start makes
	// the fits of D and 9D equivalent: U(9D) = 3·U(D) up to rounding.
	base := med(t, "")
	c1 := scaledCorpus(t, base, true, 1)
	c9 := scaledCorpus(t, base, true, 9)
	o := rlsi.Options{K: 10, Lambda1: 0.05, Lambda2: 0.1, RelativeLambda: true, BalancedInit: true, Stopping: engine.Stopping{MaxIter: 4, RelTol: -1}, InnerTol: rlsi.DefaultInnerTol}
	fit := func(c *engine.Corpus) *mat.Dense {
		m, _, err := o.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*rlsi.Model).TermTopics()
	}
	u1, u9 := fit(c1), fit(c9)
	var maxDiff, maxU float64
	r, k := u1.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < k; j++ {
			if (u1.At(i, j) == 0) != (u9.At(i, j) == 0) {
				t.Fatalf("zero pattern differs at (%d,%d): %v vs %v", i, j, u1.At(i, j), u9.At(i, j))
			}
			maxDiff = math.Max(maxDiff, math.Abs(u9.At(i, j)/3-u1.At(i, j)))
			maxU = math.Max(maxU, math.Abs(u1.At(i, j)))
		}
	}
	if maxDiff > 1e-8*maxU {
		t.Errorf("max |U(9D)/3 − U(D)| = %v (max |U| %v)", maxDiff, maxU)
	}
}
