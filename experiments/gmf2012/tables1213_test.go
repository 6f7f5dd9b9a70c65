package gmf2012

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouprlsi"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/metrics/ir"
)

// TestTables1213Quick runs gmf2012/tables12-13 in quick mode end to end.
func TestTables1213Quick(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the quick run fits six models on two real collections")
	}
	exptest.NeedData(t, semevalData, cranfieldData)
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := (&experiments.Runner{Store: st, Quick: true}).Run(context.Background(), Tables1213())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("quick run: %.1f s", time.Since(start).Seconds())
	if len(res.Jobs) != 12*RelQuickSeeds {
		t.Fatalf("%d jobs, want %d (six methods on two data sets, %d seeds)", len(res.Jobs), 12*RelQuickSeeds, RelQuickSeeds)
	}
	// Judged queries with a relevant candidate: 184 of SemEval's 220
	// (measured), 225 of Cranfield's; each split in halves.
	wantQ := map[string][2]float64{semevalData: {92, 92}, cranfieldData: {112, 113}}
	wantP := map[string]float64{semevalData: 26, cranfieldData: CranfieldClasses}
	bm25 := map[string]float64{}
	for _, j := range res.Jobs {
		ds := j.Job.Dataset
		get := func(m string) float64 {
			v, ok := j.Run.Metric(m)
			if !ok {
				t.Fatalf("%s: no metric %s", j.Job.Label(), m)
			}
			return v
		}
		var parts []string
		for _, m := range []string{"val_map", "alpha", "test_map", "test_ndcg_cut_1", "test_ndcg_cut_10", "test_map_p", "topic_test_map", "bm25_test_map", "bm25_val_map", "ktotal", "fit_seconds", "iterations"} {
			parts = append(parts, fmt.Sprintf("%s=%.4g", m, get(m)))
		}
		t.Logf("%s: %s", j.Job.Label(), strings.Join(parts, " "))
		if q := [2]float64{get("val_queries"), get("test_queries")}; q != wantQ[ds] {
			t.Errorf("%s: validation/test queries %v, want %v", j.Job.Label(), q, wantQ[ds])
		}
		if get("classes") != wantP[ds] {
			t.Errorf("%s: %v classes, want %v", j.Job.Label(), get("classes"), wantP[ds])
		}
		// Quick: scale 1, (Ks, Kc) = (10, 2) on SemEval, (10, 4) on Cranfield.
		wantK := map[string]float64{semevalData: 10 + 26*2, cranfieldData: 10 + 10*4}[ds]
		if j.Job.Method.Name == "crlsi" || j.Job.Method.Name == "cnmf" {
			wantK -= 10
		}
		if get("ktotal") != wantK {
			t.Errorf("%s: ktotal %v, want %v", j.Job.Label(), get("ktotal"), wantK)
		}
		for _, m := range []string{"val_map", "test_map", "test_ndcg_cut_1", "test_ndcg_cut_10", "topic_test_map", "bm25_test_map", "alpha"} {
			if v := get(m); !(v >= 0 && v <= 1) {
				t.Errorf("%s: %s = %v, want in [0, 1]", j.Job.Label(), m, v)
			}
		}
		// BM25 is the same in every job; α = 0 is BM25 itself; the chosen α
		// is at least as good as BM25 on the validation queries.
		if b, ok := bm25[ds]; ok && b != get("bm25_test_map") {
			t.Errorf("%s: bm25_test_map %v differs from another job's %v", j.Job.Label(), get("bm25_test_map"), b)
		}
		bm25[ds] = get("bm25_test_map")
		if get("alpha") == 0 && get("test_map") != get("bm25_test_map") {
			t.Errorf("%s: α = 0 but test MAP %v ≠ BM25's %v", j.Job.Label(), get("test_map"), get("bm25_test_map"))
		}
		if get("val_map") < get("bm25_val_map") {
			t.Errorf("%s: chosen validation MAP %v below BM25's %v (α = 0 is a candidate)", j.Job.Label(), get("val_map"), get("bm25_val_map"))
		}
		// The topic score alone ranks far better than chance on Cranfield
		// (about 8 relevant of 1,400 documents per query: chance MAP ≈ 0.01;
		// measured 0.06–0.27 after 10 iterations).
		if ds == cranfieldData && get("topic_test_map") < 0.04 {
			t.Errorf("%s: topic-only test MAP %v, want ≥ 0.04", j.Job.Label(), get("topic_test_map"))
		}
	}
	out, err := relOutcomes(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || len(out[0].Methods) != 6 || len(out[1].Methods) != 6 {
		t.Fatalf("outcomes: %d data sets", len(out))
	}
	for i, v := range res.Verdicts() {
		t.Logf("claim %d: %s: %s", i, v.Outcome, v.Detail)
	}
}

