package gmf2012

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/metrics/stats"
	"github.com/topicmf/topicmf/metrics/topics"
)

func init() { experiments.Register(Tables1213()) }

// Method labels of the per-class baselines (the others are in tables67.go).
const (
	labelCRLSI = "CRLSI"
	labelCNMF  = "CNMF"
)

// RelPValue is the significance level of the relevance claims' paired
// two-sided t-tests (the paper's p < 0.05), fixed before any run.
const RelPValue = 0.05

// relIters is the iteration limit of every fit (GMF §7.1 runs 100
// iterations); the tolerance test of each family stays on.
const relIters = "100"

// relBase gives, per data set, the (Ks, Kc) of scale 1; scale s uses
// s·(Ks, Kc). The ratio Ks : P·Kc follows §7.1 (Wikipedia: (10, 4) for 25
// classes, K = 110): SemEval has P = 26 forum categories, (10, 2) → K = 62;
// Cranfield P = 10 clusters, (10, 4) → K = 50.
var relBase = map[string][2]int{semevalData: {10, 2}, cranfieldData: {10, 4}}

// The paper's Tables 12 and 13 (Web-II test set): MAP, NDCG@1, 3, 5, 10.
var (
	relMeasures = []string{"map", "ndcg_cut_1", "ndcg_cut_3", "ndcg_cut_5", "ndcg_cut_10"}
	paperRel    = map[string][5]float64{
		"BM25":        {0.3006, 0.3043, 0.3490, 0.3910, 0.4805},
		labelRLSI:     {0.3050, 0.3076, 0.3539, 0.3943, 0.4858},
		labelCRLSI:    {0.3027, 0.3051, 0.3509, 0.3927, 0.4840},
		labelGRLSI:    {0.3039, 0.3066, 0.3520, 0.3934, 0.4855},
		labelNMF:      {0.3057, 0.3091, 0.3546, 0.3960, 0.4895},
		labelCNMF:     {0.3033, 0.3055, 0.3512, 0.3934, 0.4869},
		labelGroupNMF: {0.3046, 0.3080, 0.3530, 0.3955, 0.4887},
	}
	rlsiFamily = []string{labelRLSI, labelCRLSI, labelGRLSI}
	nmfFamily  = []string{labelNMF, labelCNMF, labelGroupNMF}
)

