package rank_test

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/engine/sparse"
)

// toyTable is IBM Model 1 after one iteration on two pairs over the toy
// vocabulary (0 apple, 1 banana, 2 cherry, 3 date): "apple banana" →
// "apple cherry" and "banana" → "date". By hand: T(apple|apple) =
// T(cherry|apple) = 1/2; T(apple|banana) = T(cherry|banana) = 1/4,
// T(date|banana) = 1/2; every other T is 0.
func toyTable(t *testing.T) *rank.IBM1 {
	t.Helper()
	m, err := rank.TrainIBM1(bags(t, 4, []int{0, 1}, []int{1}), bags(t, 4, []int{0, 2}, []int{3}), rank.IBM1Params{Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][3]float64{{0, 0, 0.5}, {2, 0, 0.5}, {0, 1, 0.25}, {2, 1, 0.25}, {3, 1, 0.5}, {1, 1, 0}, {3, 3, 0}} {
		if got := m.Prob(int(c[0]), int(c[1])); got != c[2] {
			t.Fatalf("T(%v|%v) = %v, want %v", c[0], c[1], got, c[2])
		}
	}
	return m
}

// TestTranslationModels checks the TM and the TRLM (β = 1/4) with μ = 2 on
// the toy index (d0: apple×2 banana; d1: banana cherry×3; d2: apple cherry
// date×2; cf = (3, 2, 4, 2), |C| = 11) by hand. Σ_t T(w|t)·tf(t,D) for
// the query words: apple (1.25, 0.25, 0.5), date (0.5, 0.5, 0), banana
// (0, 0, 0), cherry (1.25, 0.25, 0.5).
func TestTranslationModels(t *testing.T) {
	ix := toyIndex(t)
	tr := toyTable(t)
	tm, err := rank.NewTM(ix, tr, rank.TranslationParams{Mu: 2})
	if err != nil {
		t.Fatal(err)
	}
	trlm, err := rank.NewTRLM(ix, tr, rank.TranslationParams{Mu: 2, Beta: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	ln := math.Log
	pc := func(cf float64) float64 { return 2 * cf / 11 } // μ·p(w|C)
	closeTo(t, "TM q1 (apple date)", tm.Score(q1Terms, q1TF, nil), []float64{
		ln((1.25+pc(3))/5) + ln((0.5+pc(2))/5),
		ln((0.25+pc(3))/6) + ln((0.5+pc(2))/6),
		ln((0.5+pc(3))/6) + ln((0+pc(2))/6),
	})
	closeTo(t, "TM q2 (banana×2 cherry)", tm.Score(q2Terms, q2TF, nil), []float64{
		2*ln(pc(2)/5) + ln((1.25+pc(4))/5),
		2*ln(pc(2)/6) + ln((0.25+pc(4))/6),
		2*ln(pc(2)/6) + ln((0.5+pc(4))/6),
	})
	// TRLM: (1−β)·tf(w,D) + β·Σ_t T(w|t)·tf(t,D), β = 1/4.
	mx := func(tf, tc float64) float64 { return 0.75*tf + 0.25*tc }
	closeTo(t, "TRLM q1 (apple date)", trlm.Score(q1Terms, q1TF, nil), []float64{
		ln((mx(2, 1.25)+pc(3))/5) + ln((mx(0, 0.5)+pc(2))/5),
		ln((mx(0, 0.25)+pc(3))/6) + ln((mx(0, 0.5)+pc(2))/6),
		ln((mx(1, 0.5)+pc(3))/6) + ln((mx(2, 0)+pc(2))/6),
	})
	closeTo(t, "TRLM q2 (banana×2 cherry)", trlm.Score(q2Terms, q2TF, nil), []float64{
		2*ln((mx(1, 0)+pc(2))/5) + ln((mx(0, 1.25)+pc(4))/5),
		2*ln((mx(1, 0)+pc(2))/6) + ln((mx(3, 0.25)+pc(4))/6),
		2*ln((mx(0, 0)+pc(2))/6) + ln((mx(1, 0.5)+pc(4))/6),
	})
	if tm.Name() != "tm" || trlm.Name() != "trlm" || tm.Beta() != 1 {
		t.Errorf("names %q %q, TM β %v", tm.Name(), trlm.Name(), tm.Beta())
	}
	// ScoreAll (parallel over queries) agrees with Score.
	qs, _ := sparse.FromTriplets(2, 4, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 0, Col: 3, Val: 1}, {Row: 1, Col: 1, Val: 2}, {Row: 1, Col: 2, Val: 1}})
	all, err := rank.ScoreAll(trlm, ix, qs)
	if err != nil {
		t.Fatal(err)
	}
	closeTo(t, "ScoreAll TRLM q2", all[1], trlm.Score(q2Terms, q2TF, nil))
}

func TestTranslationInvalid(t *testing.T) {
	ix := toyIndex(t)
	tr := toyTable(t)
	for _, p := range []rank.TranslationParams{{Mu: -1}, {Beta: 1.5}, {Beta: -0.1}, {Beta: math.NaN()}} {
		if _, err := rank.NewTRLM(ix, tr, p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
	small, _ := rank.TrainIBM1(bags(t, 3, []int{0}), bags(t, 3, []int{1}), rank.IBM1Params{})
	if _, err := rank.NewTM(ix, small, rank.TranslationParams{}); err == nil {
		t.Error("a table over 3 words for a 4-term index: no error")
	}
}

// TestPool pools the toy table (δ = 1/4) with the one trained on the
// reversed pairs ("apple cherry" → "apple banana", "date" → "banana"; by
// hand T_b(apple|apple) = T_b(banana|apple) = T_b(apple|cherry) =
// T_b(banana|cherry) = 1/2, T_b(banana|date) = 1), and checks the pooled
// entries and that the TM accepts the pooled table.
func TestPool(t *testing.T) {
	a := toyTable(t)
	b, err := rank.TrainIBM1(bags(t, 4, []int{0, 2}, []int{3}), bags(t, 4, []int{0, 1}, []int{1}), rank.IBM1Params{Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := rank.Pool(a, b, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int]float64{ // {w, t} → T_pool(w|t)
		{0, 0}: 0.75*0.5 + 0.25*0.5, {1, 0}: 0.25 * 0.5, {2, 0}: 0.75 * 0.5, {0, 1}: 0.75 * 0.25,
		{2, 1}: 0.75 * 0.25, {3, 1}: 0.75 * 0.5, {0, 2}: 0.25 * 0.5, {1, 2}: 0.25 * 0.5, {1, 3}: 0.25 * 1,
	}
	for w := 0; w < 4; w++ {
		es, ps := p.Sources(w)
		got := map[int]float64{}
		for k, e := range es {
			got[int(e)] = ps[k]
		}
		for e := 0; e < 4; e++ {
			if got[e] != want[[2]int{w, e}] {
				t.Errorf("T_pool(%d|%d) = %v, want %v", w, e, got[e], want[[2]int{w, e}])
			}
		}
	}
	if _, err := rank.NewTM(toyIndex(t), p, rank.TranslationParams{}); err != nil {
		t.Error(err)
	}
	if _, err := rank.Pool(a, b, 1.5); err == nil {
		t.Error("δ = 1.5: no error")
	}
}
