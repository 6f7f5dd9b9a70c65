package jtd

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// One document, three terms, μ = 2, λ = 1, τ = 2, by hand:
//
//	D + Y/μ = (2, 0, 1) + (1, −1, 0)/2 = (2.5, −0.5, 1)
//	R = D − BS + Y/μ = (2.5, −0.5, 1) − 0.5 = (2, −1, 0.5)
//	E = 𝒮_{λ/μ = 0.5}(R − N) = 𝒮_0.5((1.9, −1, 0.5)) = (1.4, −0.5, 0)
//	N' = μ/(τ+μ)·(R − E) = 0.5·(0.6, −0.5, 0.5) = (0.3, −0.25, 0.25)
//	X⁽³⁾ = D + Y/μ − E − N' = (0.8, 0.25, 0.75)
//
// and the multiplier step with Z = D − BS − E − N' = (−0.2, 0.25, 0.25):
// Y' = Y + μZ = (0.6, −0.5, 0.5), ‖Z‖² = 0.165, ⟨Y, Z⟩ = −0.45,
// ‖E‖₁ = 1.9 and ‖N'‖² = 0.09 + 0.0625 + 0.0625 = 0.215.
func TestStepsByHand(t *testing.T) {
	dt, err := sparse.FromTriplets(1, 3, []sparse.Triplet{{Row: 0, Col: 0, Val: 2}, {Row: 0, Col: 2, Val: 1}})
	if err != nil {
		t.Fatal(err)
	}
	bs := mat.NewDense(1, 3, []float64{0.5, 0.5, 0.5})
	y := mat.NewDense(1, 3, []float64{1, -1, 0})
	nz := mat.NewDense(1, 3, []float64{0.1, 0, 0})
	e, nOut, x3 := mat.NewDense(1, 3, nil), mat.NewDense(1, 3, nil), mat.NewDense(1, 3, nil)
	set := settings{lambda: 1, tau: 2}
	splitParts(parallel.NewPool(1), set, 2, dt, bs, y, nz, e, nOut, x3)
	near := func(what string, got *mat.Dense, want ...float64) {
		t.Helper()
		for j, w := range want {
			if math.Abs(got.At(0, j)-w) > 1e-15 {
				t.Errorf("%s = %v, want %v", what, got.RawRowView(0), want)
				return
			}
		}
	}
	near("E", e, 1.4, -0.5, 0)
	near("N", nOut, 0.3, -0.25, 0.25)
	near("X3", x3, 0.8, 0.25, 0.75)
	yOut := mat.NewDense(1, 3, nil)
	sums := updateMultiplier(parallel.NewPool(1), 2, dt, bs, e, nOut, y, yOut)
	near("Y'", yOut, 0.6, -0.5, 0.5)
	if math.Abs(sums.z2-0.165) > 1e-15 || math.Abs(sums.yz+0.45) > 1e-15 || math.Abs(sums.absE-1.9) > 1e-15 || math.Abs(sums.n2-0.215) > 1e-15 {
		t.Errorf("sums %+v, want ‖Z‖² 0.165, ⟨Y,Z⟩ −0.45, ‖E‖₁ 1.9, ‖N‖² 0.215", sums)
	}
}

func TestNormalizeColumns(t *testing.T) {
	b := mat.NewDense(2, 3, []float64{1, 0, 2, 3, 0, 2})
	v := mat.NewDense(1, 3, []float64{1, 5, 1})
	var before mat.Dense
	before.Mul(v, b.T())
	normalizeColumns(b, v)
	want := []float64{0.25, 0, 0.5, 0.75, 0, 0.5}
	for i, w := range want {
		if b.RawMatrix().Data[i] != w {
			t.Fatalf("B = %v, want %v", b.RawMatrix().Data, want)
		}
	}
	if v.At(0, 0) != 4 || v.At(0, 1) != 0 || v.At(0, 2) != 4 {
		t.Errorf("S = %v, want (4, 0, 4): scaled by the column sums, zero for the zero column", v.RawRowView(0))
	}
	var after mat.Dense
	after.Mul(v, b.T())
	if !mat.EqualApprox(&before, &after, 1e-15) {
		t.Errorf("BS changed: %v → %v", before.RawMatrix().Data, after.RawMatrix().Data)
	}
}

// planted draws D = B0 S0 + E0 + N0 with K topics on disjoint groups of
// terms (each column of B0 sums to 1), two topics per document, keyword
// spikes E0 on about 1 % of the entries far above the topic weights, and
// small noise N0 on the support of B0S0; negative entries are clipped.
func planted(t *testing.T, m, n, k int) (*engine.Corpus, *mat.Dense, map[[2]int]bool) {
	rng := engine.NewRand(42)
	b0 := mat.NewDense(m, k, nil)
	group := m / k
	for z := range k {
		for q := range group {
			b0.Set(z*group+q, z, 1/float64(group))
		}
	}
	var ts []sparse.Triplet
	spikes := map[[2]int]bool{}
	for j := range n {
		s := make([]float64, k)
		s[rng.IntN(k)] += 10 + 10*rng.Float64()
		s[rng.IntN(k)] += 5 * rng.Float64()
		for i := range m {
			v := 0.0
			for z := range k {
				v += b0.At(i, z) * s[z]
			}
			if v > 0 {
				v += 0.02 * v * rng.NormFloat64()
			}
			if rng.Float64() < 0.01 {
				v += 3
				spikes[[2]int{j, i}] = true
			}
			if v > 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: v})
			}
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	c := testcorpus.CorpusOf(t, d)
	return c, b0, spikes
}