// Tables1213 is the experiment "gmf2012/tables12-13": GMF §7.4 (Experiment
// 3), relevance ranking with s(q, d) = α·s_topic(q, d) + (1 − α)·s_term(q, d)
// (§6 Eq. 11), s_term = BM25 and s_topic the cosine of the query's and the
// document's topic representations, for RLSI, CRLSI, GRLSI (Table 12) and
// NMF, CNMF, Group NMF (Table 13), beside BM25 alone; MAP and NDCG@1/3/5/10
// on test queries at the setting chosen on validation queries, paired
// t-tests.
//
// Group and per-class models score a pair (q, d) in d's class y_d, as
// §7.4's heuristic says: q is folded in with Ũ_{y_d} = [U0, U_{y_d}] (GRLSI
// Eq. 8, GroupNMF Eq. 10) or by class y_d's own model (CRLSI, CNMF), d with its
// own class, and s_topic is their cosine (classCosineScores). RLSI and NMF
// fold both in without labels.
//
// Readings where the paper is silent or does not apply (also in the
// Protocol text):
//   - data: SemEval-2016 Task 3 subtask B, each original question ranking
//     its judged related questions, forum category = class; Cranfield with
//     every document a candidate and NMF-argmax clusters as classes
//     (tables1213_data.go). The models are fitted on the ranked documents
//     (unit-length tf-idf), not on a separate Web-I;
//   - validation/test: a seeded random half split of each data set's
//     queries, as the paper splits Web-II's;
//   - topic settings: (Ks, Kc) = s·(10, 2) (SemEval, P = 26) or s·(10, 4)
//     (Cranfield, P = 10) for s ∈ {1, 2, 3}; RLSI and NMF with the same
//     total K = Ks + P·Kc; CRLSI and CNMF with Kc topics per class (§7.3:
//     the same settings "except parameter Ks"); λ1 ∈ {0.01, 0.02, 0.05,
//     0.1}, λ2 = 0.1 (§7.1);
//   - Eq. 11's scales: min-max normalization per query over its candidates
//     for 0 < α < 1 (experiments/retrieval's default); α = 0 (BM25 alone) is
//     among the choices, as "from 0 to 1 in steps of 0.1" says;
//   - the choice: per method, the (configuration, α) with the highest mean
//     validation MAP; ties go to the earlier job (job order: methods, then
//     λ1, then scale) and the smaller α.
func Tables1213() *experiments.Experiment {
	rl := map[string]string{"lambda2": "0.1", "iters": relIters}
	rlsiP := maps.Clone(rl)
	rlsiP["variant"] = "u1v2"
	nm := map[string]string{"iters": relIters}
	var pv []experiments.PaperValue
	for label, vals := range paperRel {
		for i, m := range relMeasures {
			if label == "BM25" {
				pv = append(pv, experiments.PaperValue{Where: map[string]string{}, Metric: "bm25_test_" + m, Value: vals[i], Note: "Tables 12–13, BM25 on Web-II's test queries"})
				continue
			}
			table := "Table 12"
			if slices.Contains(nmfFamily, label) {
				table = "Table 13"
			}
			for _, w := range relPaperWhere(label) {
				pv = append(pv, experiments.PaperValue{Where: w, Metric: "test_" + m, Value: vals[i],
					Note: table + ", BM25+" + label + " on Web-II's test queries (its best setting on the validation queries): beside the configuration chosen on our validation queries only"})
			}
		}
	}
	sort.SliceStable(pv, func(a, b int) bool {
		if pv[a].Metric != pv[b].Metric {
			return pv[a].Metric < pv[b].Metric
		}
		return pv[a].Where[experiments.ColMethod] < pv[b].Where[experiments.ColMethod]
	})
	testCols := []string{"val_map", "alpha"}
	for _, m := range relMeasures {
		testCols = append(testCols, "test_"+m)
	}
	testCols = append(testCols, "test_map_p", "topic_test_map", "ktotal")
	var bmCols []string
	for _, m := range relMeasures {
		bmCols = append(bmCols, "bm25_test_"+m)
	}
	bmCols = append(bmCols, "bm25_val_map", "val_queries", "test_queries")
	return &experiments.Experiment{
		ID:      "gmf2012/tables12-13",
		Title:   "Relevance ranking: BM25 combined with RLSI, CRLSI, GRLSI (Table 12) and NMF, CNMF, Group NMF (Table 13)",
		Paper:   experiments.PaperRef{Reference: thePaper, Cite: paperCite, Where: "§6 Eq. 11, §7.4 Experiment 3, Tables 12 and 13"},
		Version: "2", // 2: 5 seeds at the chosen configurations, pooled tests, Holm (issue 29)

		Datasets:  []string{semevalData, cranfieldData},
		Checksums: relChecksums,
		Methods: []experiments.MethodSpec{
			{Label: labelRLSI, Name: "rlsi", Params: rlsiP},
			{Label: labelCRLSI, Name: "crlsi", Params: rl},
			{Label: labelGRLSI, Name: "grouprlsi", Params: rl},
			{Label: labelNMF, Name: "nmf", Params: nm},
			{Label: labelCNMF, Name: "cnmf", Params: nm},
			{Label: labelGroupNMF, Name: "groupnmf", Params: nm},
		},
		Grid: map[string][]string{
			"scale":   {"1", "2", "3"},
			"lambda1": {"0.01", "0.02", "0.05", "0.1"},
		},
		TaskParams:   []string{"scale"},
		Seed:         20120815,
		Task:         tables1213Task,
		ReplicatesAt: relReplicatesAt,

		Metrics: []experiments.MetricDef{
			{Name: "val_map", Definition: "mean MAP over the validation queries of BM25+method at the job's α, the α ∈ {0, 0.1, …, 1} with the highest validation MAP (ties: the smaller α)"},
			{Name: "alpha", Definition: "that α (Eq. 11: s = α·s_topic + (1 − α)·s_term, both min-max normalized per query over its candidates for 0 < α < 1)"},
			{Name: "test_map", Definition: "mean over the test queries at that α (likewise test_ndcg_cut_k = NDCG@k); trec_eval semantics (metrics/ir, -c), relevant = gain > 0"},
			{Name: "test_map_p", Definition: "two-sided p-value of the paired t-test of the test MAP against BM25 alone on the same test queries"},
			{Name: "topic_test_map", Definition: "test MAP of the topic matching score alone (α = 1)"},
			{Name: "bm25_test_map", Definition: "BM25 alone (k1 = 1.2, b = 0.75, engine/rank) on the test queries (likewise NDCG@k); bm25_val_map on the validation queries"},
			{Name: "ktotal", Definition: "total number of topics: Ks + P·Kc for the group models and for RLSI/NMF, P·Kc for CRLSI/CNMF (one Kc-topic model per class)"},
			{Name: "ks", Definition: "shared topics Ks (group models)"},
			{Name: "kc", Definition: "topics per class Kc (group and per-class models)"},
			{Name: "classes", Definition: "number of classes P"},
			{Name: "avgcomp", Definition: "AvgComp of the model's topics (fraction of non-zero weights)"},
			{Name: "fit_seconds", Definition: "wall-clock seconds of the fit (indicative: the machine is shared)"},
		},
		Tables: []experiments.Table{
			{Name: "configs", Title: "Every configuration: α chosen on the validation queries, measures on the test queries",
				Rows: []string{experiments.ColDataset, experiments.ColMethod, "scale", "lambda1"}, Metrics: testCols, Digits: 4},
			{Name: "bm25", Title: "BM25 alone (the same in every job of a data set)",
				Rows: []string{experiments.ColDataset}, Metrics: bmCols, Digits: 4},
		},
		PaperValues: pv,
		Claims: []experiments.Claim{
			{Statement: fmt.Sprintf("BM25+GRLSI beats BM25: higher test MAP (mean over 5 seeds) with a paired t-test, Holm-adjusted p < %g, on every data set", RelPValue),
				Source: "§7.4 finding (1), Table 12", Judge: judgeBeatsBM25([]string{labelGRLSI})},
			{Statement: fmt.Sprintf("BM25+GroupNMF beats BM25: higher test MAP (mean over 5 seeds) with a paired t-test, Holm-adjusted p < %g, on every data set", RelPValue),
				Source: "§7.4 finding (1), Table 13", Judge: judgeBeatsBM25([]string{labelGroupNMF})},
			{Statement: fmt.Sprintf("GRLSI performs only slightly worse than RLSI (the paper: \"GRLSI and GNMF perform slightly worse than RLSI and NMF\") and not worse than CRLSI (combined with BM25), read as non-inferiority: on every data set GRLSI's test MAP is not significantly below RLSI's or CRLSI's (5 seeds; paired t-test, Holm-adjusted p < %g)", RelPValue),
				Source: "§7.4 findings (2) and (3), Table 12", Judge: judgeNotBelow(labelGRLSI, []string{labelCRLSI, labelRLSI})},
			{Statement: fmt.Sprintf("GroupNMF performs only slightly worse than NMF (the paper: \"GRLSI and GNMF perform slightly worse than RLSI and NMF\") and not worse than CNMF (combined with BM25), read as non-inferiority: on every data set GroupNMF's test MAP is not significantly below NMF's or CNMF's (5 seeds; paired t-test, Holm-adjusted p < %g)", RelPValue),
				Source: "§7.4 findings (2) and (3), Table 13", Judge: judgeNotBelow(labelGroupNMF, []string{labelCNMF, labelNMF})},
			{Statement: fmt.Sprintf("GRLSI and GroupNMF perform significantly better than CRLSI and CNMF: higher test MAP (mean over 5 seeds), Holm-adjusted p < %g, on every data set", RelPValue),
				Source: "§7.4 finding (2)", Judge: judgeMAPPairs([][2]string{{labelGRLSI, labelCRLSI}, {labelGroupNMF, labelCNMF}}, true)},
			{Statement: fmt.Sprintf("All six methods significantly improve BM25: higher test MAP (mean over 5 seeds), Holm-adjusted p < %g, on every data set", RelPValue),
				Source: "§7.4 finding (1)", Judge: judgeBeatsBM25(append(slices.Clone(rlsiFamily), nmfFamily...))},
			{Statement: "Evidence (Table 12): BM25 and BM25+RLSI/CRLSI/GRLSI on the test queries, each at the configuration and α chosen on the validation queries (per query the mean over 5 seeds; MAP with its 95 % t interval over seeds; p-values unadjusted, * p < 0.05), with the paper's Web-II numbers",
				Source: "Table 12", Judge: judgeRelEvidence(rlsiFamily)},
			{Statement: "Evidence (Table 13): BM25 and BM25+NMF/CNMF/GroupNMF on the test queries, likewise (5 seeds, intervals, unadjusted p-values)",
				Source: "Table 13", Judge: judgeRelEvidence(nmfFamily)},
		},
		Quick: experiments.Quick{
			Grid:   map[string][]string{"scale": {"1"}, "lambda1": {"0.05"}},
			Params: map[string]string{"iters": "10"},
		},
		Substitutes: "Web-I (training) and Web-II (752,365 documents, 30,000 queries, 5-level judgments, 204 ODP classes from a classifier) are not public. " +
			"Two public stand-ins: (1) SemEval-2016 Task 3 subtask B (Qatar Living, staged part: train part 1 v2.0, train part 2, dev; " +
			"datasets/semeval.go): each original question is a query, its judged related questions (about 10) are its candidates, " +
			"PerfectMatch/Relevant/Irrelevant = gains 2/1/0 (relevant = gain > 0 for MAP), and a related question's forum category " +
			"(26 in all) is its class; the topic models are trained on the 1,783 related questions. (2) Cranfield 1400 (graded judgments, " +
			"225 queries, every document a candidate), whose documents have no classes: they are assigned P = " + strconv.Itoa(CranfieldClasses) +
			" classes by clustering, the argmax of each document's row of V in an NMF fit with K = P (engine/nmf, random init from seed " +
			strconv.Itoa(RelClusterSeed) + ", " + strconv.Itoa(clusterIters) + " iterations) on the same unit-length tf-idf corpus, clusters left empty dropped. " +
			"The paper trains on Web-I and ranks Web-II; here the models are trained on the collection that is ranked (its documents, not its queries or judgments).",
		Protocol: "Text: SMART stop list, tokens of ≥ 2 letters, numbers dropped, every term kept, tf-idf (datasets/text), every document and query scaled " +
			"to unit length (our reading, as gmf2012/tables10-11: the λ's of §7.1 are stated for unit-scale data). Topic settings (§7.1 shape, Ks : P·Kc as Wikipedia's 10 : 100): " +
			"scale s ∈ {1, 2, 3} gives (Ks, Kc) = s·(10, 2) on SemEval (P = 26, K = 62, 124, 186) and s·(10, 4) on Cranfield (P = 10, K = 50, 100, 150); GRLSI and GroupNMF use (Ks, Kc), " +
			"RLSI and NMF the same total K = Ks + P·Kc (the paper's \"fair comparison\" of §7.1), CRLSI and CNMF one model of Kc topics per class (\"the same parameter " +
			"settings … except parameter Ks\", §7.3; a class with fewer than Kc documents gets that many). RLSI family: λ1 ∈ {0.01, 0.02, 0.05, 0.1} (§7.1's " +
			"grid), λ2 = 0.1 (§7.1), Uℓ1-Vℓ2; NMF family: multiplicative updates; at most " + relIters + " iterations with each family's default tolerance, random " +
			"initialization from the job's seed. Scoring (§6, Eq. 11 and §7.4): s_topic is the cosine of the query's and the document's fold-ins; for GRLSI, CRLSI, " +
			"GroupNMF and CNMF the query is folded in with the class of the document it is scored against (Ũ_{y_d} = [U0, U_{y_d}], or class y_d's own model) and the " +
			"document with its own class (FoldInClass), so one query has one representation per class; RLSI and NMF fold both in without labels. " +
			"s = α·s_topic + (1 − α)·s_term with s_term = BM25; for 0 < α < 1 both are min-max normalized per query over its candidates (our reading, " +
			"experiments/retrieval: the paper does not say), α = 0 is BM25 alone and α = 1 the topic score alone, α ∈ {0, 0.1, …, 1} (\"from 0 to 1 in steps of 0.1\"). " +
			"Validation/test: as §7.4 splits Web-II's queries at random into two halves, every data set's judged queries (those with a relevant candidate) " +
			"are split in two halves by a seeded permutation (retrieval.SplitQueries, seed " + strconv.Itoa(RelSplitSeed) + "), the first validating; for SemEval this " +
			"replaces the official train/dev split (dev has only 43 queries with a relevant candidate and the 2016 test file is not staged). For each method the configuration " +
			"(scale, λ1) and α with the highest mean validation MAP are chosen (ties: the earlier job, the smaller α) and reported on the test queries with paired " +
			"two-sided t-tests (p < 0.05) against BM25 and between methods; the thresholds of every claim were fixed before any run. " +
			"Seeds (issue 29): the grid is fitted once (seed 0) and chooses on it; the chosen configuration of each method on each data set is fitted 5 times in all " +
			"(4 more derived seeds), and the claims and the evidence use, per test query, the mean over the 5 seeds at seed 0's α: paired two-sided t-tests over " +
			"queries (the query stays the unit, Smucker, Allan & Carterette, CIKM 2007), each claim's p-values adjusted by Holm's procedure (Holm 1979) over the " +
			"claim's comparisons (their number is printed), and each test MAP as the mean over seeds with a 95 % Student t interval over the seeds. " +
			"Quick: scale 1, λ1 = 0.05, 10 iterations, 2 seeds.",
	}
}

