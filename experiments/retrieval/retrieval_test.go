package retrieval

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/metrics/ir"
	"github.com/topicmf/topicmf/metrics/stats"
	"gonum.org/v1/gonum/mat"
)

// groupModel is a hand-built topic model: topic k is a set of synonyms,
// U[m][k] = 1 when term m belongs to topic k, and a text's topic vector is
// x·U (its weight in each synonym group). It implements engine.Model.
type groupModel struct {
	u, v *mat.Dense
}

func (g *groupModel) TermTopics() *mat.Dense { return g.u }
func (g *groupModel) DocTopics() *mat.Dense  { return g.v }
func (g *groupModel) FoldIn(_ context.Context, x *sparse.CSR) (*mat.Dense, error) {
	m, k := g.u.Dims()
	if x.Cols != m {
		return nil, fmt.Errorf("groupModel: %d columns, want %d", x.Cols, m)
	}
	out := mat.NewDense(max(x.Rows, 1), k, nil)
	for i := 0; i < x.Rows; i++ {
		idx, val := x.Row(i)
		for q, t := range idx {
			for j := 0; j < k; j++ {
				out.Set(i, j, out.At(i, j)+val[q]*g.u.At(int(t), j))
			}
		}
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	return out, nil
}

// synonymCollection: two topics, aviation {airplane, aircraft, jet} and road
// {car, automobile, vehicle}; "engine" belongs to neither. Query a asks for
// "airplane" but its relevant documents say "aircraft" and "jet"; query r
// asks for "automobile" and one relevant document says only "vehicle car".
func synonymCollection() *datasets.Collection {
	return &datasets.Collection{
		Name: "synonyms",
		Docs: []datasets.Document{
			{ID: "d1", Text: "aircraft jet"},
			{ID: "d2", Text: "aircraft aircraft jet engine"},
			{ID: "d3", Text: "airplane car car engine"},
			{ID: "d4", Text: "car automobile engine"},
			{ID: "d5", Text: "vehicle car"},
			{ID: "d6", Text: "airplane automobile vehicle vehicle car"},
		},
		Queries: []datasets.Query{{ID: "a", Text: "airplane"}, {ID: "r", Text: "automobile"}, {ID: "z", Text: "engine"}},
		Qrels: []datasets.Judgment{
			{QueryID: "a", DocID: "d1", Level: 1}, {QueryID: "a", DocID: "d2", Level: 1},
			{QueryID: "a", DocID: "d3", Level: 0},
			{QueryID: "r", DocID: "d4", Level: 1}, {QueryID: "r", DocID: "d5", Level: 1},
			{QueryID: "z", DocID: "d2", Level: 0}, // no relevant document: left out
		},
	}
}

func synonymTask(t *testing.T) (*Prepared, *groupModel) {
	t.Helper()
	p, err := Prepare(synonymCollection(), text.Bare(text.Options{Weighting: text.WeightTF}))
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]int{"airplane": 0, "aircraft": 0, "jet": 0, "car": 1, "automobile": 1, "vehicle": 1}
	u := mat.NewDense(len(p.Corpus.Vocab), 2, nil)
	for m, term := range p.Corpus.Vocab {
		if k, ok := groups[term]; ok {
			u.Set(m, k, 1)
		}
	}
	g := &groupModel{u: u}
	v, err := g.FoldIn(context.Background(), p.Corpus.DT)
	if err != nil {
		t.Fatal(err)
	}
	g.v = v
	return p, g
}

func TestPrepare(t *testing.T) {
	p, _ := synonymTask(t)
	tk := p.Task
	if !slices.Equal(tk.QueryIDs, []string{"a", "r"}) {
		t.Errorf("queries %v, want [a r] (z has no relevant document)", tk.QueryIDs)
	}
	if len(tk.Warnings) != 1 || !strings.Contains(tk.Warnings[0], "[z]") {
		t.Errorf("warnings %q, want one naming z", tk.Warnings)
	}
	want := []string{"aircraft", "airplane", "automobile", "car", "engine", "jet", "vehicle"}
	if !slices.Equal(p.Corpus.Vocab, want) {
		t.Fatalf("vocabulary %v, want %v", p.Corpus.Vocab, want)
	}
	// Counts: d6 has vehicle×2; query r is automobile×1.
	if got := tk.Index.Postings; true {
		docs, tfs := got(6)
		if !slices.Equal(docs, []int32{4, 5}) || !slices.Equal(tfs, []float64{1, 2}) {
			t.Errorf("postings of vehicle: %v %v, want [4 5] [1 2]", docs, tfs)
		}
	}
	if tk.QueryCounts.At(1, 2) != 1 || tk.QueryCounts.NNZ() != 2 {
		t.Errorf("query counts %+v", tk.QueryCounts)
	}
}

