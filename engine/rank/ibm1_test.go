package rank_test

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/engine/sparse"
)

// bags builds a sentences × vocab count matrix from word-id lists.
func bags(t *testing.T, vocab int, sents ...[]int) *sparse.CSR {
	t.Helper()
	var ts []sparse.Triplet
	for i, s := range sents {
		for _, w := range s {
			ts = append(ts, sparse.Triplet{Row: i, Col: w, Val: 1})
		}
	}
	m, err := sparse.FromTriplets(len(sents), vocab, ts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestIBM1Koehn is the worked example of Koehn, "Statistical Machine
// Translation" (2010), ch. 4, checked by hand: source (German) das 0,
// Haus 1, Buch 2, ein 3; target (English) the 0, house 1, book 2, a 3;
// pairs "das Haus"–"the house", "das Buch"–"the book", "ein Buch"–"a
// book"; no empty word. From t = 1/4, one iteration gives t(the|das) = 1/2,
// t(house|das) = t(book|das) = 1/4, …; the second gives t(the|das) = 7/11,
// t(book|Buch) = 7/11, t(a|ein) = 4/7, t(house|Haus) = 4/7 (the posteriors
// of iteration 2 are ratios of the iteration-1 values; e.g. for das:
// c(the) = 1/2 + 2/3, c(house) = c(book) = 1/3, total 11/6).
func TestIBM1Koehn(t *testing.T) {
	src := bags(t, 4, []int{0, 1}, []int{0, 2}, []int{3, 2})
	tgt := bags(t, 4, []int{0, 1}, []int{0, 2}, []int{3, 2})
	want := map[int][][3]float64{ // iterations → {f, e, t(f|e)}
		1: {{0, 0, 0.5}, {1, 0, 0.25}, {2, 0, 0.25}, {0, 1, 0.5}, {1, 1, 0.5}, {2, 2, 0.5}, {0, 2, 0.25}, {3, 2, 0.25},
			{2, 3, 0.5}, {3, 3, 0.5}, {3, 0, 0}, {1, 3, 0}},
		2: {{0, 0, 7.0 / 11}, {1, 0, 2.0 / 11}, {2, 0, 2.0 / 11}, {2, 2, 7.0 / 11}, {0, 2, 2.0 / 11}, {3, 2, 2.0 / 11},
			{3, 3, 4.0 / 7}, {2, 3, 3.0 / 7}, {1, 1, 4.0 / 7}, {0, 1, 3.0 / 7}},
	}
	for iters, cases := range want {
		m, err := rank.TrainIBM1(src, tgt, rank.IBM1Params{Iterations: iters})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if got := m.Prob(int(c[0]), int(c[1])); math.Abs(got-c[2]) > 1e-15 {
				t.Errorf("after %d iterations t(%v|%v) = %.17g, want %.17g", iters, c[0], c[1], got, c[2])
			}
		}
		// LL at the uniform start: 6 target words, each ln(Σ_e t/l) = ln(1/4).
		if ll := m.LogLikelihood(); len(ll) != iters+1 || math.Abs(ll[0]-6*math.Log(0.25)) > 1e-14 {
			t.Errorf("log-likelihood %v, want %d values starting at 6·ln(1/4)", ll, iters+1)
		}
	}
	// After one iteration, pair 1's target words have likelihoods
	// the: (1/2 + 1/2)/2, house: (1/4 + 1/2)/2; pair 2's the: (1/2 + 1/4)/2,
	// book: (1/4 + 1/2)/2; pair 3's a: (1/2 + 1/4)/2, book: (1/2 + 1/2)/2.
	m, _ := rank.TrainIBM1(src, tgt, rank.IBM1Params{Iterations: 1})
	want1 := 2*math.Log(0.5) + 4*math.Log(0.375)
	if ll := m.LogLikelihood(); math.Abs(ll[1]-want1) > 1e-14 {
		t.Errorf("LL after 1 iteration %.17g, want %.17g", ll[1], want1)
	}
}

// TestIBM1LikelihoodNonDecreasing trains on random bag pairs, with and
// without the empty word, and checks that LL never decreases, strictly
// increases at first, and that every t(·|e) sums to 1.
func TestIBM1LikelihoodNonDecreasing(t *testing.T) {
	rng := engine.NewRand(3)
	const vocab, pairs = 30, 60
	var sts, tts []sparse.Triplet
	for i := 0; i < pairs; i++ {
		for k := 0; k < 1+rng.IntN(6); k++ {
			sts = append(sts, sparse.Triplet{Row: i, Col: rng.IntN(vocab), Val: float64(1 + rng.IntN(2))})
		}
		for k := 0; k < 1+rng.IntN(8); k++ {
			tts = append(tts, sparse.Triplet{Row: i, Col: rng.IntN(vocab), Val: 1})
		}
	}
	src, _ := sparse.FromTriplets(pairs, vocab, sts)
	tgt, _ := sparse.FromTriplets(pairs, vocab, tts)
	for _, null := range []bool{false, true} {
		m, err := rank.TrainIBM1(src, tgt, rank.IBM1Params{Iterations: 25, Null: null})
		if err != nil {
			t.Fatal(err)
		}
		ll := m.LogLikelihood()
		if !(ll[1] > ll[0]) {
			t.Errorf("null=%v: LL did not increase at the first iteration: %v → %v", null, ll[0], ll[1])
		}
		for i := 1; i < len(ll); i++ {
			if ll[i] < ll[i-1]-1e-12*math.Abs(ll[i-1]) {
				t.Errorf("null=%v: LL decreased at iteration %d: %.17g → %.17g", null, i, ll[i-1], ll[i])
			}
		}
		for e := -1; e < vocab; e++ {
			sum := 0.0
			for f := 0; f < vocab; f++ {
				sum += m.Prob(f, e)
			}
			if (e >= 0 || null) && sum > 0 && math.Abs(sum-1) > 1e-12 {
				t.Errorf("null=%v: Σ_f t(f|%d) = %v", null, e, sum)
			}
		}
	}
	if _, err := rank.TrainIBM1(src, bags(t, vocab, []int{1}), rank.IBM1Params{}); err == nil {
		t.Error("mismatched pair counts: no error")
	}
}