// relScale returns (Ks, Kc) of a data set at a scale.
func relScale(dataset string, s int) (ks, kc int, err error) {
	b, ok := relBase[dataset]
	if !ok {
		return 0, 0, fmt.Errorf("no topic settings for data set %q", dataset)
	}
	if s < 1 {
		return 0, 0, fmt.Errorf("task parameter scale = %d, want ≥ 1", s)
	}
	return s * b[0], s * b[1], nil
}

// chooseAlpha returns the index of the α whose evaluation has the highest
// mean MAP (ties: the first, i.e. the smaller α).
func chooseAlpha(evals []*retrieval.Evaluation) int {
	best, bi := math.Inf(-1), 0
	for i, e := range evals {
		if m := e.Mean("map"); m > best {
			best, bi = m, i
		}
	}
	return bi
}

func tables1213Task(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
	d, err := loadRel(j.Dataset)
	if err != nil {
		return nil, err
	}
	s, err := j.IntParam("scale", 1)
	if err != nil {
		return nil, err
	}
	ks, kc, err := relScale(j.Dataset, s)
	if err != nil {
		return nil, fmt.Errorf("experiment %s: %w", j.Experiment.ID, err)
	}
	f, ktotal, err := j.FitTopics(ctx, &experiments.Corpus{Corpus: d.corpus}, ks, kc)
	if err != nil {
		return nil, err
	}
	np, model := len(d.corpus.ClassNames), f.Model
	res := f.NewResult(j)
	res.Notes = append(slices.Clone(d.notes), res.Notes...)
	topic, err := topicScores(ctx, "topic", model, d)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", j.Label(), err)
	}
	alphas := retrieval.DefaultAlphas()
	evals, err := sweepGroups(d, d.bm25, topic, alphas)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", j.Label(), err)
	}
	keep := map[string]map[string]bool{partVal: {}, partTest: {}}
	for q, id := range d.task.QueryIDs {
		keep[d.part[q]][id] = true
	}
	parts := map[string][]*retrieval.Evaluation{}
	for _, part := range []string{partVal, partTest} {
		for a, e := range evals {
			pe := restrict(e, keep[part])
			parts[part] = append(parts[part], pe)
			for m, name := range retrieval.Measures {
				for q, id := range pe.Queries {
					res.PerQuery = append(res.PerQuery, experiments.QueryMetric{Query: id, Metric: experiments.SweepMetric(part, alphas[a], name), Value: pe.Values[m][q]})
				}
			}
		}
	}
	ai := chooseAlpha(parts[partVal])
	val, test := parts[partVal], parts[partTest]
	res.AddMetric("val_map", val[ai].Mean("map"))
	res.AddMetric("alpha", alphas[ai])
	for _, m := range relMeasures {
		res.AddMetric("test_"+m, test[ai].Mean(m))
	}
	tests, err := retrieval.Compare(test[ai], test[0])
	if err != nil {
		return nil, err
	}
	res.AddMetric("test_map_p", tests[0].P)
	res.AddMetric("topic_test_map", test[len(test)-1].Mean("map"))
	for _, m := range relMeasures {
		res.AddMetric("bm25_test_"+m, test[0].Mean(m))
	}
	res.AddMetric("bm25_val_map", val[0].Mean("map"))
	res.AddMetric("val_queries", float64(len(val[0].Queries)))
	res.AddMetric("test_queries", float64(len(test[0].Queries)))
	res.AddMetric("ktotal", float64(ktotal))
	res.AddMetric("ks", float64(ks))
	res.AddMetric("kc", float64(kc))
	res.AddMetric("classes", float64(np))
	res.AddMetric("avgcomp", topics.AvgComp(model.TermTopics()))
	res.AddMetric("iterations", float64(f.Status.Iterations))
	res.AddMetric("fit_seconds", f.Seconds)
	return res, nil
}

