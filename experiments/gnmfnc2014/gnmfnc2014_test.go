package gnmfnc2014

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/metrics/ir"
	"gonum.org/v1/gonum/mat"
)

func TestSettingK(t *testing.T) {
	want := [][2]int{{5, 2}, {10, 4}, {20, 8}, {40, 16}, {80, 32}} // §3.1
	for s := 1; s <= 5; s++ {
		ks, kp, err := settingK(s)
		if err != nil || ks != want[s-1][0] || kp != want[s-1][1] {
			t.Errorf("setting %d: (%d, %d), %v; want %v", s, ks, kp, err, want[s-1])
		}
	}
	for _, s := range []int{0, 6} {
		if _, _, err := settingK(s); err == nil {
			t.Errorf("setting %d: no error", s)
		}
	}
}

func TestDistinctness(t *testing.T) {
	// M = 3, Ks = Kp = 1, P = 2: U_s = 2e1, U_0 = e2, U_1 = e1 + 0 (same
	// direction as U_s). By hand: cos(U_s, U_0) = 0, cos(U_s, U_1) = 1, so
	// shared_cat = (0 + 1)/2; cos(U_0, U_1) = 0 for both ordered pairs;
	// top terms {0}, {1}, {0}: Jaccard 0 and 1, mean 0.5.
	u := mat.NewDense(3, 3, []float64{
		2, 0, 1,
		0, 1, 0,
		0, 0, 0,
	})
	sc, cc, ov := distinctness(u, 1, 1, 2)
	if sc != 0.5 || cc != 0 || ov != 0.5 {
		t.Errorf("distinctness = %v, %v, %v; want 0.5, 0, 0.5", sc, cc, ov)
	}
	if got := topTerms([]float64{0.1, 0.5, 0, 0.5}, 3); !slices.Equal(got, []int{0, 1, 3}) {
		t.Errorf("topTerms = %v, want [0 1 3]", got)
	}
	if got := topTerms([]float64{0, 0}, 2); len(got) != 0 {
		t.Errorf("topTerms of zeros = %v, want none", got)
	}
	if j := jaccard([]int{1, 2, 3}, []int{2, 3, 4, 5}); j != 2.0/5 {
		t.Errorf("jaccard = %v, want 2/5", j)
	}
	if j := jaccard(nil, nil); j != 0 {
		t.Errorf("jaccard of empty sets = %v", j)
	}
}

// vals builds per-query values with the given MAPs (P@1 = P@10 = 0).
func vals(ids []string, maps ...float64) map[string][]float64 {
	out := map[string][]float64{}
	for i, id := range ids {
		out[id] = []float64{maps[i], 0, 0}
	}
	return out
}

func TestProtocols(t *testing.T) {
	ids := []string{"q0", "q1", "q2", "q3", "q4"}
	cs := []candidate{
		{desc: "A", vals: vals(ids, 1, 0, 0, 0, 0)},
		{desc: "B", vals: vals(ids, 0, 0.3, 0.3, 0.3, 0.3)},
	}
	// Official: q0 is dev (A wins 1 vs 0), q3 and q4 test.
	split := map[string]int{"q0": 1, "q1": 0, "q2": 0, "q3": 2, "q4": 2}
	c, err := chooseOfficial(cs, split)
	if err != nil || c.desc != "A" || !slices.Equal(c.queries, []string{"q3", "q4"}) || c.mean(0) != 0 {
		t.Fatalf("official: %+v, %v", c, err)
	}
	// Folds: one query each. Fold 0 (q0) is chosen on q1..q4: B (0.3 vs
	// 0), so q0 reads B's 0; folds 1..4 are chosen on the rest, where A
	// has 1/4 and B 0.9/4: A, so q1..q4 read A's 0.
	fold := map[string]int{"q0": 0, "q1": 1, "q2": 2, "q3": 3, "q4": 4}
	c, err = chooseFolds(cs, fold)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.queries, ids) || c.mean(0) != 0 || !strings.HasPrefix(c.desc, "fold 1: B; fold 2: A") {
		t.Errorf("folds: %+v", c)
	}
	// A tie goes to the first candidate.
	tie := []candidate{{desc: "A", vals: vals(ids, 0.5, 0.5, 0.5, 0.5, 0.5)}, {desc: "B", vals: vals(ids, 0.5, 0.5, 0.5, 0.5, 0.5)}}
	if c, _ := chooseOfficial(tie, split); c.desc != "A" {
		t.Errorf("tie chose %s", c.desc)
	}
}

