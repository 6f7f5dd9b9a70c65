package rlsi2011

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/memo"
	"github.com/topicmf/topicmf/metrics/topics"
)

// The term models combined with topic matching (Eq. 5).
var termModels = []string{retrieval.BM25, retrieval.VSM}

// Thresholds of the retrieval claims, fixed before any run.
const (
	// PValue is the significance level of the paired t-tests (the paper's
	// p < 0.05).
	PValue = 0.05
	// FairSeed fixes the split of the queries into the two halves of the
	// fair protocol.
	FairSeed = 20110724
)

// retrievalText is the text pipeline of the retrieval collections: SMART
// stop list, tokens of ≥ 2 letters, numbers dropped, every term kept; the
// model corpus is weighted by weighting (tf-idf for RLSI and LSI, raw
// counts for PLSI and LDA, which model counts).
func retrievalText(weighting string) text.Options {
	return text.Bare(text.Options{StopList: "smart", Weighting: weighting})
}

// retrievalCorpus is the job's model corpus: its collection with the
// pipeline of its family's weighting.
func retrievalCorpus(j *experiments.Job) (experiments.CorpusSpec, error) {
	return experiments.CorpusSpec{Collection: j.Dataset, Text: retrievalText(modelWeighting(j.Method.Name))}, nil
}

// countFamilies are the families fitted on raw counts.
var countFamilies = map[string]bool{"plsi": true, "lda": true}

func modelWeighting(family string) string {
	if countFamilies[family] {
		return text.WeightTF
	}
	return text.WeightTFIDF
}

type preparedEntry struct {
	p    *retrieval.Prepared
	term map[string]*retrieval.Scores
	base map[string]*retrieval.Evaluation
}

var preparedCache memo.Map[*preparedEntry]

// prepared returns (once per process) the collection's retrieval task with
// the model weighting (its corpus is retrievalSpec's, from the runner's
// corpus cache), the term models' scores and their evaluations.
func prepared(dataset, weighting string) (*preparedEntry, error) {
	return preparedCache.Get(dataset+"/"+weighting, func() (*preparedEntry, error) {
		e := &preparedEntry{term: map[string]*retrieval.Scores{}, base: map[string]*retrieval.Evaluation{}}
		var err error
		if e.p, err = experiments.PrepareRetrieval(dataset, retrievalText(weighting)); err != nil {
			return nil, err
		}
		for _, tm := range termModels {
			s, err := e.p.Task.TermScores(tm, retrieval.TermOptions{})
			if err != nil {
				return nil, err
			}
			e.term[tm] = s
			if e.base[tm], err = e.p.Task.EvaluateScores(s, retrieval.CombineOptions{}); err != nil {
				return nil, err
			}
		}
		return e, nil
	})
}

func retrievalChecksums(j *experiments.Job) ([]store.Checksum, error) {
	o := retrievalText(modelWeighting(j.Method.Name))
	return []store.Checksum{experiments.DescribedChecksum("pipeline", "retrieval.Prepare", o.Canonical(), retrieval.CombineOptions{}.String())}, nil
}

// retrievalTask evaluates one configuration fitted on one collection
// (retrievalSpec): Eq. 5 for every α with every term model; every α's
// per-query values are stored, so that the protocols can choose among
// configurations later.
func retrievalTask(ctx context.Context, j *experiments.Job, f *experiments.Fit) (*experiments.Result, error) {
	e, err := prepared(j.Dataset, modelWeighting(j.Method.Name))
	if err != nil {
		return nil, err
	}
	if f.Corpus.Corpus != e.p.Corpus {
		return nil, fmt.Errorf("%s: the fitted corpus is not the retrieval task's", j.Label())
	}
	task := *e.p.Task
	model, status := f.Model, f.Status
	res := &experiments.Result{}
	res.Notes = append(res.Notes, task.Warnings...)
	res.Notes = append(res.Notes, e.p.Report.Warnings...)
	dv := retrieval.DocFoldIn
	if j.Method.Name == "rlsi" {
		dv = retrieval.DocTopicRows
	}
	topic, err := task.TopicScores(ctx, "topic", model, dv)
	if err != nil {
		return nil, err
	}
	for _, tm := range termModels {
		sw, err := task.SweepAlpha(e.term[tm], topic, nil, retrieval.CombineOptions{})
		if err != nil {
			return nil, err
		}
		bestA, bestMAP, err := sw.Best("map")
		if err != nil {
			return nil, err
		}
		res.AddMetric(tm+"_map", sw.Evals[0].Mean("map"))
		res.AddMetric(tm+"+topic_best_map", bestMAP)
		res.AddMetric(tm+"+topic_best_alpha", bestA)
		for i, a := range sw.Alphas {
			ev := sw.Evals[i]
			for m, name := range retrieval.Measures {
				for q, id := range ev.Queries {
					res.PerQuery = append(res.PerQuery, experiments.QueryMetric{Query: id, Metric: experiments.SweepMetric(tm, a, name), Value: ev.Values[m][q]})
				}
			}
		}
	}
	if e := sweepAlphaOne(res); !math.IsNaN(e) {
		res.AddMetric("topic_map", e)
	}
	res.AddMetric("avgcomp", topics.AvgComp(model.TermTopics()))
	res.AddMetric("iterations", float64(status.Iterations))
	return res, nil
}