// ---- the render step: choice on validation, t-tests on test ----

// relChoice is one method's configuration and α chosen on the validation
// queries of a data set, with its test evaluation.
type relChoice struct {
	Method  string
	Config  string
	Alpha   float64
	ValMAP  float64
	Test    *retrieval.Evaluation // per test query, the mean over the seeds at Alpha
	Configs int
	// Seeds is the number of fits pooled in Test, MAP the test MAP's mean
	// over them with its t interval; Mismatch is set when the seeds were
	// run at another configuration than the grid chooses.
	Seeds    int
	MAP      stats.Interval
	Mismatch string
}

// relOutcome is the protocol's outcome on one data set.
type relOutcome struct {
	Dataset string
	BM25    *retrieval.Evaluation // test queries
	BM25Val float64
	Methods map[string]*relChoice
}

// test is the test evaluation of a method at its validation choice, or of
// BM25 alone for relBM25; nil when the method did not run.
func (o *relOutcome) test(method string) *retrieval.Evaluation {
	if method == relBM25 {
		return o.BM25
	}
	if c := o.Methods[method]; c != nil {
		return c.Test
	}
	return nil
}

// rebuildRel returns a job's stored per-query values of one part at one α
// as an evaluation (queries in byte order).
func rebuildRel(run *experiments.StoredRun, part string, alpha float64) (*retrieval.Evaluation, error) {
	_, evals, err := experiments.SweepEvaluations(run, part)
	if err != nil {
		return nil, err
	}
	ev := evals[alpha]
	if ev == nil {
		return nil, fmt.Errorf("%s: no %s values at α = %g", run.Dir, part, alpha)
	}
	order := make([]int, len(ev.Queries))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return ev.Queries[order[a]] < ev.Queries[order[b]] })
	e := &retrieval.Evaluation{Name: ev.Name, Values: make([][]float64, len(ev.Values))}
	for _, i := range order {
		e.Queries = append(e.Queries, ev.Queries[i])
		for m, v := range ev.Values {
			e.Values[m] = append(e.Values[m], v[i])
		}
	}
	return e, nil
}