// TestQuickRun runs the three experiments' quick variants end to end and
// checks what must hold whatever the numbers: every claim judged or
// reported, the protocols' query counts, the baselines inside [0, 1].
func TestQuickRun(t *testing.T) {
	exptest.NeedData(t, Dataset)
	res := exptest.RunQuick(t, Tables23())
	out, err := outcomes(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []protocol{protoArchiveOfficial, protoCandsOfficial} {
		if n := len(out[p.key].rows["BM25"].queries); n != 62 {
			t.Errorf("%s reports %d test queries, want 62 (70 minus 8 without a relevant candidate)", p.key, n)
		}
	}
	p10 := slices.Index(measures, "P_10")
	for _, p := range []protocol{protoArchiveFolds, protoCandsFolds} {
		distinct := map[float64]bool{}
		for _, row := range append(slices.Clone(table2Rows), table3Rows...) {
			c := out[p.key].rows[row]
			if c == nil || len(c.queries) != 246 {
				t.Fatalf("%s: row %s missing or not on the 246 judged queries", p.key, row)
			}
			if m := c.mean(0); !(m > 0 && m <= 1) {
				t.Errorf("%s: %s MAP %v", p.key, row, m)
			}
			distinct[c.mean(p10)] = true
		}
		// Re-ranking ≤ 10 candidates cannot move P@10; ranking the
		// archive must (the reason for the main protocol).
		if p.key == protoCandsFolds.key && len(distinct) != 1 {
			t.Errorf("%s: P@10 takes %d values across rows, want 1", p.key, len(distinct))
		}
		if p.key == protoArchiveFolds.key && len(distinct) < 3 {
			t.Errorf("%s: P@10 takes %d values across rows, want several", p.key, len(distinct))
		}
	}
	// The archive ranks every distinct question of the collection but the
	// query; each judgment lands on a question it ranks.
	d, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if d.distinct >= 2483 || d.distinct < 1000 {
		t.Errorf("%d distinct questions among the 2,483 related questions", d.distinct)
	}
	for q, id := range d.task.QueryIDs {
		if n := len(d.archive[q]); (n != d.distinct && n != d.distinct-1) || len(d.cands[q]) > 10 {
			t.Fatalf("query %s ranks %d archive questions and %d candidates, want %d (or one less) and ≤ 10", id, n, len(d.cands[q]), d.distinct)
		}
		for doc := range d.archiveQrels[id] {
			if !slices.ContainsFunc(d.archive[q], func(p int) bool { return d.task.DocIDs[p] == doc }) {
				t.Fatalf("query %s: judged %s is not ranked", id, doc)
			}
		}
	}
	for i, v := range res.Verdicts() {
		if v.Detail == "" || strings.HasPrefix(v.Detail, "cannot") || strings.HasPrefix(v.Detail, "no ") {
			t.Errorf("claim %d: %v", i, v)
		}
	}
	for _, e := range []*experiments.Experiment{Figure1(), Figure2()} {
		r := exptest.RunQuick(t, e)
		for i, v := range r.Verdicts() {
			if v.Outcome == experiments.Inconclusive {
				t.Errorf("%s claim %d: %v", e.ID, i, v)
			}
		}
	}
}

// handResults builds stored runs by hand: ten queries (q0..q4 dev, q5..q9
// test; fold = index mod 5), a GroupNMF job whose combined BM25 run has
// MAP 0.6 + noise at γ = 0.5 and a GNMFNC job with 0.7 + noise, both 0.5
// (BM25 alone) at γ = 0, and the baselines BM25 0.5, LM 0.5, TM 0.4, TRLM
// 0.45 in the first job; the full-archive ranking stores the same values
// minus 0.3 under "archive:" names.
func handResults() *experiments.Results {
	ids := []string{"q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9"}
	job := func(label string, combined float64, base bool) *experiments.JobResult {
		run := &experiments.StoredRun{Dir: label}
		add := func(name string, v func(i int) float64) {
			for _, r := range rankings {
				shift := 0.0
				if r.prefix == archivePrefix {
					shift = -0.3
				}
				for i, id := range ids {
					for m, measure := range measures {
						x := 0.0
						if m == 0 {
							x = v(i) + shift
						}
						run.PerQuery = append(run.PerQuery, experiments.QueryMetric{Query: id, Metric: r.prefix + name + "/" + measure, Value: x})
					}
				}
			}
		}
		noise := func(i int) float64 { return 0.01 * float64(i%3) }
		for _, term := range []string{"bm25", "lm"} {
			add(term+"@0", func(int) float64 { return 0.5 })
			add(term+"@0.5", func(i int) float64 { return combined + noise(i) })
		}
		if base {
			add("base:bm25", func(int) float64 { return 0.5 })
			add("base:lm", func(int) float64 { return 0.5 })
			add("base:tm", func(int) float64 { return 0.4 })
			add("base:trlm β=0.5", func(int) float64 { return 0.45 })
		}
		for i, id := range ids {
			run.PerQuery = append(run.PerQuery,
				experiments.QueryMetric{Query: id, Metric: metricSplit, Value: float64(1 + i/5)},
				experiments.QueryMetric{Query: id, Metric: metricFold, Value: float64(i % 5)})
		}
		return &experiments.JobResult{Job: &experiments.Job{Method: experiments.MethodSpec{Label: label}, Point: map[string]string{"setting": "1"}}, Run: run}
	}
	return &experiments.Results{Quick: true, Jobs: []*experiments.JobResult{job(labelGroupNMF, 0.6, true), job(labelGNMFNC+" σ3=0", 0.7, false)}}
}

func TestJudges(t *testing.T) {
	r := handResults()
	for _, tc := range []struct {
		pairs       [][2]string
		significant bool
		want        experiments.Outcome
	}{
		{[][2]string{{"BM25+GNMFNC", "BM25"}, {"LM+GNMFNC", "LM"}}, true, experiments.Held},
		{[][2]string{{"BM25+GNMFNC", "BM25+GroupNMF"}}, true, experiments.Held},
		{[][2]string{{"BM25+GroupNMF", "BM25+GNMFNC"}}, false, experiments.NotHeld},
		{[][2]string{{"BM25+GNMFNC", "TM"}, {"LM+GNMFNC", "TRLM"}}, false, experiments.Held},
		// BM25 and LM are equal everywhere: not higher.
		{[][2]string{{"LM", "BM25"}}, false, experiments.NotHeld},
	} {
		for _, p := range protocols {
			if v := comparison(p, tc.pairs, tc.significant)(r); v.Outcome != tc.want {
				t.Errorf("%s %v: %v, want %v", p.key, tc.pairs, v, tc.want)
			}
		}
	}
	out, err := outcomes(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []protocol{protoArchiveOfficial, protoCandsOfficial} {
		if c := out[p.key].rows["BM25+GNMFNC"]; len(c.queries) != 5 || c.desc != "GNMFNC σ3=0 setting 1 γ=0.5" || c.configs != 2 {
			t.Errorf("%s BM25+GNMFNC: %+v", p.key, c)
		}
	}
	for key, want := range map[string]float64{protoArchiveFolds.key: 0.15, protoCandsFolds.key: 0.45} {
		if c := out[key].rows["TRLM"]; len(c.queries) != 10 || math.Abs(c.mean(0)-want) > 1e-14 {
			t.Errorf("%s TRLM: %+v, want MAP %v", key, c, want)
		}
	}
	v := evidence(protoArchiveOfficial, table2Rows)(r)
	if v.Outcome != experiments.Inconclusive || !strings.Contains(v.Detail, "BM25+GNMFNC (5 queries; best of 2 on dev") || !strings.Contains(v.Detail, "[paper 0.369]") {
		t.Errorf("evidence: %v", v)
	}
}

// TestFullArchive checks the archive of the paper's protocol by hand:
// copies of one text are one question (its first position), judged at the
// best level of any copy; the query's own text is neither ranked nor
// judged; a query left without a relevant question is an error.
func TestFullArchive(t *testing.T) {
	col := &datasets.Collection{
		Docs: []datasets.Document{
			{ID: "d0", Text: "A b"}, {ID: "d1", Text: "a \n B"}, {ID: "d2", Text: "C"}, {ID: "d3", Text: "Query one"}, {ID: "d4", Text: "D"},
		},
		Queries: []datasets.Query{{ID: "q1", Text: "query  ONE"}, {ID: "q2", Text: "x"}},
	}
	task := &retrieval.Task{
		DocIDs:   []string{"d0", "d1", "d2", "d3", "d4"},
		QueryIDs: []string{"q1", "q2"},
		Qrels: ir.Qrels{
			"q1": {"d1": 0, "d0": 2, "d3": 2, "d2": 0},
			"q2": {"d1": 1, "d4": 0},
		},
		Eval: ir.Options{Gains: map[int]float64{0: 0, 1: 1, 2: 2}},
	}
	d := &data{task: task}
	if err := d.fullArchive(col); err != nil {
		t.Fatal(err)
	}
	if d.distinct != 4 {
		t.Errorf("distinct = %d, want 4", d.distinct)
	}
	if !slices.Equal(d.archive[0], []int{0, 2, 4}) || !slices.Equal(d.archive[1], []int{0, 2, 3, 4}) {
		t.Errorf("archive = %v, want [[0 2 4] [0 2 3 4]]", d.archive)
	}
	want := ir.Qrels{"q1": {"d0": 2, "d2": 0}, "q2": {"d0": 1, "d4": 0}}
	for q, js := range want {
		if !maps.Equal(d.archiveQrels[q], js) {
			t.Errorf("qrels of %s = %v, want %v", q, d.archiveQrels[q], js)
		}
	}
	task.Qrels["q1"] = map[string]int{"d3": 2, "d2": 0}
	if err := (&data{task: task}).fullArchive(col); err == nil || !strings.Contains(err.Error(), "query q1") {
		t.Errorf("a query whose only relevant question is itself: %v", err)
	}
}

// TestSeededSetting: in a full run the claims' candidates are the
// configurations at SeededSetting with their seeds pooled per query (the
// one-seed setting 1 stays out of them), and each row's MAP interval is
// over its seeds.
func TestSeededSetting(t *testing.T) {
	r := handResults()
	r.Quick = false
	grid := r.Jobs[1] // GNMFNC at setting 1: left out
	var jobs []*experiments.JobResult
	jobs = append(jobs, r.Jobs[0]) // the baselines come from the first job
	r.Jobs[0].Job.Point = map[string]string{"setting": SeededSetting}
	// Two more seeds of GroupNMF at the seeded setting: combined MAP 0.5
	// and 0.7 around seed 0's 0.6 (plus the same noise).
	for i, combined := range []float64{0.5, 0.7} {
		h := handResults().Jobs[0]
		for k := range h.Run.PerQuery {
			q := &h.Run.PerQuery[k]
			if strings.Contains(q.Metric, "@0.5/map") {
				q.Value += combined - 0.6
			}
		}
		h.Job.Point = map[string]string{"setting": SeededSetting}
		h.Job.Replicate = i + 1
		jobs = append(jobs, h)
	}
	jobs = append(jobs, grid)
	r.Jobs = jobs
	out, err := computeOutcomes(r)
	if err != nil {
		t.Fatal(err)
	}
	c := out[protoCandsOfficial.key].rows["BM25+"+labelGroupNMF]
	if c == nil || c.configs != 2 || c.desc != labelGroupNMF+" setting 3 γ=0.5" || len(c.seedMAP) != 3 {
		t.Fatalf("BM25+GroupNMF: %+v", c)
	}
	// Test queries q5..q9, noise 0.01·(i mod 3): 0.02, 0, 0.01, 0.02, 0 →
	// mean 0.01; seeds 0.61, 0.51, 0.71; mean 0.61, s = 0.1.
	iv := c.mapInterval()
	half := 4.302652729911275 * 0.1 / math.Sqrt(3)
	if math.Abs(iv.Mean-0.61) > 1e-12 || math.Abs(iv.Hi-(0.61+half)) > 1e-8 || math.Abs(c.mean(0)-0.61) > 1e-12 {
		t.Errorf("interval %+v, want 0.61 ± %v", iv, half)
	}
	if out[protoCandsOfficial.key].rows["BM25+"+labelGNMFNC] != nil {
		t.Errorf("the one-seed setting entered the claims")
	}
	if c := out[protoCandsFolds.key].rows["BM25+"+labelGroupNMF]; len(c.seedMAP) != 3 || len(c.queries) != 10 {
		t.Errorf("folds: %+v", c)
	}
}