// fakeFolder is a hand-made 2-topic-group model for classCosineScores: M =
// 4 terms, Ks = 1, Kc = 1, P = 3 and U = I, so column 0 (term 0) is the
// shared topic and column 1 + p (term 1 + p) is class p's topic. Its
// fold-in is GRLSI's Eq. 8 with orthonormal Ũ_p: v = Ũ_pᵀx / (1 + λ2),
// λ2 = 0.1, in the shared column and class p's column. calls records the
// classes of every call.
type fakeFolder struct{ calls [][]int }

func (f *fakeFolder) FoldInClass(_ context.Context, x *sparse.CSR, classes []int) (*mat.Dense, error) {
	f.calls = append(f.calls, append([]int(nil), classes...))
	out := mat.NewDense(x.Rows, 4, nil)
	for i := 0; i < x.Rows; i++ {
		row := x.RowDense(i, nil)
		out.Set(i, 0, row[0]/1.1)
		out.Set(i, 1+classes[i], row[1+classes[i]]/1.1)
	}
	return out, nil
}

func denseCSR(t *testing.T, rows [][]float64) *sparse.CSR {
	t.Helper()
	var ts []sparse.Triplet
	for i, r := range rows {
		for j, v := range r {
			if v != 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: v})
			}
		}
	}
	m, err := sparse.FromTriplets(len(rows), len(rows[0]), ts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// toyCorpus is the corpus of the dense term × document matrix rows, its
// terms named a, b, c, … in order, with the documents' classes (nil: none).
func toyCorpus(t *testing.T, rows [][]float64, labels []int, classes []string) *engine.Corpus {
	t.Helper()
	vocab := make([]string, len(rows))
	for i := range vocab {
		vocab[i] = string(rune('a' + i))
	}
	c, err := engine.NewCorpus("toy", vocab, denseCSR(t, rows), nil, labels, classes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestClassCosineScores checks the class-dependent cosine of §7.4 by hand.
// Queries q0 = (1, 1, 0, 1), q1 = (0, 1, 1, 0); documents d0 = (1, 2, 5, 0)
// of class 0, d1 = (2, 0, 1, 0) of class 1, d2 = (0, 3, 0, 0) of class 1.
// Folded in (dropping the common factor 1/1.1): d0 → (1, 2, 0, 0), d1 →
// (2, 0, 1, 0), d2 → 0; q0 in class 0 → (1, 1, 0, 0), in class 1 → (1, 0,
// 0, 0); q1 in class 0 → (0, 1, 0, 0), in class 1 → (0, 0, 1, 0). Hence
// s(q0, d0) = 3/(√2·√5), s(q0, d1) = 2/√5, s(q1, d0) = 2/√5, s(q1, d1) =
// 1/√5 and 0 for d2 (zero vector). Class 2 has no document, so the queries
// are folded in twice (classes 0 and 1), after the documents.
func TestClassCosineScores(t *testing.T) {
	q := denseCSR(t, [][]float64{{1, 1, 0, 1}, {0, 1, 1, 0}})
	d := denseCSR(t, [][]float64{{1, 2, 5, 0}, {2, 0, 1, 0}, {0, 3, 0, 0}})
	f := &fakeFolder{}
	s, err := classCosineScores(context.Background(), "fake", f, q, d, []int{0, 1, 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	r5, r10 := math.Sqrt(5), math.Sqrt(10)
	want := [][]float64{{3 / r10, 2 / r5, 0}, {2 / r5, 1 / r5, 0}}
	for i := range want {
		for j := range want[i] {
			if math.Abs(s.Values[i][j]-want[i][j]) > 1e-15 {
				t.Errorf("s(q%d, d%d) = %v, want %v", i, j, s.Values[i][j], want[i][j])
			}
		}
	}
	if got := fmt.Sprint(f.calls); got != "[[0 1 1] [0 0] [1 1]]" {
		t.Errorf("fold-in calls %s, want documents in their classes, then the queries in class 0 and in class 1", got)
	}
	// Bad input: a class out of range, a length mismatch.
	if _, err := classCosineScores(context.Background(), "fake", f, q, d, []int{0, 3, 1}, 3); err == nil || !strings.Contains(err.Error(), "class 3") {
		t.Errorf("class out of range: %v", err)
	}
	if _, err := classCosineScores(context.Background(), "fake", f, q, d, []int{0, 1}, 3); err == nil {
		t.Error("two classes for three documents: no error")
	}
}

// TestClassCosineGRLSI fits a small GRLSI model and checks the scores of
// classCosineScores against the cosine of one-row fold-ins computed pair by
// pair (query folded in with the document's class).
func TestClassCosineGRLSI(t *testing.T) {
	// 6 terms, 6 documents: terms 0–2 in class 0, 3–5 in class 1, term 2
	// and 3 shared by both.
	c := toyCorpus(t, [][]float64{
		{1, 2, 0, 0, 0, 1},
		{2, 1, 1, 0, 0, 0},
		{1, 1, 2, 1, 0, 1},
		{0, 1, 0, 2, 1, 1},
		{0, 0, 0, 1, 2, 1},
		{0, 0, 1, 1, 1, 2},
	}, []int{0, 0, 0, 1, 1, 1}, []string{"x", "y"})
	m, _, err := grouprlsi.Options{Ks: 1, Kc: 1, Lambda1: 0.01, Lambda2: 0.1, Seed: 7, Stopping: engine.Stopping{MaxIter: 20, RelTol: engine.DefaultRelTol}, InnerTol: rlsi.DefaultInnerTol}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	gm := m.(*grouprlsi.Model)
	q := denseCSR(t, [][]float64{{1, 0, 0, 0, 1, 0}, {0, 0, 1, 1, 0, 0}})
	s, err := classCosineScores(context.Background(), "grlsi", gm, q, c.DT, c.Labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	for qi := 0; qi < q.Rows; qi++ {
		for di := 0; di < c.DT.Rows; di++ {
			y := c.Labels[di]
			vq, err := gm.FoldInClass(context.Background(), q.SelectRows([]int{qi}), []int{y})
			if err != nil {
				t.Fatal(err)
			}
			vd, err := gm.FoldInClass(context.Background(), c.DT.SelectRows([]int{di}), []int{y})
			if err != nil {
				t.Fatal(err)
			}
			a, b := vq.RawRowView(0), vd.RawRowView(0)
			var ab, aa, bb float64
			for k := range a {
				ab += a[k] * b[k]
				aa += a[k] * a[k]
				bb += b[k] * b[k]
			}
			want := 0.0
			if aa > 0 && bb > 0 {
				want = ab / math.Sqrt(aa*bb)
			}
			if math.Abs(s.Values[qi][di]-want) > 1e-12 {
				t.Errorf("s(q%d, d%d) = %v, want %v", qi, di, s.Values[qi][di], want)
			}
		}
	}
}

// TestSweepGroups checks candidate-restricted ranking and the merge of
// groups by hand. Query q1 ranks {a, b} (a relevant, level 1), q2 ranks
// {a, c, d} (c relevant, level 2); the other documents score highest by
// BM25 but are not candidates. q1: term a 1, b 2; topic a 0.9, b 0.1. At α
// = 0.6 the min-max normalized mix is a 0.6, b 0.4 → AP 1; at α = 0.4 a 0.4,
// b 0.6 → AP 1/2; α = 0 is BM25 alone → AP 1/2. q2: term a 3, c 1, d 2;
// topic a 0, c 1, d 0.5. At α = 0.6: a 0.4, c 0.6, d 0.5 → c first, AP 1,
// NDCG@1 1; at α = 0.4: a 0.6, c 0.4, d 0.5 → c third, AP 1/3, NDCG@1 0.
func TestSweepGroups(t *testing.T) {
	task := &retrieval.Task{Name: "toy", DocIDs: []string{"a", "b", "c", "d"}, QueryIDs: []string{"q2", "q1"},
		Qrels: ir.Qrels{"q1": {"a": 1, "b": 0}, "q2": {"a": 0, "c": 2, "d": 0}},
		Eval:  retrieval.EvalOptions(map[int]float64{0: 0, 1: 1, 2: 2})}
	d := &relData{name: "toy", task: task, groups: []relGroup{
		{queries: []int{0}, docs: []int{0, 2, 3}, task: &retrieval.Task{Name: "toy/q2", DocIDs: []string{"a", "c", "d"}, QueryIDs: []string{"q2"}, Qrels: subQrels(task.Qrels, []string{"q2"}), Eval: task.Eval}},
		{queries: []int{1}, docs: []int{0, 1}, task: &retrieval.Task{Name: "toy/q1", DocIDs: []string{"a", "b"}, QueryIDs: []string{"q1"}, Qrels: subQrels(task.Qrels, []string{"q1"}), Eval: task.Eval}},
	}}
	term := &retrieval.Scores{Name: "bm25", Values: [][]float64{{3, 100, 1, 2}, {1, 2, 100, 100}}}
	topic := &retrieval.Scores{Name: "topic", Values: [][]float64{{0, 100, 1, 0.5}, {0.9, 0.1, 100, 100}}}
	evals, err := sweepGroups(d, term, topic, []float64{0, 0.4, 0.6})
	if err != nil {
		t.Fatal(err)
	}
	wantAP := [][]float64{{0.5, 1.0 / 3}, {0.5, 1.0 / 3}, {1, 1}} // [α][q1, q2]
	wantN1 := [][]float64{{0, 0}, {0, 0}, {1, 1}}
	for a, e := range evals {
		if fmt.Sprint(e.Queries) != "[q1 q2]" {
			t.Fatalf("α index %d: queries %v, want [q1 q2]", a, e.Queries)
		}
		ap, n1 := e.Values[slices.Index(retrieval.Measures, "map")], e.Values[slices.Index(retrieval.Measures, "ndcg_cut_1")]
		for q := range ap {
			if math.Abs(ap[q]-wantAP[a][q]) > 1e-12 || math.Abs(n1[q]-wantN1[a][q]) > 1e-12 {
				t.Errorf("α index %d, %s: AP %v NDCG@1 %v, want %v %v", a, e.Queries[q], ap[q], n1[q], wantAP[a][q], wantN1[a][q])
			}
		}
	}
	r := restrict(evals[2], map[string]bool{"q2": true})
	if fmt.Sprint(r.Queries) != "[q2]" || r.Mean("map") != 1 {
		t.Errorf("restrict: %v, MAP %v", r.Queries, r.Mean("map"))
	}
	if chooseAlpha(evals) != 2 {
		t.Errorf("chooseAlpha = %d, want 2 (α = 0.6)", chooseAlpha(evals))
	}
}

// fakeRelRun stores a job's val_map and alpha and its per-query values:
// BM25 (α = 0) gives base[q] on the test and validation queries, the
// chosen α gives base[q] + gain + 0.01·((q mod 3) − 1) (every measure
// alike; over 8 queries the added noise has mean −0.00125).
func fakeRelRun(valMAP, alpha float64, base []float64, gain float64) *experiments.StoredRun {
	run := &experiments.StoredRun{Dir: "fake", Metrics: []experiments.Metric{{Name: "val_map", Value: valMAP}, {Name: "alpha", Value: alpha}, {Name: "bm25_val_map", Value: 0.2}}}
	for _, part := range []string{partVal, partTest} {
		for _, a := range []float64{0, alpha} {
			for _, m := range retrieval.Measures {
				for q, b := range base {
					v := b
					if a != 0 {
						v += gain + 0.01*float64(q%3-1)
					}
					run.PerQuery = append(run.PerQuery, experiments.QueryMetric{Query: fmt.Sprintf("q%02d", q), Metric: experiments.SweepMetric(part, a, m), Value: v})
				}
			}
		}
	}
	return run
}

// TestRelJudges checks the render-time protocol on stored numbers: the
// job with the highest val_map is chosen (not the one with the best test
// numbers), and the claims follow the paired t-tests.
func TestRelJudges(t *testing.T) {
	e := Tables1213()
	base := []float64{0.1, 0.3, 0.2, 0.5, 0.4, 0.35, 0.15, 0.25}
	mk := func(gains map[string][]float64, vals map[string][]float64) *experiments.Results {
		r := &experiments.Results{Experiment: e, Quick: true} // quick: no pinned choice to check
		for _, label := range []string{labelRLSI, labelCRLSI, labelGRLSI} {
			for i, g := range gains[label] {
				j := &experiments.Job{Experiment: e, Dataset: "toy", Method: experiments.MethodSpec{Label: label, Name: "x"}, Point: map[string]string{"scale": fmt.Sprint(i + 1)}}
				r.Jobs = append(r.Jobs, &experiments.JobResult{Job: j, Run: fakeRelRun(vals[label][i], 0.3, base, g)})
			}
		}
		return r
	}
	// GRLSI: the config chosen on validation (val 0.5) gains 0.1; the
	// other (val 0.4) would lose 0.2. CRLSI gains nothing, RLSI 0.1.
	r := mk(map[string][]float64{labelGRLSI: {0.1, -0.2}, labelCRLSI: {0}, labelRLSI: {0.1}},
		map[string][]float64{labelGRLSI: {0.5, 0.4}, labelCRLSI: {0.3}, labelRLSI: {0.45}})
	out, err := relOutcomes(r)
	if err != nil {
		t.Fatal(err)
	}
	g := out[0].Methods[labelGRLSI]
	if g.Config != "scale=1" || g.Configs != 2 || g.Alpha != 0.3 || len(g.Test.Queries) != len(base) {
		t.Fatalf("GRLSI choice %+v", g)
	}
	cl := e.Claims
	for i, want := range map[int]experiments.Outcome{
		0: experiments.Held,         // GRLSI beats BM25
		1: experiments.Inconclusive, // no GroupNMF run
		2: experiments.Held,         // GRLSI vs CRLSI (+0.1) and RLSI (equal): not below
		4: experiments.Held,         // GRLSI significantly above CRLSI
		5: experiments.NotHeld,      // CRLSI does not beat BM25
		6: experiments.Inconclusive, // evidence
	} {
		if v := cl[i].Judge(r); v.Outcome != want {
			t.Errorf("claim %d: %v, want %v (%s)", i, v.Outcome, want, v.Detail)
		}
	}
	if v := cl[6].Judge(r); !strings.Contains(v.Detail, "BM25+GRLSI (best of 2 configs × 11 α on validation at seed 0: scale=1, α=0.3, validation MAP 0.5000; test, per-query mean over 1 seeds, MAP 0.3800 [NaN, NaN] over seeds): MAP 0.3800 (+0.09") {
		t.Errorf("evidence: %s", v.Detail)
	}
	// Choosing the other GRLSI config on validation turns the claims.
	r = mk(map[string][]float64{labelGRLSI: {0.1, -0.2}, labelCRLSI: {0}, labelRLSI: {0.1}},
		map[string][]float64{labelGRLSI: {0.4, 0.5}, labelCRLSI: {0.3}, labelRLSI: {0.45}})
	for i, want := range map[int]experiments.Outcome{0: experiments.NotHeld, 2: experiments.NotHeld, 4: experiments.NotHeld} {
		if v := cl[i].Judge(r); v.Outcome != want {
			t.Errorf("worse choice, claim %d: %v, want %v (%s)", i, v.Outcome, want, v.Detail)
		}
	}
	if v := cl[0].Judge(&experiments.Results{Experiment: e}); v.Outcome != experiments.Inconclusive {
		t.Errorf("no runs: %v", v.Outcome)
	}

	// Seeds: two more GRLSI fits at the chosen configuration (gains 0 and
	// 0.2 around seed 0's 0.1) are pooled per query at seed 0's α; the
	// choice still sees seed 0 only (Configs stays 2).
	r = mk(map[string][]float64{labelGRLSI: {0.1, -0.2}, labelCRLSI: {0}, labelRLSI: {0.1}},
		map[string][]float64{labelGRLSI: {0.5, 0.4}, labelCRLSI: {0.3}, labelRLSI: {0.45}})
	chosen := r.Jobs[2].Job
	for i, gain := range []float64{0, 0.2} {
		j := *chosen
		j.Replicate = i + 1
		r.Jobs = append(r.Jobs, &experiments.JobResult{Job: &j, Run: fakeRelRun(0.9, 0.3, base, gain)})
	}
	out, err = computeRelOutcomes(r)
	if err != nil {
		t.Fatal(err)
	}
	g = out[0].Methods[labelGRLSI]
	// Seed MAPs 0.28125 + gain − 0.00125: 0.38, 0.28, 0.48; mean 0.38,
	// s = 0.1, t_{0.975, 2} = 4.302652729911275.
	half := 4.302652729911275 * 0.1 / math.Sqrt(3)
	if g.Config != "scale=1" || g.Configs != 2 || g.Seeds != 3 || math.Abs(g.MAP.Mean-0.38) > 1e-12 ||
		math.Abs(g.MAP.Hi-(0.38+half)) > 1e-8 || math.Abs(g.Test.Mean("map")-0.38) > 1e-12 {
		t.Errorf("GRLSI over seeds: %+v", g)
	}
	// A full run whose choice moved away from the seeded configuration:
	// the claims say so and stay inconclusive.
	r.Quick = false
	if v := cl[0].Judge(&experiments.Results{Experiment: e, Jobs: r.Jobs}); v.Outcome != experiments.Inconclusive || !strings.Contains(v.Detail, "update relSelected") {
		t.Errorf("moved choice: %v (%s)", v.Outcome, v.Detail)
	}
}

// TestRelSeedsAndPaperRows: a full run fits RelSeeds seeds at the 12
// chosen configurations (2 data sets × 6 methods) and one elsewhere; the
// paper's Tables 12–13 values stand beside those 12 rows of the configs
// table only.
func TestRelSeedsAndPaperRows(t *testing.T) {
	e := Tables1213()
	jobs, err := e.Jobs(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	res := &experiments.Results{Experiment: e}
	extra := 0
	for _, j := range jobs {
		if j.Replicate > 0 {
			extra++
		}
		res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "test_map", Value: 0.5}}}})
	}
	if extra != 12*(RelSeeds-1) || len(jobs) != 2*(3*12+3*3)+extra {
		t.Errorf("%d jobs, %d extra replicates, want %d + %d", len(jobs), extra, 2*(3*12+3*3), 12*(RelSeeds-1))
	}
	td := report.BuildTable(res, e.Tables[0])
	col := slices.Index(e.Tables[0].Metrics, "test_map")
	var with []string
	for r, row := range td.Rows {
		if !math.IsNaN(td.Paper[r][col]) {
			with = append(with, strings.Join(row, " "))
		}
	}
	want := []string{
		"semeval2016 RLSI 1 0.01", "semeval2016 CRLSI 3 0.01", "semeval2016 GRLSI 2 0.05", "semeval2016 NMF 3 ", "semeval2016 CNMF 1 ", "semeval2016 GroupNMF 2 ",
		"cranfield RLSI 2 0.02", "cranfield CRLSI 3 0.05", "cranfield GRLSI 3 0.1", "cranfield NMF 3 ", "cranfield CNMF 3 ", "cranfield GroupNMF 3 ",
	}
	if strings.Join(with, "; ") != strings.Join(want, "; ") {
		t.Errorf("paper values beside %d of %d rows: %v, want %v", len(with), len(td.Rows), with, want)
	}
}

// TestClusterClasses: the NMF-argmax classes of a small corpus are in
// range, named contiguously, the same for the same seed, and group the
// two blocks of a block-diagonal corpus apart.
func TestClusterClasses(t *testing.T) {
	c := toyCorpus(t, [][]float64{
		{3, 2, 3, 0, 0, 0},
		{2, 3, 2, 0, 0, 0},
		{0, 0, 0, 2, 3, 3},
		{0, 0, 0, 3, 2, 2},
	}, nil, nil)
	l1, n1, _, err := clusterClasses(c, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	l2, n2, _, err := clusterClasses(c, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(l1, n1) != fmt.Sprint(l2, n2) {
		t.Fatalf("same seed, different classes: %v %v / %v %v", l1, n1, l2, n2)
	}
	if fmt.Sprint(n1) != "[cluster01 cluster02]" {
		t.Fatalf("names %v", n1)
	}
	if !(l1[0] == l1[1] && l1[1] == l1[2] && l1[3] == l1[4] && l1[4] == l1[5] && l1[0] != l1[3]) {
		t.Errorf("labels %v do not separate the two blocks", l1)
	}
}

// TestRelBadInput: unknown data sets and scales are errors naming them.
func TestRelBadInput(t *testing.T) {
	if _, err := loadRel("adi"); err == nil || !strings.Contains(err.Error(), `"adi"`) {
		t.Errorf("unknown data set: %v", err)
	}
	if _, _, err := relScale("adi", 1); err == nil || !strings.Contains(err.Error(), `"adi"`) {
		t.Errorf("relScale of an unknown data set: %v", err)
	}
	if _, _, err := relScale(semevalData, 0); err == nil || !strings.Contains(err.Error(), "scale = 0") {
		t.Errorf("scale 0: %v", err)
	}
	for s, want := range map[int][2]int{1: {10, 2}, 3: {30, 6}} {
		ks, kc, err := relScale(semevalData, s)
		if err != nil || [2]int{ks, kc} != want {
			t.Errorf("semeval scale %d: (%d, %d) %v, want %v", s, ks, kc, err, want)
		}
	}
}
