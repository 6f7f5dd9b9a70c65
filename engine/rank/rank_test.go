package rank_test

import (
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/engine/sparse"
)

// toyIndex is a 3-document corpus over 4 terms (0 apple, 1 banana, 2 cherry,
// 3 date):
//
//	d0: apple×2 banana×1            |d0| = 3
//	d1: banana×1 cherry×3           |d1| = 4
//	d2: apple×1 cherry×1 date×2     |d2| = 4
//
// N = 3, avgdl = 11/3, df = (2, 2, 2, 1), cf = (3, 2, 4, 2), |C| = 11.
func toyIndex(t *testing.T) *rank.Index {
	t.Helper()
	d, err := sparse.FromTriplets(4, 3, []sparse.Triplet{
		{Row: 0, Col: 0, Val: 2}, {Row: 1, Col: 0, Val: 1},
		{Row: 1, Col: 1, Val: 1}, {Row: 2, Col: 1, Val: 3},
		{Row: 0, Col: 2, Val: 1}, {Row: 2, Col: 2, Val: 1}, {Row: 3, Col: 2, Val: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := rank.NewIndex(d)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// The two toy queries: q1 = apple date, q2 = banana×2 cherry.
var (
	q1Terms, q1TF = []int32{0, 3}, []float64{1, 1}
	q2Terms, q2TF = []int32{1, 2}, []float64{2, 1}
)

func closeTo(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d scores, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12*math.Max(1, math.Abs(want[i])) {
			t.Errorf("%s: document %d scores %.17g, want %.17g", what, i, got[i], want[i])
		}
	}
}

func TestIndexStatistics(t *testing.T) {
	ix := toyIndex(t)
	if ix.Docs() != 3 || ix.Terms() != 4 || ix.TotalLen() != 11 || math.Abs(ix.AvgDocLen()-11.0/3) > 1e-15 {
		t.Fatalf("N=%d M=%d |C|=%v avgdl=%v, want 3 4 11 11/3", ix.Docs(), ix.Terms(), ix.TotalLen(), ix.AvgDocLen())
	}
	for i, want := range []float64{3, 4, 4} {
		if ix.DocLen(i) != want {
			t.Errorf("|d%d| = %v, want %v", i, ix.DocLen(i), want)
		}
	}
	for tm, want := range []int{2, 2, 2, 1} {
		if ix.DF(tm) != want {
			t.Errorf("df(%d) = %d, want %d", tm, ix.DF(tm), want)
		}
	}
	for tm, want := range []float64{3, 2, 4, 2} {
		if ix.CF(tm) != want {
			t.Errorf("cf(%d) = %v, want %v", tm, ix.CF(tm), want)
		}
	}
}

// Expected scores below were computed with python3 directly from the
// formulas of doc.go (a dict per document, no shared code), printed with
// repr.
func TestBM25Toy(t *testing.T) {
	ix := toyIndex(t)
	for _, tc := range []struct {
		name   string
		p      rank.BM25Params
		q1, q2 []float64
	}{
		{"plus-one idf", rank.DefaultBM25Params(),
			[]float64{0.6810831034578925, 0, 1.768168522928149},
			[]float64{1.0155435560488217, 1.630766011794083, 0.4531509094719841}},
		// df = 2 of N = 3: ln(1.5/2.5) < 0, so containing apple lowers d0's score.
		{"classic RSJ idf", rank.BM25Params{K1: 1.2, B: 0.75, IDF: rank.IDFRSJ},
			[]float64{-0.7402383290501184, 0, 0.19236507636096212},
			[]float64{-1.1037482227800874, -1.7724056014800393, -0.49250916713693127}},
	} {
		s, err := rank.NewBM25(ix, tc.p)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, tc.name+" q1", s.Score(q1Terms, q1TF, nil), tc.q1)
		closeTo(t, tc.name+" q2", s.Score(q2Terms, q2TF, nil), tc.q2)
	}
}

func TestBM25NegativeRSJIDF(t *testing.T) {
	ix := toyIndex(t)
	s, _ := rank.NewBM25(ix, rank.BM25Params{K1: 1.2, B: 0.75, IDF: rank.IDFRSJ})
	if got := s.TermIDF(0); got >= 0 || math.Abs(got-math.Log(1.5/2.5)) > 1e-15 {
		t.Errorf("classic idf of a term in 2 of 3 documents = %v, want ln(0.6) < 0", got)
	}
	p, _ := rank.NewBM25(ix, rank.DefaultBM25Params())
	if got := p.TermIDF(0); got <= 0 || math.Abs(got-math.Log(1+1.5/2.5)) > 1e-15 {
		t.Errorf("plus-one idf = %v, want ln(1.6) > 0", got)
	}
}

func TestVSMToy(t *testing.T) {
	ix := toyIndex(t)
	s, err := rank.NewVSM(ix, rank.VSMParams{})
	if err != nil {
		t.Fatal(err)
	}
	// python3: cosine of {t: tf·ln(3/df)} vectors.
	closeTo(t, "q1", s.Score(q1Terms, q1TF, nil), []float64{0.30968785970908075, 0, 0.9695660851473744})
	closeTo(t, "q2", s.Score(q2Terms, q2TF, nil), []float64{0.4000000000000001, 0.7071067811865477, 0.07985217935454293})
	// By hand: with idf a = ln 1.5 for terms 0..2, q2 = (0, 2a, a, 0) and
	// d1 = (0, a, 3a, 0): cosine = (2+3)/(√5·√10) = 1/√2.
	if got := s.Score(q2Terms, q2TF, nil)[1]; math.Abs(got-1/math.Sqrt2) > 1e-15 {
		t.Errorf("cos(q2, d1) = %v, want 1/√2", got)
	}
}

func TestVSMSublinear(t *testing.T) {
	ix := toyIndex(t)
	s, _ := rank.NewVSM(ix, rank.VSMParams{Sublinear: true})
	// By hand: q2 weights (1+ln2)a, a; d1 = (a, (1+ln3)a); common factor a cancels.
	l2, l3 := 1+math.Log(2), 1+math.Log(3)
	want := (l2 + l3) / (math.Sqrt(l2*l2+1) * math.Sqrt(1+l3*l3))
	if got := s.Score(q2Terms, q2TF, nil)[1]; math.Abs(got-want) > 1e-15 {
		t.Errorf("ltc cos(q2, d1) = %v, want %v", got, want)
	}
}

func TestLMToy(t *testing.T) {
	ix := toyIndex(t)
	for _, tc := range []struct {
		mu     float64
		q1, q2 []float64
	}{
		{0, // default μ = 2000
			[]float64{-3.003368867784671, -3.008027081694032, -3.0007104966344924},
			[]float64{-4.420101273190488, -4.41748213729546, -4.425717048590206}},
		{5,
			[]float64{-3.041170623318143, -4.179604406172924, -2.4664072594479713},
			[]float64{-4.347233294433782, -3.726022761404802, -5.746202159930532}},
	} {
		s, err := rank.NewLM(ix, rank.LMParams{Mu: tc.mu})
		if err != nil {
			t.Fatal(err)
		}
		// python3: Σ qtf·ln((tf + μ·cf/|C|)/(|d| + μ)).
		closeTo(t, "q1", s.Score(q1Terms, q1TF, nil), tc.q1)
		closeTo(t, "q2", s.Score(q2Terms, q2TF, nil), tc.q2)
	}
}

// defaultScorers are BM25, VSM and LM with their default parameters on ix.
func defaultScorers(ix *rank.Index) []rank.Scorer {
	bm, _ := rank.NewBM25(ix, rank.DefaultBM25Params())
	vsm, _ := rank.NewVSM(ix, rank.VSMParams{})
	lm, _ := rank.NewLM(ix, rank.LMParams{})
	return []rank.Scorer{bm, vsm, lm}
}

func TestScoreAllMatchesScore(t *testing.T) {
	ix := toyIndex(t)
	qs, err := sparse.New(3, 4, []int{0, 2, 4, 4}, []int32{0, 3, 1, 2}, []float64{1, 1, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range defaultScorers(ix) {
		all, err := rank.ScoreAll(s, ix, qs)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 3 {
			t.Fatalf("%s: %d rows, want 3", s.Name(), len(all))
		}
		for i := 0; i < 2; i++ {
			terms, qtf := qs.Row(i)
			want := s.Score(terms, qtf, nil)
			for d := range want {
				if all[i][d] != want[d] {
					t.Errorf("%s: ScoreAll[%d][%d] = %v, Score gives %v", s.Name(), i, d, all[i][d], want[d])
				}
			}
		}
		// An empty query scores every document 0.
		for d, v := range all[2] {
			if v != 0 {
				t.Errorf("%s: empty query scores document %d %v, want 0", s.Name(), d, v)
			}
		}
	}
}

func TestScoreReusesDst(t *testing.T) {
	ix := toyIndex(t)
	bm, _ := rank.NewBM25(ix, rank.DefaultBM25Params())
	dst := []float64{7, 7, 7}
	got := bm.Score(q1Terms, q1TF, dst)
	if &got[0] != &dst[0] || got[1] != 0 {
		t.Errorf("Score did not clear and reuse dst: %v", got)
	}
}

func TestEmptyAndSingleDocument(t *testing.T) {
	// Size 0: no documents, two terms.
	empty, err := sparse.New(2, 0, []int{0, 0, 0}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := rank.NewIndex(empty)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range defaultScorers(ix) {
		if got := s.Score([]int32{0}, []float64{1}, nil); len(got) != 0 {
			t.Errorf("%s on an empty index: %v", s.Name(), got)
		}
	}
	// Size 1: one document "x x y". BM25 idf of x is ln(1 + 0.5/1.5);
	// |d| = avgdl so tf·(k1+1)/(tf+k1) = 2·2.2/3.2.
	one, _ := sparse.New(2, 1, []int{0, 1, 2}, []int32{0, 0}, []float64{2, 1})
	ix, err = rank.NewIndex(one)
	if err != nil {
		t.Fatal(err)
	}
	bm, _ := rank.NewBM25(ix, rank.DefaultBM25Params())
	want := math.Log(1+0.5/1.5) * 2 * 2.2 / 3.2
	if got := bm.Score([]int32{0}, []float64{1}, nil)[0]; math.Abs(got-want) > 1e-15 {
		t.Errorf("BM25 on one document = %v, want %v", got, want)
	}
	// VSM: idf ln(1/1) = 0 for every term: the document vector is zero.
	vsm, _ := rank.NewVSM(ix, rank.VSMParams{})
	if got := vsm.Score([]int32{0}, []float64{1}, nil)[0]; got != 0 {
		t.Errorf("VSM with zero idf = %v, want 0", got)
	}
	// LM with μ = 3: ln((2 + 3·2/3)/(3 + 3)) = ln(2/3).
	lm, _ := rank.NewLM(ix, rank.LMParams{Mu: 3})
	if got := lm.Score([]int32{0}, []float64{1}, nil)[0]; math.Abs(got-math.Log(4.0/6)) > 1e-15 {
		t.Errorf("LM on one document = %v, want ln(2/3)", got)
	}
}

func TestBadInput(t *testing.T) {
	weighted, _ := sparse.New(1, 2, []int{0, 2}, []int32{0, 1}, []float64{1, 0.5})
	if _, err := rank.NewIndex(weighted); err == nil || !strings.Contains(err.Error(), "document 1") {
		t.Errorf("non-integer count: error %v, want one naming document 1", err)
	}
	neg, _ := sparse.New(1, 1, []int{0, 1}, []int32{0}, []float64{-1})
	if _, err := rank.NewIndex(neg); err == nil {
		t.Error("negative count accepted")
	}
	ix := toyIndex(t)
	for _, p := range []rank.BM25Params{{K1: -1, B: 0.5}, {K1: 1, B: 1.5}, {K1: math.NaN()}, {K1: 1, B: 0.5, IDF: 7}} {
		if _, err := rank.NewBM25(ix, p); err == nil {
			t.Errorf("BM25 params %+v accepted", p)
		}
	}
	if _, err := rank.NewLM(ix, rank.LMParams{Mu: -2}); err == nil {
		t.Error("negative mu accepted")
	}
	bm, _ := rank.NewBM25(ix, rank.DefaultBM25Params())
	wide, _ := sparse.New(1, 5, []int{0, 0}, nil, nil)
	if _, err := rank.ScoreAll(bm, ix, wide); err == nil || !strings.Contains(err.Error(), "5 columns") {
		t.Errorf("query matrix of the wrong width: %v", err)
	}
	negq, _ := sparse.New(1, 4, []int{0, 1}, []int32{2}, []float64{math.Inf(1)})
	if _, err := rank.ScoreAll(bm, ix, negq); err == nil || !strings.Contains(err.Error(), "term 2") {
		t.Errorf("infinite query count: %v", err)
	}
}
