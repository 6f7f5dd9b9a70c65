package rlsi

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"gonum.org/v1/gonum/mat"
)

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

func TestRelativeLambdasExponents(t *testing.T) {
	// ŝ = 4: ℓ1 weights ×4^{3/2} = 8, squared-ℓ2 weights ×4.
	for _, c := range []struct {
		v      Variant
		w1, w2 float64
	}{{U1V2, 8, 4}, {U2V1, 4, 8}, {U1V1, 8, 8}, {U2V2, 4, 4}} {
		l1, l2, err := relativeLambdas(c.v, 0.5, 1, 4)
		if err != nil || l1 != 0.5*c.w1 || l2 != c.w2 {
			t.Errorf("%v: got %v, %v, %v; want %v, %v", c.v, l1, l2, err, 0.5*c.w1, c.w2)
		}
	}
	if _, _, err := relativeLambdas(U1V2, 0.5, 1, 0); err == nil {
		t.Error("zero data scale accepted")
	}
}

// fitU fits c with the given options and V⁽⁰⁾ = scale·G (G a fixed N(0,1)
// draw) and returns U and the AvgComp of U.
func fitU(t *testing.T, c *engine.Corpus, o Options, scale float64) (*mat.Dense, float64) {
	t.Helper()
	rnd := engine.NewRand(3)
	v0 := mat.NewDense(c.Docs(), o.K, nil)
	for i := 0; i < c.Docs(); i++ {
		for k := 0; k < o.K; k++ {
			v0.Set(i, k, scale*rnd.NormFloat64())
		}
	}
	o.InitV = v0
	rec := engine.NewRecorder()
	m, _, err := o.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	its := rec.Iterations()
	return m.(*Model).u, 1 - its[len(its)-1].Sparsity[0].Value
}

func TestRelativeLambdaScaleInvariant(t *testing.T) {
	// Unit-length MED documents and the same documents ×9: with relative
	// λs and V⁽⁰⁾ scaled by √9 = 3, U of the scaled corpus is 3× U of the
	// unit one (same zeros); with absolute λs the sparsity differs.
	base := testcorpus.MED(t, "")
	c1 := scaledCorpus(t, base, true, 1)
	c9 := scaledCorpus(t, base, true, 9)
	if s := DataScale(nil, c1.D); math.Abs(s-1) > 1e-12 {
		t.Fatalf("DataScale of unit-length documents = %v, want 1", s)
	}
	o := Options{K: 10, Lambda1: 0.05, Lambda2: 0.1, RelativeLambda: true, Stopping: engine.Stopping{MaxIter: 4, RelTol: -1}, InnerTol: DefaultInnerTol}
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

func TestBalancedInitUnitDocuments(t *testing.T) {
	// Unit-length MED documents, Uℓ1-Vℓ1 at λ1 = λ2 = 0.01, seed 0, 30
	// iterations. Measured: from N(0, 1) the first U is ~1/σ too small for
	// the V lasso's threshold and 16–17 of the 20 topics die (objective
	// 1001.75); from the balanced scale σ = √(ŝ/N) = 0.031 no topic dies
	// and the objective is 928.4.
	c := scaledCorpus(t, testcorpus.MED(t, ""), true, 1)
	fit := func(balanced bool) (*Model, float64) {
		rec := engine.NewRecorder()
		m, _, err := Options{K: 20, Variant: U1V1, Lambda1: 0.01, Lambda2: 0.01, BalancedInit: balanced,
			InnerTol: DefaultInnerTol,
			Stopping: engine.Stopping{MaxIter: 30, RelTol: -1}}.Fit(context.Background(), c, rec)
		if err != nil {
			t.Fatal(err)
		}
		its := rec.Iterations()
		return m.(*Model), its[len(its)-1].Objective
	}
	mb, ob := fit(true)
	mu, ou := fit(false)
	if e := emptyTopics(mb.u); e != 0 {
		t.Errorf("balanced start: %d empty topics, want 0", e)
	}
	if !(ob < ou) {
		t.Errorf("balanced start objective %v not below the N(0, 1) start's %v", ob, ou)
	}
	t.Logf("objective balanced %.6g (%d empty), N(0,1) %.6g (%d empty)", ob, emptyTopics(mb.u), ou, emptyTopics(mu.u))
}

func TestBalancedRelativeScaleInvariant(t *testing.T) {
	// With BalancedInit and RelativeLambda the default random start makes
	// the fits of D and 9D equivalent: U(9D) = 3·U(D) up to rounding.
	base := testcorpus.MED(t, "")
	c1 := scaledCorpus(t, base, true, 1)
	c9 := scaledCorpus(t, base, true, 9)
	o := Options{K: 10, Lambda1: 0.05, Lambda2: 0.1, RelativeLambda: true, BalancedInit: true, Stopping: engine.Stopping{MaxIter: 4, RelTol: -1}, InnerTol: DefaultInnerTol}
	fit := func(c *engine.Corpus) *mat.Dense {
		m, _, err := o.Fit(context.Background(), c, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*Model).u
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