// relOutcomes runs the protocol once per Results.
func relOutcomes(r *experiments.Results) ([]*relOutcome, error) {
	return experiments.Derived(r, "gmf2012 relevance outcomes", computeRelOutcomes)
}

// computeRelOutcomes chooses, per data set and method, the job with the
// highest stored val_map (its α is the job's own choice, so this is the
// joint choice of configuration and α; ties: the earlier job) and rebuilds
// its test evaluation and BM25's from the stored per-query values.
func computeRelOutcomes(r *experiments.Results) ([]*relOutcome, error) {
	var out []*relOutcome
	byDS := map[string]*relOutcome{}
	best := map[string]map[string]*experiments.JobResult{}
	seedRuns := map[string][]*experiments.StoredRun{} // dataset/method/point → every replicate's run
	for _, jr := range r.Jobs {
		ds, meth := jr.Job.Dataset, jr.Job.Method.DisplayName()
		key := ds + "\x00" + meth + "\x00" + jr.Job.PointLabel()
		seedRuns[key] = append(seedRuns[key], jr.Run)
		if jr.Job.Replicate != 0 {
			continue // the grid's choice is among the replicate-0 fits
		}
		v, ok := jr.Run.Metric("val_map")
		if !ok || math.IsNaN(v) {
			continue
		}
		o := byDS[ds]
		if o == nil {
			o = &relOutcome{Dataset: ds, Methods: map[string]*relChoice{}}
			byDS[ds] = o
			out = append(out, o)
			best[ds] = map[string]*experiments.JobResult{}
		}
		c := o.Methods[meth]
		if c == nil {
			c = &relChoice{Method: meth, ValMAP: math.Inf(-1)}
			o.Methods[meth] = c
		}
		c.Configs++
		if v > c.ValMAP {
			c.ValMAP = v
			best[ds][meth] = jr
		}
	}
	for _, o := range out {
		for meth, c := range o.Methods {
			jr := best[o.Dataset][meth]
			a, ok := jr.Run.Metric("alpha")
			if !ok {
				return nil, fmt.Errorf("%s: no alpha metric", jr.Job.Label())
			}
			c.Alpha, c.Config = a, jr.Job.PointLabel()
			c.Mismatch = relMismatch(r, o.Dataset, meth, c.Config)
			var seeds []*retrieval.Evaluation
			for _, run := range seedRuns[o.Dataset+"\x00"+meth+"\x00"+c.Config] {
				e, err := rebuildRel(run, partTest, a)
				if err != nil {
					return nil, err
				}
				seeds = append(seeds, e)
			}
			var err error
			if c.Test, err = retrieval.PoolSeeds("bm25+"+meth, seeds); err != nil {
				return nil, err
			}
			if c.MAP, err = retrieval.SeedInterval(seeds, "map", RelLevel); err != nil {
				return nil, err
			}
			c.Seeds = len(seeds)
			if o.BM25 == nil {
				if o.BM25, err = rebuildRel(jr.Run, partTest, 0); err != nil {
					return nil, err
				}
				o.BM25.Name = "bm25"
				o.BM25Val, _ = jr.Run.Metric("bm25_val_map")
			}
		}
	}
	return out, nil
}

