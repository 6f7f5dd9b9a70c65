package rlsi2011

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/memo"
	"github.com/topicmf/topicmf/metrics/stats"
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
	Alphas   int // α values per configuration among the candidates

	// The seeds at the best setting (the collection's better term model
	// only): Pooled is the per-query mean over the Seeds fits, PooledTest
	// its paired t-tests against the term model alone, MAP the mean MAP
	// over seeds with its t interval. Mismatch is set when the seeds were
	// run at another configuration than the grid chooses.
	Seeds      int
	Pooled     *retrieval.Evaluation
	PooledTest []retrieval.Test
	MAP        stats.Interval
	Mismatch   string
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
	seedRuns := map[string][]*experiments.StoredRun{}                 // dataset/method/point → every replicate's run
	for _, jr := range r.Jobs {
		ds, meth := jr.Job.Dataset, jr.Job.Method.DisplayName()
		key := ds + "\x00" + meth + "\x00" + jr.Job.PointLabel()
		seedRuns[key] = append(seedRuns[key], jr.Run)
		if jr.Job.Replicate != 0 {
			continue // the grid's candidates are the replicate-0 fits
		}
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
				mo := &methodOutcome{Method: meth, Configs: len(cs), Alphas: len(cs[0].Sweep.Alphas)}
				var err error
				if mo.Best, mo.BestEval, mo.BestTest, err = retrieval.BestSetting(co.Baseline[tm], cs, "map"); err != nil {
					return nil, fmt.Errorf("%s, %s+%s: %w", co.Dataset, tm, meth, err)
				}
				if tm == co.Term {
					mo.Mismatch = selectionMismatch(r, co.Dataset, meth, mo.Best.Candidate)
					if err := mo.poolSeeds(seedRuns[co.Dataset+"\x00"+meth+"\x00"+mo.Best.Candidate], co.Baseline[tm], tm); err != nil {
						return nil, fmt.Errorf("%s, %s+%s: %w", co.Dataset, tm, meth, err)
					}
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

// poolSeeds evaluates every seed's run at the best setting's α with term
// model tm, pools them per query and tests the pool against the baseline.
func (mo *methodOutcome) poolSeeds(runs []*experiments.StoredRun, baseline *retrieval.Evaluation, tm string) error {
	var evals []*retrieval.Evaluation
	for _, run := range runs {
		_, ev, err := experiments.SweepEvaluations(run, tm)
		if err != nil {
			return err
		}
		e := ev[mo.Best.Alpha]
		if e == nil {
			return fmt.Errorf("%s: no evaluation at α = %g", run.Dir, mo.Best.Alpha)
		}
		evals = append(evals, e)
	}
	var err error
	mo.Seeds = len(evals)
	if mo.Pooled, err = retrieval.PoolSeeds(fmt.Sprintf("%s+%s α=%g, %d seeds", tm, mo.Method, mo.Best.Alpha, len(evals)), evals); err != nil {
		return err
	}
	if mo.PooledTest, err = retrieval.Compare(mo.Pooled, baseline); err != nil {
		return err
	}
	mo.MAP, err = retrieval.SeedInterval(evals, "map", Level)
	return err
}

// formatSeeds is "MAP 0.3276 [0.3251, 0.3301] over 5 seeds (+0.0310, p=1.5e-08)".
func formatSeeds(mo *methodOutcome) string {
	t, _ := testFor(mo.PooledTest, "map")
	return fmt.Sprintf("MAP %s over %d seeds (%+.4f, p=%.3g)", mo.MAP.Format(4), mo.Seeds, t.MeanDiff, t.P)
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
						fmt.Fprintf(&b, "%s+%s best of %d configs × %d α (%s, α=%g), seed 0: %s", strings.ToUpper(tm), meth, mo.Configs, mo.Alphas, mo.Best.Candidate, mo.Best.Alpha, formatTests(mo.BestTest))
						if mo.Pooled != nil {
							fmt.Fprintf(&b, "; at this setting, %s, per-query mean over the seeds: %s", formatSeeds(mo), formatTests(mo.PooledTest))
						}
						if mo.Mismatch != "" {
							fmt.Fprintf(&b, " [%s]", mo.Mismatch)
						}
						b.WriteString(". ")
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
// collection's chosen term model: for the best setting the test of the
// per-query mean over the seeds (seed 0 alone when the seeds are missing),
// for the fair protocol seed 0's.
func mapTest(co *collectionOutcome, meth, protocol string) (retrieval.Test, *methodOutcome, bool) {
	mo := co.Methods[co.Term][meth]
	if mo == nil {
		return retrieval.Test{}, nil, false
	}
	switch protocol {
	case retrieval.ProtocolBest:
		if mo.Pooled != nil {
			t, ok := testFor(mo.PooledTest, "map")
			return t, mo, ok
		}
		t, ok := testFor(mo.BestTest, "map")
		return t, mo, ok
	case retrieval.ProtocolFair:
		if mo.Fair == nil {
			return retrieval.Test{}, nil, false
		}
		t, ok := testFor(mo.Fair.Tests, "map")
		return t, mo, ok
	}
	return retrieval.Test{}, nil, false
}

// mismatches lists the collections and methods whose seeds were run at
// another configuration than the grid chooses.
func mismatches(out []*collectionOutcome, methods []string) []string {
	var ms []string
	for _, co := range out {
		for _, meth := range methods {
			if mo := co.Methods[co.Term][meth]; mo != nil && mo.Mismatch != "" {
				ms = append(ms, mo.Mismatch)
			}
		}
	}
	return ms
}

// How many improvements judgeImproves needs to be significant.
const (
	sigNone     = iota // none: every pair improves
	sigMajority        // every pair improves, more than half significantly
	sigAll             // every pair improves significantly
)

// judgeImproves: every listed method, combined with the collection's
// better term model, has a higher MAP than the term model alone on every
// collection, with the significance that need asks for. Under the best
// setting the tests are over the per-query means of the seeds, and their
// p-values are adjusted by Holm's procedure over the family of every
// configuration × α each best setting was chosen from (the untested ones
// counted as p = 1); under the fair protocol (seed 0), over the pairs.
func judgeImproves(methods []string, protocol string, need int) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := outcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocols: " + err.Error())
		}
		type pair struct {
			label string
			t     retrieval.Test
			seeds int
		}
		var pairs []pair
		var ps []float64
		family := 0
		for _, co := range out {
			for _, meth := range methods {
				t, mo, ok := mapTest(co, meth, protocol)
				if !ok {
					continue
				}
				seeds, size := 1, 1
				if protocol == retrieval.ProtocolBest {
					seeds, size = max(1, mo.Seeds), mo.Configs*mo.Alphas
				}
				family += size
				pairs = append(pairs, pair{co.Dataset + " " + strings.ToUpper(co.Term) + "+" + meth, t, seeds})
				ps = append(ps, t.P)
			}
		}
		adj, err := stats.Holm(ps, max(family, len(ps)))
		if err != nil {
			return experiments.Undecided(err.Error())
		}
		var parts []string
		n, up, sig := len(pairs), 0, 0
		for i, p := range pairs {
			if p.t.MeanDiff > 0 {
				up++
				if adj[i] < PValue {
					sig++
				}
			}
			parts = append(parts, fmt.Sprintf("%s MAP %+.4f (%d seed(s); p=%.3g, Holm p=%.3g)", p.label, p.t.MeanDiff, p.seeds, p.t.P, adj[i]))
		}
		threshold := "all improve"
		switch need {
		case sigMajority:
			threshold = fmt.Sprintf("all improve and more than half (> %d) significantly", n/2)
		case sigAll:
			threshold = "all improve significantly"
		}
		familyText := fmt.Sprintf("Holm over the %d pairs", n)
		if protocol == retrieval.ProtocolBest {
			familyText = fmt.Sprintf("Holm over m = %d comparisons: every configuration × α the %d best settings were chosen from", family, n)
		}
		detail := fmt.Sprintf("%s protocol: %d of %d (collection, method) pairs improve MAP, %d significantly (Holm-adjusted p < %g; %s); threshold: %s: %s",
			protocol, up, n, sig, PValue, familyText, threshold, strings.Join(parts, "; "))
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
		if protocol == retrieval.ProtocolBest {
			if ms := mismatches(out, methods); len(ms) > 0 {
				return experiments.Undecided("the seeds are not at the chosen settings: " + strings.Join(ms, "; ") + ". " + detail)
			}
		}
		return experiments.Judged(held, detail)
	}
}