func TestPlantedModel(t *testing.T) {
	c, b0, spikes := planted(t, 60, 120, 3)
	rec := engine.NewRecorder()
	model, st, err := Options{K: 3, Seed: 1, MaxIter: 60}.Fit(context.Background(), c, rec)
	if err != nil {
		t.Fatal(err)
	}
	m := model.(*Model)
	its := rec.Iterations()
	first, last := its[0].Diagnostics[0].Value, m.Residual
	t.Logf("%v; residual %.3g → %.3g in %d iterations", st, first, last, len(its))
	if !(last < 1e-4 && last < first/100) {
		t.Errorf("primal residual %g → %g: want it to fall below 1e-4 and by 100×", first, last)
	}
	// Every planted topic is found: some column of B has cosine ≥ 0.95.
	for z := range 3 {
		best := 0.0
		for q := range 3 {
			best = math.Max(best, matcmp.Cosine(mat.Col(nil, z, b0), mat.Col(nil, q, m.B)))
		}
		if best < 0.95 {
			t.Errorf("planted topic %d: best cosine with a learned topic %.3f, want ≥ 0.95", z, best)
		}
	}
	// The keyword spikes land in E: recall and precision of E's support.
	found, support := 0, 0
	n, terms := m.E.Dims()
	for j := range n {
		for i := range terms {
			if m.E.At(j, i) == 0 {
				continue
			}
			support++
			if spikes[[2]int{j, i}] {
				found++
			}
		}
	}
	recall, precision := float64(found)/float64(len(spikes)), float64(found)/float64(max(support, 1))
	t.Logf("E support: %d entries, %d of %d spikes (recall %.3f, precision %.3f)", support, found, len(spikes), recall, precision)
	if recall < 0.95 || precision < 0.95 {
		t.Errorf("E recovers the planted keywords with recall %.3f and precision %.3f, want ≥ 0.95 and ≥ 0.95", recall, precision)
	}
	// Columns of B sum to 1 (Eq. 2 via Eq. 12).
	for q := range 3 {
		sum := 0.0
		for _, v := range mat.Col(nil, q, m.B) {
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("column %d of B sums to %v", q, sum)
		}
	}
}

// Folding in the training documents with the fitted B recovers their S.
func TestFoldInMatchesFit(t *testing.T) {
	c, _, _ := planted(t, 60, 120, 3)
	model, _, err := Options{K: 3, Seed: 1, MaxIter: 60}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := model.(*Model)
	parts, err := m.Split(context.Background(), c.DT)
	if err != nil {
		t.Fatal(err)
	}
	var diff mat.Dense
	diff.Sub(parts.S, m.S)
	rel := mat.Norm(&diff, 2) / mat.Norm(m.S, 2)
	agree := factortest.ArgmaxAgreement(parts.S, m.S, nil)
	same, both := 0, 0
	n, terms := m.E.Dims()
	for j := range n {
		for i := range terms {
			a, b := m.E.At(j, i) != 0, parts.E.At(j, i) != 0
			if a || b {
				both++
				if a && b {
					same++
				}
			}
		}
	}
	t.Logf("‖S_fold − S_fit‖/‖S_fit‖ = %.3g, argmax agreement %.3f, E supports overlap %d of %d, fold-in residual %.3g", rel, agree, same, both, parts.Residual)
	if rel > 0.2 || agree < 0.95 || same < both*9/10 || parts.Residual > 1e-5 {
		t.Errorf("fold-in of the training documents: relative error %.3g (want ≤ 0.2), argmax agreement %.3f (want ≥ 0.95), E overlap %d of %d (want ≥ 90 %%), residual %.3g",
			rel, agree, same, both, parts.Residual)
	}
}

// Fit does not require D ≥ 0, so Split accepts negative entries too; a NaN
// is refused, naming the model and the entry.
func TestSplitSignedInput(t *testing.T) {
	c, _, _ := planted(t, 30, 40, 3)
	model, _, err := Options{K: 3, Seed: 1, MaxIter: 5}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := sparse.FromTriplets(1, 30, []sparse.Triplet{{Row: 0, Col: 1, Val: -0.5}, {Row: 0, Col: 4, Val: 1}})
	if err != nil {
		t.Fatal(err)
	}
	m := model.(*Model)
	if _, err := m.Split(context.Background(), x); err != nil {
		t.Errorf("negative entry: %v", err)
	}
	x.Val[0] = math.NaN()
	if _, err := m.Split(context.Background(), x); err == nil || !strings.HasPrefix(err.Error(), "jtd: FoldIn: X[0,1] = NaN") {
		t.Errorf("NaN entry: %v", err)
	}
}

// TestRefusesWhatMemoryCannotHold: the ten dense N×M matrices of a fit on a
// 200000×200000 corpus (3.2 TB) are refused before anything is allocated,
// naming the sizes, where a flat K = 2 factorization of it would fit.
func TestRefusesWhatMemoryCannotHold(t *testing.T) {
	const size = 200000
	if mem := engine.Memory(); mem == 0 || mem > 80*size*size {
		t.Skipf("the machine's memory (%d bytes) is unknown or large enough", mem)
	}
	d, err := sparse.FromTriplets(size, size, []sparse.Triplet{{Row: 3, Col: 5, Val: 1}, {Row: 4, Col: 6, Val: 2}})
	if err != nil {
		t.Fatal(err)
	}
	c := &engine.Corpus{Name: "wide", D: d}
	_, _, err = Options{K: 2}.Fit(context.Background(), c, nil)
	want := "jtd: K = 2 topics of 200000 terms × 200000 documents need at least 3200006400000 bytes"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Fit: %v, want %q…", err, want)
	}
}