// mapTestOf is the paired t-test of a's test MAP against b's.
func mapTestOf(a, b *retrieval.Evaluation) (retrieval.Test, error) {
	tests, err := retrieval.Compare(a, b)
	if err != nil {
		return retrieval.Test{}, err
	}
	return tests[slices.Index(retrieval.Measures, "map")], nil
}

func relVerdict(n, held int, detail string) experiments.Verdict {
	if n == 0 {
		return experiments.Undecided(detail)
	}
	return experiments.Judged(held == n, detail)
}

// relBM25 names BM25 alone in the pairs of judgeMAPPairs.
const relBM25 = "BM25"

// judgeBeatsBM25: held when every listed method, at its validation choice,
// has a higher test MAP than BM25 with p < RelPValue on every data set.
func judgeBeatsBM25(methods []string) func(r *experiments.Results) experiments.Verdict {
	var pairs [][2]string
	for _, m := range methods {
		pairs = append(pairs, [2]string{m, relBM25})
	}
	return judgeMAPPairs(pairs, true)
}

// judgeNotBelow: held when on every data set the method's test MAP is not
// significantly below (p < RelPValue with a negative difference) any of
// the others'.
func judgeNotBelow(method string, others []string) func(r *experiments.Results) experiments.Verdict {
	var pairs [][2]string
	for _, o := range others {
		pairs = append(pairs, [2]string{method, o})
	}
	return judgeMAPPairs(pairs, false)
}