// sweepAlphaOne is the mean MAP of the topic model alone (α = 1, the same
// with either term model), from the rows just computed.
func sweepAlphaOne(res *experiments.Result) float64 {
	var s float64
	n := 0
	for _, q := range res.PerQuery {
		if q.Metric == experiments.SweepMetric(termModels[0], 1, "map") {
			s += q.Value
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// ---- the render step: protocols over the stored jobs ----

// methodOutcome is one method's best setting and fair result on one
// collection, with one term model.
type methodOutcome struct {
	Method   string
	Best     retrieval.Choice
	BestEval *retrieval.Evaluation
	BestTest []retrieval.Test
	Fair     *retrieval.FairResult
	Configs  int
}

// collectionOutcome is the protocols' outcome on one collection.
type collectionOutcome struct {
	Dataset string
	// Term is the term model combined in the claims: the one with the
	// higher MAP alone (the paper's rule, §6.2).
	Term     string
	Baseline map[string]*retrieval.Evaluation // by term model
	Methods  map[string]map[string]*methodOutcome
	Order    []string // method display names in job order
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// outcomes runs the best-setting and fair protocols for every collection,
// method and term model of the results (computed once per Results). The
// candidates of a method are all its configurations with α ∈ {0.1, …, 1}
// (the paper's range; α = 0 is the baseline itself).
func outcomes(r *experiments.Results) ([]*collectionOutcome, error) {
	return experiments.Derived(r, "rlsi2011 outcomes", computeOutcomes)
}

func computeOutcomes(r *experiments.Results) ([]*collectionOutcome, error) {
	var out []*collectionOutcome
	byDS := map[string]*collectionOutcome{}
	cands := map[string]map[string]map[string][]retrieval.Candidate{} // dataset → term → method
	for _, jr := range r.Jobs {
		ds, meth := jr.Job.Dataset, jr.Job.Method.DisplayName()
		co := byDS[ds]
		if co == nil {
			co = &collectionOutcome{Dataset: ds, Baseline: map[string]*retrieval.Evaluation{}, Methods: map[string]map[string]*methodOutcome{}}
			byDS[ds] = co
			out = append(out, co)
			cands[ds] = map[string]map[string][]retrieval.Candidate{}
		}
		if indexOf(co.Order, meth) < 0 {
			co.Order = append(co.Order, meth)
		}
		for _, tm := range termModels {
			alphas, evals, err := experiments.SweepEvaluations(jr.Run, tm)
			if err != nil {
				return nil, err
			}
			for _, a := range alphas {
				evals[a].Name = fmt.Sprintf("%s+topic α=%g", tm, a)
			}
			if len(alphas) == 0 || alphas[0] != 0 {
				return nil, fmt.Errorf("%s: no α = 0 evaluation of %s", jr.Job.Label(), tm)
			}
			if co.Baseline[tm] == nil {
				b := *evals[0]
				b.Name = tm
				co.Baseline[tm] = &b
			}
			sw := &retrieval.Sweep{Term: tm, Topic: meth}
			for _, a := range alphas[1:] {
				sw.Alphas = append(sw.Alphas, a)
				sw.Evals = append(sw.Evals, evals[a])
			}
			if cands[ds][tm] == nil {
				cands[ds][tm] = map[string][]retrieval.Candidate{}
			}
			cands[ds][tm][meth] = append(cands[ds][tm][meth], retrieval.Candidate{Label: jr.Job.PointLabel(), Sweep: sw})
		}
	}
	for _, co := range out {
		co.Term = termModels[0]
		if co.Baseline[retrieval.VSM].Mean("map") > co.Baseline[retrieval.BM25].Mean("map") {
			co.Term = retrieval.VSM
		}
		for _, tm := range termModels {
			co.Methods[tm] = map[string]*methodOutcome{}
			for _, meth := range co.Order {
				cs := cands[co.Dataset][tm][meth]
				mo := &methodOutcome{Method: meth, Configs: len(cs)}
				var err error
				if mo.Best, mo.BestEval, mo.BestTest, err = retrieval.BestSetting(co.Baseline[tm], cs, "map"); err != nil {
					return nil, fmt.Errorf("%s, %s+%s: %w", co.Dataset, tm, meth, err)
				}
				if len(co.Baseline[tm].Queries) >= 2 {
					if mo.Fair, err = retrieval.CrossFit(co.Baseline[tm], cs, retrieval.FairOptions{Seed: FairSeed}); err != nil {
						return nil, fmt.Errorf("%s, %s+%s: %w", co.Dataset, tm, meth, err)
					}
				}
				co.Methods[tm][meth] = mo
			}
		}
	}
	return out, nil
}

// reportedMeasures are the measures shown in the evidence: MAP and
// NDCG@1/3/5/10 (§6.1).
var reportedMeasures = []string{"map", "ndcg_cut_1", "ndcg_cut_3", "ndcg_cut_5", "ndcg_cut_10"}

func testFor(tests []retrieval.Test, measure string) (retrieval.Test, bool) {
	for _, t := range tests {
		if t.Measure == measure {
			return t, true
		}
	}
	return retrieval.Test{}, false
}

// formatTests is "MAP 0.412 (+0.021, p=0.003*), NDCG@1 ...": mean, mean
// difference from the baseline, p-value, * when p < PValue.
func formatTests(tests []retrieval.Test) string {
	var parts []string
	for _, m := range reportedMeasures {
		t, ok := testFor(tests, m)
		if !ok {
			continue
		}
		star := ""
		if t.Significant(PValue) {
			star = "*"
		}
		parts = append(parts, fmt.Sprintf("%s %.4f (%+.4f, p=%.3g%s)", retrieval.MeasureNames[m], t.Mean, t.MeanDiff, t.P, star))
	}
	return strings.Join(parts, ", ")
}

func formatBaseline(b *retrieval.Evaluation) string {
	var parts []string
	for _, m := range reportedMeasures {
		parts = append(parts, fmt.Sprintf("%s %.4f", retrieval.MeasureNames[m], b.Mean(m)))
	}
	return strings.Join(parts, ", ")
}

// judgeEvidence is not a claim of the paper but the protocols' table: for
// every collection and term model, the baseline, each method's best
// setting (configuration, α, measures with t-tests) and fair result.
func judgeEvidence(protocol string) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := outcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocols: " + err.Error())
		}
		var b strings.Builder
		for _, co := range out {
			for _, tm := range termModels {
				fmt.Fprintf(&b, "[%s, %s%s: %s (%d queries)] ", co.Dataset, strings.ToUpper(tm), map[bool]string{true: " (the better term model)", false: ""}[tm == co.Term],
					formatBaseline(co.Baseline[tm]), len(co.Baseline[tm].Queries))
				for _, meth := range co.Order {
					mo := co.Methods[tm][meth]
					switch protocol {
					case retrieval.ProtocolBest:
						fmt.Fprintf(&b, "%s+%s best of %d configs × 10 α (%s, α=%g): %s. ", strings.ToUpper(tm), meth, mo.Configs, mo.Best.Candidate, mo.Best.Alpha, formatTests(mo.BestTest))
					case retrieval.ProtocolFair:
						if mo.Fair == nil {
							fmt.Fprintf(&b, "%s+%s: too few queries for two halves. ", strings.ToUpper(tm), meth)
							continue
						}
						c := mo.Fair.Choices
						fmt.Fprintf(&b, "%s+%s fair (half 1 → %s α=%g; half 2 → %s α=%g): %s. ", strings.ToUpper(tm), meth,
							c[0].Candidate, c[0].Alpha, c[1].Candidate, c[1].Alpha, formatTests(mo.Fair.Tests))
					}
				}
			}
		}
		return experiments.Undecided(strings.TrimSpace(b.String()))
	}
}

// mapTest returns the MAP test of a method under a protocol on the
// collection's chosen term model.
func mapTest(co *collectionOutcome, meth, protocol string) (retrieval.Test, bool) {
	mo := co.Methods[co.Term][meth]
	if mo == nil {
		return retrieval.Test{}, false
	}
	switch protocol {
	case retrieval.ProtocolBest:
		return testFor(mo.BestTest, "map")
	case retrieval.ProtocolFair:
		if mo.Fair == nil {
			return retrieval.Test{}, false
		}
		return testFor(mo.Fair.Tests, "map")
	}
	return retrieval.Test{}, false
}

// How many improvements judgeImproves needs to be significant.
const (
	sigNone     = iota // none: every pair improves
	sigMajority        // every pair improves, more than half significantly
	sigAll             // every pair improves significantly
)

// judgeImproves: every listed method, combined with the collection's
// better term model, has a higher MAP than the term model alone on every
// collection, with the significance that need asks for.
func judgeImproves(methods []string, protocol string, need int) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := outcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocols: " + err.Error())
		}
		var parts []string
		n, up, sig := 0, 0, 0
		for _, co := range out {
			for _, meth := range methods {
				t, ok := mapTest(co, meth, protocol)
				if !ok {
					continue
				}
				n++
				if t.MeanDiff > 0 {
					up++
					if t.Significant(PValue) {
						sig++
					}
				}
				parts = append(parts, fmt.Sprintf("%s %s+%s MAP %+.4f (p=%.3g)", co.Dataset, strings.ToUpper(co.Term), meth, t.MeanDiff, t.P))
			}
		}
		threshold := "all improve"
		switch need {
		case sigMajority:
			threshold = fmt.Sprintf("all improve and more than half (> %d) significantly", n/2)
		case sigAll:
			threshold = "all improve significantly"
		}
		detail := fmt.Sprintf("%s protocol: %d of %d (collection, method) pairs improve MAP, %d significantly (p < %g); threshold: %s: %s",
			protocol, up, n, sig, PValue, threshold, strings.Join(parts, "; "))
		held := up == n
		switch need {
		case sigMajority:
			held = held && 2*sig > n
		case sigAll:
			held = held && sig == n
		}
		if n == 0 {
			return experiments.Undecided(detail)
		}
		return experiments.Judged(held, detail)
	}
}