// judgeRank: under the best setting with the better term model, method
// has the highest (best) or lowest (!best) MAP among methods on a strict
// majority of the collections, significantly. On each collection the
// method's per-query MAP (mean over its seeds) is compared with every
// other method's by a paired t-test, Holm-adjusted over all the claim's
// comparisons (collections × other methods). Held when on more than half
// of the collections the method is above (below) every other one with
// every adjusted p < PValue; not held when it is not even first (last) by
// mean on more than half; inconclusive in between (first by mean, but the
// gaps are within the noise of the seeds and queries).
func judgeRank(method string, methods []string, best bool) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := outcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocols: " + err.Error())
		}
		type comparison struct {
			co    int
			other string
			t     stats.TTest
		}
		var cmps []comparison
		var ps []float64
		var lines []string
		n, top := 0, 0
		sign := 1.0
		if !best {
			sign = -1
		}
		firstByMean := map[int]bool{}
		for ci, co := range out {
			evals := map[string]*retrieval.Evaluation{}
			means := map[string]stats.Interval{}
			var ranked []string
			for _, meth := range methods {
				mo := co.Methods[co.Term][meth]
				if mo == nil {
					continue
				}
				ranked = append(ranked, meth)
				if mo.Pooled != nil {
					evals[meth], means[meth] = mo.Pooled, mo.MAP
				} else {
					evals[meth], means[meth] = mo.BestEval, stats.Interval{N: 1, Mean: mo.BestEval.Mean("map"), Lo: math.NaN(), Hi: math.NaN()}
				}
			}
			if len(ranked) < 2 || indexOf(ranked, method) < 0 {
				continue
			}
			n++
			sort.SliceStable(ranked, func(a, b int) bool { return means[ranked[a]].Mean > means[ranked[b]].Mean })
			first := ranked[0]
			if !best {
				first = ranked[len(ranked)-1]
			}
			if first == method {
				top++
				firstByMean[ci] = true
			}
			m := slices.Index(retrieval.Measures, "map")
			for _, other := range ranked {
				if other == method {
					continue
				}
				t, err := stats.PairedTTest(evals[method].Values[m], evals[other].Values[m])
				if err != nil {
					return experiments.Undecided(err.Error())
				}
				cmps = append(cmps, comparison{ci, other, t})
				ps = append(ps, t.P)
			}
			var cells []string
			for _, meth := range ranked {
				cells = append(cells, fmt.Sprintf("%s %s (%d seeds)", meth, means[meth].Format(4), means[meth].N))
			}
			lines = append(lines, co.Dataset+" ("+strings.ToUpper(co.Term)+"): "+strings.Join(cells, " > "))
		}
		adj, err := stats.Holm(ps, len(ps))
		if err != nil {
			return experiments.Undecided(err.Error())
		}
		significant := map[int]bool{}
		for ci := range firstByMean {
			significant[ci] = true
		}
		var tests []string
		for i, c := range cmps {
			if !(sign*c.t.MeanDiff > 0 && adj[i] < PValue) {
				significant[c.co] = false
			}
			tests = append(tests, fmt.Sprintf("%s vs %s %+.4f (p=%.3g, Holm p=%.3g)", out[c.co].Dataset, c.other, c.t.MeanDiff, c.t.P, adj[i]))
		}
		sig := 0
		for _, ok := range significant {
			if ok {
				sig++
			}
		}
		what, side := "highest", "above"
		if !best {
			what, side = "lowest", "below"
		}
		detail := fmt.Sprintf("best-setting MAP, mean over seeds [95 %% t interval]: %s is %s by mean on %d of %d collections, significantly %s every other method on %d "+
			"(paired t-tests over queries of the per-query means over seeds, Holm over m = %d comparisons, adjusted p < %g); threshold for \"most\": more than half, > %d of %d; %s. Tests of %s: %s",
			method, what, top, n, side, sig, len(ps), PValue, n/2, n, strings.Join(lines, "; "), method, strings.Join(tests, "; "))
		if ms := mismatches(out, methods); len(ms) > 0 {
			return experiments.Undecided("the seeds are not at the chosen settings: " + strings.Join(ms, "; ") + ". " + detail)
		}
		switch {
		case n == 0:
			return experiments.Undecided(detail)
		case 2*sig > n:
			return experiments.Judged(true, detail)
		case 2*top <= n:
			return experiments.Judged(false, detail)
		}
		return experiments.Undecided("first by mean on most collections but not significantly: " + detail)
	}
}