// judgeMAPPairs compares, on every data set, the test MAP (BM25+method at
// its validation choice, per query the mean over its seeds; relBM25: BM25
// alone) of the first method of each pair with the second's by a paired
// t-test over the test queries; the claim's p-values are adjusted by
// Holm's procedure over all its comparisons. With above it is held when
// the first is significantly above (adjusted p < RelPValue) in every
// comparison, otherwise when it is never significantly below.
func judgeMAPPairs(pairs [][2]string, above bool) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := relOutcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocol: " + err.Error())
		}
		type comparison struct {
			label string
			t     retrieval.Test
		}
		var cmps []comparison
		var ps, mismatched []string
		var pvals []float64
		for _, o := range out {
			for _, p := range pairs {
				a, b := o.test(p[0]), o.test(p[1])
				if a == nil || b == nil {
					continue
				}
				t, err := mapTestOf(a, b)
				if err != nil {
					return experiments.Undecided(err.Error())
				}
				for _, m := range p {
					if c := o.Methods[m]; c != nil && c.Mismatch != "" && !slices.Contains(mismatched, c.Mismatch) {
						mismatched = append(mismatched, c.Mismatch)
					}
				}
				cmps = append(cmps, comparison{fmt.Sprintf("%s %s %s vs %s %s", o.Dataset, p[0], o.mapText(p[0]), p[1], o.mapText(p[1])), t})
				pvals = append(pvals, t.P)
			}
		}
		adj, err := stats.Holm(pvals, len(pvals))
		if err != nil {
			return experiments.Undecided(err.Error())
		}
		n, held := len(cmps), 0
		for i, c := range cmps {
			significant := adj[i] < RelPValue
			if above && c.t.MeanDiff > 0 && significant || !above && !(c.t.MeanDiff < 0 && significant) {
				held++
			}
			ps = append(ps, fmt.Sprintf("%s (%+.4f, p=%.3g, Holm p=%.3g)", c.label, c.t.MeanDiff, c.t.P, adj[i]))
		}
		how := fmt.Sprintf("significantly above (threshold: every comparison with a positive difference at Holm-adjusted p < %g)", RelPValue)
		if !above {
			how = fmt.Sprintf("not significantly below (threshold: no comparison with a negative difference at Holm-adjusted p < %g)", RelPValue)
		}
		detail := fmt.Sprintf("test MAP (BM25+method: mean over seeds [95 %% t interval], per-query means over seeds compared by paired t-tests over the test queries, "+
			"Holm over m = %d comparisons); %s in %d of %d comparisons: %s", n, how, held, n, strings.Join(ps, "; "))
		if len(mismatched) > 0 {
			return experiments.Undecided("the seeds are not at the chosen settings: " + strings.Join(mismatched, "; ") + ". " + detail)
		}
		return relVerdict(n, held, detail)
	}
}