// judgeRank: under the best setting with the better term model, method
// has the highest (best) or lowest (!best) MAP among methods on a strict
// majority of the collections.
func judgeRank(method string, methods []string, best bool) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := outcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocols: " + err.Error())
		}
		var parts []string
		wins, n := 0, 0
		for _, co := range out {
			var ranked []string
			vals := map[string]float64{}
			for _, meth := range methods {
				if t, ok := mapTest(co, meth, retrieval.ProtocolBest); ok {
					ranked = append(ranked, meth)
					vals[meth] = t.Mean
				}
			}
			if len(ranked) < 2 || indexOf(ranked, method) < 0 {
				continue
			}
			sort.SliceStable(ranked, func(a, b int) bool { return vals[ranked[a]] > vals[ranked[b]] })
			n++
			top := ranked[0]
			if !best {
				top = ranked[len(ranked)-1]
			}
			if top == method {
				wins++
			}
			var cells []string
			for _, m := range ranked {
				cells = append(cells, fmt.Sprintf("%s %.4f", m, vals[m]))
			}
			parts = append(parts, co.Dataset+" ("+strings.ToUpper(co.Term)+"): "+strings.Join(cells, " > "))
		}
		what := "highest"
		if !best {
			what = "lowest"
		}
		detail := fmt.Sprintf("best-setting MAP: %s is %s on %d of %d collections (threshold for \"most\": more than half, > %d of %d); %s", method, what, wins, n, n/2, n, strings.Join(parts, "; "))
		if n == 0 {
			return experiments.Undecided(detail)
		}
		return experiments.Judged(2*wins > n, detail)
	}
}
