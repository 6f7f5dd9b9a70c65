package retrieval

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/metrics/ir"
)

func TestSplitQueries(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{1, 1}, {2, 2}, {7, 2}, {30, 5}, {225, 2}} {
		a, err := SplitQueries(tc.n, tc.k, 42)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := SplitQueries(tc.n, tc.k, 42)
		if !slices.EqualFunc(a, b, slices.Equal) {
			t.Errorf("n=%d k=%d: same seed, different folds", tc.n, tc.k)
		}
		var all []int
		for _, f := range a {
			if len(f) < tc.n/tc.k || len(f) > (tc.n+tc.k-1)/tc.k || !slices.IsSorted(f) {
				t.Errorf("n=%d k=%d: fold %v", tc.n, tc.k, f)
			}
			all = append(all, f...)
		}
		slices.Sort(all)
		for i, q := range all {
			if q != i {
				t.Fatalf("n=%d k=%d: folds are not a partition of 0..n-1: %v", tc.n, tc.k, a)
			}
		}
	}
	c, _ := SplitQueries(30, 2, 43)
	d, _ := SplitQueries(30, 2, 42)
	if slices.Equal(c[0], d[0]) {
		t.Error("seeds 42 and 43 give the same halves")
	}
	for _, bad := range []struct{ n, k int }{{0, 1}, {3, 0}, {3, 4}} {
		if _, err := SplitQueries(bad.n, bad.k, 1); err == nil {
			t.Errorf("split of %d into %d accepted", bad.n, bad.k)
		}
	}
}

// fakeSweeps builds a baseline and candidates over n queries with values
// drawn from a seeded generator: every measure's per-query value is random
// in [0, 1).
func fakeSweeps(n int, seed uint64) (*Evaluation, []Candidate) {
	r := engine.NewRand(seed)
	queries := make([]string, n)
	for i := range queries {
		queries[i] = fmt.Sprintf("q%03d", i)
	}
	eval := func(name string) *Evaluation {
		e := &Evaluation{Name: name, Queries: queries, Values: make([][]float64, len(Measures))}
		for m := range e.Values {
			e.Values[m] = make([]float64, n)
			for q := range e.Values[m] {
				e.Values[m][q] = r.Float64()
			}
		}
		return e
	}
	base := eval("bm25")
	var cands []Candidate
	for c := range 3 {
		sw := &Sweep{Term: "bm25", Topic: "t", Alphas: []float64{0, 0.5, 1}}
		for range sw.Alphas {
			sw.Evals = append(sw.Evals, eval("x"))
		}
		cands = append(cands, Candidate{Label: fmt.Sprintf("K=%d", 10*(c+1)), Sweep: sw})
	}
	return base, cands
}

// TestCrossFitNeverSeesTheTestHalf checks the fair protocol by
// construction: rewriting every value of the half a choice is applied to
// never changes that choice, and each query's reported values are those of
// the setting chosen on the other half.
func TestCrossFitNeverSeesTheTestHalf(t *testing.T) {
	base, cands := fakeSweeps(40, 7)
	o := FairOptions{Seed: 3}
	res, err := CrossFit(base, cands, o)
	if err != nil {
		t.Fatal(err)
	}
	for h, ch := range res.Choices {
		sel, app := ch.SelectedOn, ch.AppliedTo
		if len(sel)+len(app) != 40 {
			t.Fatalf("half %d: %d + %d queries", h, len(sel), len(app))
		}
		for _, q := range app {
			if _, found := slices.BinarySearch(sel, q); found {
				t.Fatalf("half %d: query %s both selected on and tested", h, q)
			}
		}
		// Make the test half wildly favor another setting: candidate 2 at
		// α index 2 scores 1 on every test query and measure, everything
		// else 0.
		_, cands2 := fakeSweeps(40, 7)
		for _, q := range app {
			qi, _ := slices.BinarySearch(base.Queries, q)
			for c := range cands2 {
				for a, e := range cands2[c].Sweep.Evals {
					for m := range e.Values {
						e.Values[m][qi] = 0
						if c == 2 && a == 2 {
							e.Values[m][qi] = 1
						}
					}
				}
			}
		}
		res2, err := CrossFit(base, cands2, o)
		if err != nil {
			t.Fatal(err)
		}
		got := res2.Choices[h]
		if got.Candidate != ch.Candidate || got.Alpha != ch.Alpha || got.SelectionMean != ch.SelectionMean {
			t.Errorf("half %d: the choice changed from %s α=%g (%v) to %s α=%g (%v) when only test-half values changed",
				h, ch.Candidate, ch.Alpha, ch.SelectionMean, got.Candidate, got.Alpha, got.SelectionMean)
		}
		// Each tested query carries the chosen setting's values.
		ci := slices.IndexFunc(cands, func(c Candidate) bool { return c.Label == ch.Candidate })
		e := evalAt(cands[ci].Sweep, ch.Alpha)
		for _, q := range app {
			qi, _ := slices.BinarySearch(base.Queries, q)
			for m := range Measures {
				if res.Eval.Values[m][qi] != e.Values[m][qi] {
					t.Fatalf("query %s, %s: reported %v, the chosen setting has %v", q, Measures[m], res.Eval.Values[m][qi], e.Values[m][qi])
				}
			}
		}
		// And the selection mean is the mean over the selection half.
		sum := 0.0
		for _, q := range sel {
			qi, _ := slices.BinarySearch(base.Queries, q)
			sum += e.Values[0][qi]
		}
		if math.Abs(sum/float64(len(sel))-ch.SelectionMean) > 1e-15 {
			t.Errorf("half %d: selection mean %v, recomputed %v", h, ch.SelectionMean, sum/float64(len(sel)))
		}
	}
	if len(res.Tests) != len(Measures) || res.Tests[0].BaselineMean != base.Mean("map") {
		t.Errorf("tests %+v", res.Tests)
	}
}