// mapText is a method's test MAP as "0.8395 [0.8301, 0.8489] (5 seeds)",
// or BM25's.
func (o *relOutcome) mapText(method string) string {
	if c := o.Methods[method]; c != nil && method != relBM25 {
		return fmt.Sprintf("%s (%d seeds)", c.MAP.Format(4), c.Seeds)
	}
	return fmt.Sprintf("%.4f", o.test(method).Mean("map"))
}

// judgeRelEvidence renders Table 12 or 13 per data set: BM25 and each
// method's test measures at its validation choice, with the differences
// and p-values against BM25 (* p < RelPValue) and the paper's numbers.
func judgeRelEvidence(methods []string) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := relOutcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocol: " + err.Error())
		}
		var b strings.Builder
		for _, o := range out {
			fmt.Fprintf(&b, "[%s, %d test queries] BM25: ", o.Dataset, len(o.BM25.Queries))
			for i, m := range relMeasures {
				fmt.Fprintf(&b, "%s %.4f (paper %.4f)", retrieval.MeasureNames[m], o.BM25.Mean(m), paperRel["BM25"][i])
				if i < len(relMeasures)-1 {
					b.WriteString(", ")
				}
			}
			fmt.Fprintf(&b, "; validation MAP %.4f. ", o.BM25Val)
			for _, meth := range methods {
				c := o.Methods[meth]
				if c == nil {
					continue
				}
				tests, err := retrieval.Compare(c.Test, o.BM25)
				if err != nil {
					return experiments.Undecided(err.Error())
				}
				fmt.Fprintf(&b, "BM25+%s (best of %d configs × 11 α on validation at seed 0: %s, α=%g, validation MAP %.4f; test, per-query mean over %d seeds, MAP %s over seeds): ",
					meth, c.Configs, c.Config, c.Alpha, c.ValMAP, c.Seeds, c.MAP.Format(4))
				for i, m := range relMeasures {
					t := tests[slices.Index(retrieval.Measures, m)]
					star := ""
					if t.Significant(RelPValue) {
						star = "*"
					}
					fmt.Fprintf(&b, "%s %.4f (%+.4f, p=%.3g%s; paper %.4f)", retrieval.MeasureNames[m], t.Mean, t.MeanDiff, t.P, star, paperRel[meth][i])
					if i < len(relMeasures)-1 {
						b.WriteString(", ")
					}
				}
				if c.Mismatch != "" {
					fmt.Fprintf(&b, " [%s]", c.Mismatch)
				}
				b.WriteString(". ")
			}
		}
		if b.Len() == 0 {
			return experiments.Undecided("no runs")
		}
		return experiments.Undecided(strings.TrimSpace(b.String()))
	}
}