// TestTopicScoresByHand checks Eq. 4 on the synonym collection: query a
// folds in to (1, 0); d1 = (2, 0), d3 = (1, 2), d4 = (0, 2), d6 = (1, 4).
func TestTopicScoresByHand(t *testing.T) {
	p, g := synonymTask(t)
	for _, dv := range []DocVectors{DocTopicRows, DocFoldIn} {
		s, err := p.Task.TopicScores(context.Background(), "groups", g, dv)
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{1, 1, 1 / math.Sqrt(5), 0, 0, 1 / math.Sqrt(17)}
		for d, w := range want {
			if math.Abs(s.Values[0][d]-w) > 1e-15 {
				t.Errorf("%s: s_topic(a, d%d) = %v, want %v", dv, d+1, s.Values[0][d], w)
			}
		}
	}
}

func TestTopicHelpsSynonymQueries(t *testing.T) {
	p, g := synonymTask(t)
	tk := p.Task
	term, err := tk.TermScores(BM25, TermOptions{})
	if err != nil {
		t.Fatal(err)
	}
	topic, err := tk.TopicScores(context.Background(), "groups", g, DocTopicRows)
	if err != nil {
		t.Fatal(err)
	}
	// BM25 gives d1, d2 nothing for "airplane".
	if term.Values[0][0] != 0 || term.Values[0][1] != 0 || term.Values[0][2] <= 0 {
		t.Fatalf("BM25 for query a: %v", term.Values[0])
	}
	sw, err := tk.SweepAlpha(term, topic, nil, CombineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	base := sw.Evals[0].Mean("map")
	// By hand: BM25 ranks a: d6, d3 (score > 0), then d5, d4, d2, d1 by id
	// descending: AP = (1/5 + 2/6)/2 = 4/15. r: d4 (tf 1, |d| 3) above d6
	// (tf 1, |d| 5), then d5, d3, d2, d1 by id: AP = (1 + 2/3)/2 = 5/6.
	if want := (4.0/15 + 5.0/6) / 2; math.Abs(base-want) > 1e-12 {
		t.Errorf("BM25 MAP = %v, want %v", base, want)
	}
	alpha, best, err := sw.Best("map")
	if err != nil {
		t.Fatal(err)
	}
	if !(best > base) || alpha == 0 {
		t.Errorf("best combination MAP %v at α=%v does not beat BM25's %v", best, alpha, base)
	}
	if m := evalAt(sw, 0.5).Mean("map"); !(m > base) {
		t.Errorf("α = 0.5 MAP %v, BM25 %v: the topic score should help", m, base)
	}
	// The topic model alone puts d1, d2 first for query a: AP 1.
	if ap, _ := valueOf(evalAt(sw, 1), "map", "a"); ap != 1 {
		t.Errorf("topic-only AP(a) = %v, want 1", ap)
	}
}

func valueOf(e *Evaluation, measure, query string) (float64, bool) {
	q, ok := slices.BinarySearch(e.Queries, query)
	if !ok {
		return 0, false
	}
	return e.Values[slices.Index(Measures, measure)][q], true
}

// TestAlphaEnds checks that α = 0 is exactly the term model's run and α = 1
// exactly the topic model's, under every normalization and candidate rule.
func TestAlphaEnds(t *testing.T) {
	p, g := synonymTask(t)
	tk := p.Task
	topic, _ := tk.TopicScores(context.Background(), "groups", g, DocTopicRows)
	for _, name := range []string{BM25, VSM, LM} {
		term, err := tk.TermScores(name, TermOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []CombineOptions{{}, {Normalization: NormNone}, {RerankDepth: 3}, {RunDepth: 2}, {RunDepth: -1}} {
			run0, err := combine(tk, term, topic, 0, o)
			if err != nil {
				t.Fatal(err)
			}
			want0, _ := tk.RunOf(term, o)
			if !runsEqual(run0, want0) {
				t.Errorf("%s %s: α = 0 run %v differs from the term run %v", name, o, run0, want0)
			}
			run1, _ := combine(tk, term, topic, 1, o)
			// The topic run over the same candidates: with RerankDepth
			// those are the term model's top k.
			want1, _ := tk.RunOf(topic, CombineOptions{RunDepth: o.RunDepth})
			if o.RerankDepth > 0 {
				want1 = restrictRerank(tk, term, topic, o)
			}
			if !runsEqual(run1, want1) {
				t.Errorf("%s %s: α = 1 run %v differs from the topic run %v", name, o, run1, want1)
			}
			sw, _ := tk.SweepAlpha(term, topic, []float64{0, 1}, o)
			e0, _ := tk.Evaluate("t", want0)
			e1, _ := tk.Evaluate("t", want1)
			if !slices.EqualFunc(sw.Evals[0].Values, e0.Values, slices.Equal) || !slices.EqualFunc(sw.Evals[1].Values, e1.Values, slices.Equal) {
				t.Errorf("%s %s: sweep ends differ from the single models' evaluations", name, o)
			}
		}
	}
}

// restrictRerank ranks the term model's top RerankDepth documents by the
// topic score, computed independently of the package's code path.
func restrictRerank(tk *Task, term, topic *Scores, o CombineOptions) ir.Run {
	run := ir.Run{}
	for q, id := range tk.QueryIDs {
		var all []ir.ScoredDoc
		for d, s := range term.Values[q] {
			all = append(all, ir.ScoredDoc{DocID: tk.DocIDs[d], Score: s})
		}
		top := ir.Rank(all)[:o.RerankDepth]
		var docs []ir.ScoredDoc
		for _, sd := range top {
			d := slices.Index(tk.DocIDs, sd.DocID)
			docs = append(docs, ir.ScoredDoc{DocID: sd.DocID, Score: topic.Values[q][d]})
		}
		run[id] = ir.Rank(docs)[:min(o.runDepth(len(tk.DocIDs)), len(docs))]
	}
	return run
}

func runsEqual(a, b ir.Run) bool {
	if len(a) != len(b) {
		return false
	}
	for q, x := range a {
		if !slices.Equal(x, b[q]) {
			return false
		}
	}
	return true
}

func TestNormalization(t *testing.T) {
	x := []float64{3, -1, 5, 7}
	got := normalized(x, []int{0, 1, 2}, NormMinMax)
	if !slices.Equal(got, []float64{4.0 / 6, 0, 1, 0}) {
		t.Errorf("min-max over the first three: %v", got)
	}
	if got := normalized(x, []int{0, 3}, NormNone); !slices.Equal(got, []float64{3, 0, 0, 7}) {
		t.Errorf("none: %v", got)
	}
	if got := normalized([]float64{2, 2}, []int{0, 1}, NormMinMax); !slices.Equal(got, []float64{0, 0}) {
		t.Errorf("constant scores: %v, want zeros", got)
	}
	// Eq. 5 with min-max: α = 0.25 on term (0, 10) and topic (1, 0).
	s := combined(0.25, []float64{0, 10}, []float64{1, 0}, []float64{0, 1}, []float64{1, 0}, []int{0, 1})
	if !slices.Equal(s, []float64{0.25, 0.75}) {
		t.Errorf("combined: %v, want [0.25 0.75]", s)
	}
}

func TestRunDepthAndTies(t *testing.T) {
	tk := &Task{Name: "ties", DocIDs: []string{"a", "c", "b"}, QueryIDs: []string{"q"},
		Qrels: ir.Qrels{"q": {"a": 1}}, Eval: EvalOptions(nil)}
	s := &Scores{Name: "s", Values: [][]float64{{1, 1, 2}}}
	run, err := tk.RunOf(s, CombineOptions{RunDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	// b (score 2), then the tie a/c broken by id descending: c.
	if got := run["q"]; len(got) != 2 || got[0].DocID != "b" || got[1].DocID != "c" {
		t.Errorf("run %v, want b then c", got)
	}
}

func TestBadInput(t *testing.T) {
	p, g := synonymTask(t)
	tk := p.Task
	term, _ := tk.TermScores(BM25, TermOptions{})
	topic, _ := tk.TopicScores(context.Background(), "groups", g, DocTopicRows)
	if _, err := tk.SweepAlpha(term, topic, []float64{0.5, 1.5}, CombineOptions{}); err == nil || !strings.Contains(err.Error(), "1.5") {
		t.Errorf("α = 1.5: %v", err)
	}
	bad := &Scores{Name: "bad", Values: [][]float64{{0, 0, 0, 0, 0, math.NaN()}, make([]float64, 6)}}
	if _, err := tk.SweepAlpha(term, bad, nil, CombineOptions{}); err == nil || !strings.Contains(err.Error(), "d6") {
		t.Errorf("NaN score: %v", err)
	}
	short := &Scores{Name: "short", Values: [][]float64{{0}}}
	if _, err := tk.RunOf(short, CombineOptions{}); err == nil {
		t.Error("scores of the wrong shape accepted")
	}
	if _, err := tk.TermScores("tfidf", TermOptions{}); err == nil || !strings.Contains(err.Error(), "bm25") {
		t.Errorf("unknown term model: %v", err)
	}
	if _, err := tk.SweepAlpha(term, topic, nil, CombineOptions{RerankDepth: -1}); err == nil {
		t.Error("negative RerankDepth accepted")
	}
	sw, _ := tk.SweepAlpha(term, topic, nil, CombineOptions{})
	if _, _, err := sw.Best("mrr"); err == nil {
		t.Error("unknown measure accepted")
	}
	if _, err := Prepare(&datasets.Collection{Name: "empty", Docs: []datasets.Document{{ID: "1", Text: "x y"}}}, text.Bare(text.Options{})); err == nil {
		t.Error("collection without queries accepted")
	}
	wrongK := &groupModel{u: g.u, v: mat.NewDense(6, 3, nil)}
	if _, err := tk.TopicScores(context.Background(), "k", wrongK, DocTopicRows); err == nil {
		t.Error("document vectors with the wrong number of topics accepted")
	}
	dup := *tk
	dup.DocIDs = []string{"d1", "d1", "d3", "d4", "d5", "d6"}
	if err := dup.Validate(); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate document id: %v", err)
	}
}

func TestCompareMatchesStats(t *testing.T) {
	a := &Evaluation{Name: "a", Queries: []string{"1", "2", "3"}, Values: make([][]float64, len(Measures))}
	b := &Evaluation{Name: "b", Queries: []string{"1", "2", "3"}, Values: make([][]float64, len(Measures))}
	for m := range Measures {
		a.Values[m] = []float64{0.5, 0.7, 0.9 - 0.1*float64(m)}
		b.Values[m] = []float64{0.4, 0.5, 0.6}
	}
	tests, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	for m := range Measures {
		want, _ := stats.PairedTTest(a.Values[m], b.Values[m])
		if tests[m].P != want.P || tests[m].T != want.T || tests[m].Measure != Measures[m] {
			t.Errorf("%s: %+v, want %+v", Measures[m], tests[m], want)
		}
	}
	if rows := summaryRows(a, ProtocolSweep, "x", "", 0.1, b, tests); len(rows) != len(Measures) || rows[0].Baseline != "b" || rows[0].P != tests[0].P {
		t.Errorf("summary rows %+v", rows)
	}
	if q := a.QueryRows(ProtocolSweep, "x", "", 0.1); len(q) != 3*len(Measures) || q[0].Query != "1" || q[0].Measure != "map" {
		t.Errorf("query rows %+v", q)
	}
	c := &Evaluation{Name: "c", Queries: []string{"1", "2"}, Values: a.Values}
	if _, err := Compare(c, b); err == nil {
		t.Error("evaluations over different queries compared")
	}
}

// combine is the run of Eq. 5 for one α (the sweep of one α, keeping its
// run).
func combine(t *Task, term, topic *Scores, alpha float64, o CombineOptions) (ir.Run, error) {
	sw, err := t.sweep(term, topic, []float64{alpha}, o, true)
	if err != nil {
		return nil, err
	}
	return sw.runs[0], nil
}

// evalAt is the sweep's evaluation at α (exact match), or nil.
func evalAt(s *Sweep, alpha float64) *Evaluation {
	if i := slices.Index(s.Alphas, alpha); i >= 0 && i < len(s.Evals) {
		return s.Evals[i]
	}
	return nil
}

// TestMix: Eq. 5 over one query's scores, by hand.
func TestMix(t *testing.T) {
	term, topic := []float64{1, 3, 2}, []float64{0.5, 0.1, 0.3}
	// term → (0, 1, 0.5), topic → (1, 0, 0.5); α = 0.25 gives
	// 0.25·topic + 0.75·term = (0.25, 0.75, 0.5).
	got := Mix(0.25, term, topic)
	for i, w := range []float64{0.25, 0.75, 0.5} {
		if math.Abs(got[i]-w) > 1e-15 {
			t.Errorf("α=0.25: %v, want (0.25, 0.75, 0.5)", got)
			break
		}
	}
	if !slices.Equal(Mix(0, term, topic), term) || !slices.Equal(Mix(1, term, topic), topic) {
		t.Error("α = 0 and 1 must be the raw single scores")
	}
	// Constant scores normalize to zeros; size 0 gives no scores.
	if got := Mix(0.5, []float64{2, 2}, []float64{7, 7}); !slices.Equal(got, []float64{0, 0}) {
		t.Errorf("constant scores: %v, want zeros", got)
	}
	if got := Mix(0.5, nil, nil); len(got) != 0 {
		t.Errorf("no candidates: %v", got)
	}
}

// Judged lists each query's judged documents by position, ascending, and
// names a judged document that is not among the documents.
func TestJudged(t *testing.T) {
	task := &Task{Name: "toy", DocIDs: []string{"a", "b", "c"}, QueryIDs: []string{"q1", "q2"},
		Qrels: ir.Qrels{"q1": {"c": 1, "a": 0}, "q2": {"b": 2}}}
	got, err := task.Judged()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !slices.Equal(got[0], []int{0, 2}) || !slices.Equal(got[1], []int{1}) {
		t.Errorf("Judged = %v, want [[0 2] [1]]", got)
	}
	task.Qrels["q2"]["z"] = 1
	if _, err := task.Judged(); err == nil || !strings.Contains(err.Error(), "query q2: judged document z") {
		t.Errorf("unknown document: %v", err)
	}
}