// TestCrossFitPicksTheSelectionHalfsBest: when one setting is best on every
// query, both halves choose it; BestSetting agrees.
func TestCrossFitPicksTheSelectionHalfsBest(t *testing.T) {
	base, cands := fakeSweeps(20, 9)
	for m := range Measures {
		for q := range 20 {
			cands[1].Sweep.Evals[1].Values[m][q] = 2 // above every random value
		}
	}
	res, err := CrossFit(base, cands, FairOptions{Seed: 1, Select: "ndcg_cut_10"})
	if err != nil {
		t.Fatal(err)
	}
	for h, ch := range res.Choices {
		if ch.Candidate != "K=20" || ch.Alpha != 0.5 || ch.SelectionMean != 2 {
			t.Errorf("half %d chose %+v, want K=20 α=0.5", h, ch)
		}
	}
	ch, e, tests, err := BestSetting(base, cands, "map")
	if err != nil || ch.Candidate != "K=20" || ch.Alpha != 0.5 || e != cands[1].Sweep.Evals[1] || len(tests) != len(Measures) {
		t.Errorf("BestSetting: %+v %v", ch, err)
	}
	if _, err := CrossFit(base, nil, FairOptions{}); err == nil {
		t.Error("no candidates accepted")
	}
	if _, err := CrossFit(base, cands, FairOptions{Select: "bpref"}); err == nil {
		t.Error("unknown selection measure accepted")
	}
	short := &Evaluation{Name: "s", Queries: base.Queries[:10], Values: base.Values}
	if _, err := CrossFit(short, cands, FairOptions{}); err == nil {
		t.Error("baseline over other queries accepted")
	}
}

// synthLTR builds a task of nq queries × nd documents with levels 0..2
// (every query has a level-2 document) and three features: noise, a
// perfectly predictive one (the level itself), and noise.
func synthLTR(nq, nd int, seed uint64) (*Task, []*Scores) {
	r := engine.NewRand(seed)
	tk := &Task{Name: "synthetic", Qrels: ir.Qrels{}, Eval: EvalOptions(nil)}
	for d := range nd {
		tk.DocIDs = append(tk.DocIDs, fmt.Sprintf("d%03d", d))
	}
	feats := []*Scores{{Name: "noise1"}, {Name: "perfect"}, {Name: "noise2"}}
	for q := range nq {
		id := fmt.Sprintf("q%02d", q)
		tk.QueryIDs = append(tk.QueryIDs, id)
		tk.Qrels[id] = map[string]int{}
		rows := make([][]float64, 3)
		for f := range rows {
			rows[f] = make([]float64, nd)
		}
		for d := range nd {
			level := r.IntN(3)
			if d == q%nd {
				level = 2
			}
			tk.Qrels[id][tk.DocIDs[d]] = level
			rows[0][d] = r.Float64()
			rows[1][d] = float64(level)
			rows[2][d] = 10 * r.NormFloat64()
		}
		for f := range feats {
			feats[f].Values = append(feats[f].Values, rows[f])
		}
	}
	return tk, feats
}

func TestLambdaRankLearnsAPerfectFeature(t *testing.T) {
	tk, feats := synthLTR(20, 30, 5)
	res, err := tk.CrossValidateLambdaRank("ltr", feats, LambdaRankOptions{Seed: 11, Epochs: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"map", "ndcg_cut_1", "ndcg_cut_5", "ndcg_cut_10", "P_5"} {
		mi, err := measureIndex(m)
		if err != nil {
			t.Fatal(err)
		}
		for q, v := range res.Eval.Values[mi] {
			if v != 1 {
				t.Errorf("query %s: %s = %v, want 1 (perfect ranking)", res.Eval.Queries[q], m, v)
			}
		}
	}
	if len(res.Models) != 5 || len(res.Folds) != 5 {
		t.Fatalf("%d models, %d folds, want 5", len(res.Models), len(res.Folds))
	}
	for f, m := range res.Models {
		if math.Abs(m.TrainNDCG-1) > 1e-12 { // 1 up to the order of summation
			t.Errorf("fold %d: training NDCG %v, want 1", f, m.TrainNDCG)
		}
		w := m.Weights
		if !(w[1] > math.Abs(w[0])+math.Abs(w[2])) {
			t.Errorf("fold %d: weights %v do not favor the perfect feature", f, w)
		}
	}
	// Same seed: same bits.
	res2, _ := tk.CrossValidateLambdaRank("ltr", feats, LambdaRankOptions{Seed: 11, Epochs: 100})
	for f := range res.Models {
		if !slices.Equal(res.Models[f].Weights, res2.Models[f].Weights) {
			t.Errorf("fold %d: weights differ between identical runs", f)
		}
	}
	// Without the perfect feature, ranking is not perfect.
	noise, err := tk.CrossValidateLambdaRank("noise", []*Scores{feats[0], feats[2]}, LambdaRankOptions{Seed: 11, Epochs: 100})
	if err != nil {
		t.Fatal(err)
	}
	if m := noise.Eval.Mean("map"); m > 0.9 {
		t.Errorf("noise features alone reach MAP %v", m)
	}
}

func TestLambdaGradientByHand(t *testing.T) {
	// Two candidates, gains 1 and 0, one feature x = (0, 1): at w = 0 the
	// tie is broken by order, putting document 1 (order 1) first. Swapping
	// changes NDCG by |1·(1/log2(3) − 1)|/IDCG with IDCG = 1, and
	// ρ = σ·Δ/(1 + e⁰) = Δ/2; the direction is ρ·(x_0 − x_1) = −Δ/2.
	lq := ltrQuery{docs: []int{0, 1}, x: [][]float64{{0}, {1}}, gain: []float64{1, 0}, idcg: 1, order: []int{0, 1}}
	g, ndcg := lq.lambdas([]float64{0}, 1)
	delta := 1 - 1/math.Log2(3)
	if math.Abs(g[0]+delta/2) > 1e-15 || math.Abs(ndcg-1/math.Log2(3)) > 1e-15 {
		t.Errorf("gradient %v, NDCG %v; want %v, %v", g, ndcg, -delta/2, 1/math.Log2(3))
	}
}

func TestCompareLambdaRankRows(t *testing.T) {
	tk, feats := synthLTR(10, 12, 8)
	c, err := tk.CompareLambdaRank([]*Scores{feats[0], feats[2]}, feats[1], LambdaRankOptions{Folds: 2, Epochs: 30, Depth: -1})
	if err != nil {
		t.Fatal(err)
	}
	if c.With.Eval.Mean("map") != 1 || !(c.WithVsWithout[0].MeanDiff > 0) {
		t.Errorf("with the perfect feature: MAP %v, gain over without %v", c.With.Eval.Mean("map"), c.WithVsWithout[0].MeanDiff)
	}
	q, s := c.Rows()
	if len(q) != 3*10*len(Measures) || len(s) != 4*len(Measures) {
		t.Errorf("%d per-query rows, %d summary rows", len(q), len(s))
	}
	if _, err := tk.CrossValidateLambdaRank("x", feats, LambdaRankOptions{Folds: 11}); err == nil {
		t.Error("more folds than queries accepted")
	}
	if _, err := tk.CrossValidateLambdaRank("x", feats, LambdaRankOptions{LearningRate: -1}); err == nil {
		t.Error("negative learning rate accepted")
	}
}

// TestPoolSeeds: the pooled value of a query is the mean of its seeds'
// values; the interval is over the seeds' means (hand-computed: MAPs 0.3
// and 0.5, mean 0.4, s = √0.02, t_{0.975, 1} = 12.706204736174698).
func TestPoolSeeds(t *testing.T) {
	mk := func(a, b float64) *Evaluation {
		v := make([][]float64, len(Measures))
		for m := range v {
			v[m] = []float64{a, b}
		}
		return &Evaluation{Queries: []string{"q1", "q2"}, Values: v}
	}
	p, err := PoolSeeds("x", []*Evaluation{mk(0.2, 0.4), mk(0.6, 0.4)})
	if err != nil {
		t.Fatal(err)
	}
	if p.Values[0][0] != 0.4 || p.Values[0][1] != 0.4 || p.Name != "x" {
		t.Errorf("pooled %v", p.Values[0])
	}
	iv, err := SeedInterval([]*Evaluation{mk(0.2, 0.4), mk(0.6, 0.4)}, "map", 0.95)
	if err != nil {
		t.Fatal(err)
	}
	half := 12.706204736174698 * math.Sqrt(0.02) / math.Sqrt(2)
	if math.Abs(iv.Mean-0.4) > 1e-12 || math.Abs(iv.Hi-(0.4+half)) > 1e-8 {
		t.Errorf("interval %+v, want 0.4 ± %v", iv, half)
	}
	other := mk(0.1, 0.1)
	other.Queries = []string{"q1", "q3"}
	if _, err := PoolSeeds("x", []*Evaluation{mk(0.2, 0.4), other}); err == nil || !strings.Contains(err.Error(), "seed 1") {
		t.Errorf("different queries: %v", err)
	}
}
