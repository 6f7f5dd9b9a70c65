package gmf2012

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments"
)

func init() { experiments.Register(Tables67()) }

// Method labels of the timing experiment.
const (
	labelRLSI     = "RLSI"
	labelGRLSI    = "GRLSI"
	labelNMF      = "NMF"
	labelGroupNMF = "GroupNMF"
)

// wikiClasses is the number of classes P of the Wikipedia data (§7.1);
// newsClasses is that of 20 Newsgroups.
const (
	wikiClasses = 25
	newsClasses = 20
)

// Terms of the 20 Newsgroups corpus of the timing runs: the terms of
// highest document frequency (modelCorpus), enough that the largest
// ungrouped model, K = 100 + 20·40 = 900, has K ≤ min(M, N).
const (
	newsTimingVocab      = 2000
	newsTimingVocabQuick = 1000
)

// timingClasses is the number of classes P of a data set of tables6-7.
var timingClasses = map[string]int{wikiData: wikiClasses, newsData: newsClasses}

// timingIters is the number of iterations of every timing run; the mean of
// iterations 2..timingIters is reported.
const timingIters = "3"

// groupSplit maps a total number of topics K = Ks + 25·Kc of §7.1 to its
// (Ks, Kc): the paper's settings (10, 4), (20, 8), (50, 20), (100, 40)
// are Ks = 10s, Kc = 4s with K = 110s. The task parameter ktotal names the
// setting by this Wikipedia K on every data set; on a data set of P classes
// the ungrouped models use K = totalTopics(Ks, Kc, P) (20 Newsgroups: 90s).
func groupSplit(k int) (ks, kc int, err error) {
	if k < 110 || k%110 != 0 {
		return 0, 0, fmt.Errorf("task parameter ktotal = %d: want a multiple of 110 (K = Ks + 25·Kc with (Ks, Kc) = s·(10, 4))", k)
	}
	s := k / 110
	return 10 * s, 4 * s, nil
}

// timingMethods are the four families the timing experiments compare:
// RLSI and GRLSI with λ2 = 0.1, NMF and GroupNMF, each run for exactly
// timingIters iterations with the tolerance test off.
func timingMethods() []experiments.MethodSpec {
	common := map[string]string{"iters": timingIters, "tol": "-1"}
	withL2 := map[string]string{"iters": timingIters, "tol": "-1", "lambda2": "0.1"}
	return []experiments.MethodSpec{
		{Label: labelRLSI, Name: "rlsi", Params: withL2},
		{Label: labelGRLSI, Name: "grouprlsi", Params: withL2},
		{Label: labelNMF, Name: "nmf", Params: common},
		{Label: labelGroupNMF, Name: "groupnmf", Params: common},
	}
}

// totalTopics is the number of topics K = Ks + P·Kc of a group model with
// Ks shared topics and Kc topics for each of P classes (GMF §3.1).
func totalTopics(ks, kc, p int) int { return ks + p*kc }

// timingMetrics define the metrics of timingResult; absent says when a job
// records none ("" when every job does).
func timingMetrics(absent string) []experiments.MetricDef {
	if absent != "" {
		absent = "; absent " + absent
	}
	return []experiments.MetricDef{
		{Name: "sec_per_iter", Definition: "mean wall-clock seconds of iterations 2 to " + timingIters + " (the first includes warm-up), from the recorded per-iteration times" + absent},
		{Name: "first_iter_sec", Definition: "wall-clock seconds of iteration 1"},
		{Name: "objective", Definition: "objective after the last iteration"},
	}
}

// kLabel is the x axis of the timing figures.
const kLabel = "total number of topics K"

// timingFigure is a line of seconds per iteration against the setting
// ktotal for each method, among the jobs matching where, on log–log axes
// (a scaling figure).
func timingFigure(name, title string, where map[string]string, xLabel string) experiments.Figure {
	return experiments.Figure{Name: name, Title: title, Kind: experiments.Line, Source: experiments.FromMetrics,
		X: "ktotal", Y: "sec_per_iter", Series: []string{experiments.ColMethod}, Where: where, XLabel: xLabel, YLabel: "seconds per iteration", Scaling: true}
}

// timingPaperValues are the paper's times per iteration of one method
// (table: by K, then λ1 in the order of lambda1s, in minutes) converted to
// seconds, as sec_per_iter beside
// ours at (ktotal, lambda1) among the jobs matching where, with the note
// "<name>: <note>".
func timingPaperValues(where map[string]string, label, name string, table map[int][4]float64, note string) []experiments.PaperValue {
	var pv []experiments.PaperValue
	for _, k := range slices.Sorted(maps.Keys(table)) {
		for i, l := range lambda1s {
			w := maps.Clone(where)
			w[experiments.ColMethod], w["ktotal"], w["lambda1"] = label, strconv.Itoa(k), l
			// The paper's tables are in minutes; the column is seconds.
			pv = append(pv, experiments.PaperValue{Where: w, Metric: "sec_per_iter", Value: 60 * table[k][i], Note: name + ": " + note})
		}
	}
	return pv
}

// Paper's Tables 6 and 7 (minutes per iteration on Wikipedia, 100
// iterations), by K and then λ1 = 0.01, 0.02, 0.05, 0.1. Table 7's rows
// K = 550 and K = 1100 are printed apart from its header in the text
// extraction (after the column of §7's first page); its last cell is 97.13.
var (
	table6 = map[int][4]float64{
		110: {19.49, 19.02, 16.73, 14.91}, 220: {44.13, 43.64, 34.63, 27.26},
		550: {110.35, 93.47, 90.45, 89.92}, 1100: {342.59, 332.33, 318.27, 307.67},
	}
	table7 = map[int][4]float64{
		110: {14.99, 14.01, 13.95, 14.05}, 220: {23.27, 22.88, 22.68, 22.47},
		550: {51.95, 50.17, 48.25, 48.07}, 1100: {106.13, 104.13, 99.03, 97.13},
	}
	lambda1s = []string{"0.01", "0.02", "0.05", "0.1"}
)

// Tables67 is the experiment "gmf2012/tables6-7".
func Tables67() *experiments.Experiment {
	wikiNote := "the paper's minutes per iteration × 60, on 2.8M Wikipedia articles; compare ratios only"
	pv := append(timingPaperValues(map[string]string{experiments.ColDataset: wikiData}, labelRLSI, "Table 6", table6, wikiNote),
		timingPaperValues(map[string]string{experiments.ColDataset: wikiData}, labelGRLSI, "Table 7", table7, wikiNote)...)
	wiki := map[string]string{experiments.ColDataset: wikiData}
	news := map[string]string{experiments.ColDataset: newsData}
	with := func(base map[string]string, kv ...string) map[string]string {
		out := maps.Clone(base)
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	newsX := "setting, named by its Wikipedia K (20 Newsgroups K = 90, 180, 450, 900)"
	return &experiments.Experiment{
		ID:    "gmf2012/tables6-7",
		Title: "Time per iteration of RLSI against Group RLSI and NMF against Group NMF (Wikipedia-like, 20 Newsgroups)",
		Paper: experiments.PaperRef{Reference: thePaper, Cite: paperCite, Where: "§7.2 Experiment 1, Tables 6 and 7, Figures 2 and 3"},
		// Version 2 adds 20 Newsgroups and the metric k. The Wikipedia-like
		// jobs keep Version 1's configurations and derived seeds; their run
		// ids change anyway, since ids include the git revision.
		Version: "2",

		Datasets: []string{wikiData, newsData},
		Corpus:   tables67Corpus,
		Methods:  timingMethods(),
		Grid: map[string][]string{
			"ktotal":  {"110", "220", "550", "1100"},
			"lambda1": lambda1s,
		},
		TaskParams: []string{"ktotal"},
		Seed:       20120812,
		Task:       tables67Task,

		Metrics: append(timingMetrics(""), []experiments.MetricDef{
			{Name: "k", Definition: "total number of topics K = Ks + P·Kc of the job's setting on its data set (P = 25 Wikipedia-like, 20 for 20 Newsgroups); the ungrouped models use this K, the group models (Ks, Kc)"},
			{Name: "ks", Definition: "shared topics Ks of the setting: ktotal/110 · 10"},
			{Name: "kc", Definition: "topics per class Kc of the setting: ktotal/110 · 4"},
		}...),
		Tables: []experiments.Table{
			{Name: "table6", Title: "Table 6: seconds per iteration of RLSI (Wikipedia-like)", Rows: []string{"ktotal", "lambda1"}, Metrics: []string{"sec_per_iter"}, Where: with(wiki, experiments.ColMethod, labelRLSI), Digits: 3},
			{Name: "table7", Title: "Table 7: seconds per iteration of GRLSI (Wikipedia-like)", Rows: []string{"ktotal", "lambda1"}, Metrics: []string{"sec_per_iter"}, Where: with(wiki, experiments.ColMethod, labelGRLSI), Digits: 3},
			{Name: "nmf", Title: "Seconds per iteration of NMF and GroupNMF (Wikipedia-like; the paper's Figure 3)", Rows: []string{"method", "ktotal"}, Metrics: []string{"sec_per_iter", "first_iter_sec"}, Where: with(wiki, "lambda1", ""), Digits: 3},
			{Name: "table6-20ng", Title: "Table 6 on 20 Newsgroups: seconds per iteration of RLSI (rows: the setting's Wikipedia K; k: the K used, Ks + 20·Kc)", Rows: []string{"ktotal", "lambda1"}, Metrics: []string{"k", "sec_per_iter"}, Where: with(news, experiments.ColMethod, labelRLSI), Digits: 3},
			{Name: "table7-20ng", Title: "Table 7 on 20 Newsgroups: seconds per iteration of GRLSI (rows: the setting's Wikipedia K; k = Ks + 20·Kc)", Rows: []string{"ktotal", "lambda1"}, Metrics: []string{"k", "sec_per_iter"}, Where: with(news, experiments.ColMethod, labelGRLSI), Digits: 3},
			{Name: "nmf-20ng", Title: "Seconds per iteration of NMF and GroupNMF on 20 Newsgroups (rows: the setting's Wikipedia K; k = Ks + 20·Kc)", Rows: []string{"method", "ktotal"}, Metrics: []string{"k", "sec_per_iter", "first_iter_sec"}, Where: with(news, "lambda1", ""), Digits: 3},
		},
		Figures: []experiments.Figure{
			timingFigure("figure2", "Seconds per iteration of RLSI and GRLSI against K (λ1 = 0.01, Wikipedia-like)", with(wiki, "lambda1", "0.01"), kLabel),
			timingFigure("figure3", "Seconds per iteration of NMF and GroupNMF against K (Wikipedia-like)", with(wiki, "lambda1", ""), kLabel),
			timingFigure("figure2-20ng", "Seconds per iteration of RLSI and GRLSI (λ1 = 0.01, 20 Newsgroups)", with(news, "lambda1", "0.01"), newsX),
			timingFigure("figure3-20ng", "Seconds per iteration of NMF and GroupNMF (20 Newsgroups)", with(news, "lambda1", ""), newsX),
		},
		PaperValues: pv,
		Claims: []experiments.Claim{
			speedupClaim("Wikipedia-like: GRLSI is faster per iteration than RLSI at every K, and its speedup grows with K",
				"§7.2: \"GRLSI and GroupNMF consistently outperform RLSI and NMF ... More speedup can be achieved when total number of topics increases\" (Tables 6–7, Figure 2)",
				wikiData, labelRLSI, labelGRLSI, true),
			speedupClaim("Wikipedia-like: GroupNMF is faster per iteration than NMF at every K, and its speedup grows with K",
				"§7.2 (Figure 3)",
				wikiData, labelNMF, labelGroupNMF, false),
			speedupClaim("20 Newsgroups: GRLSI is faster per iteration than RLSI at every K, and its speedup grows with K",
				"§7.2, the same claim on a public corpus of 20 classes (the paper has no 20 Newsgroups timings)",
				newsData, labelRLSI, labelGRLSI, false),
			speedupClaim("20 Newsgroups: GroupNMF is faster per iteration than NMF at every K, and its speedup grows with K",
				"§7.2 (Figure 3), on a public corpus of 20 classes",
				newsData, labelNMF, labelGroupNMF, false),
		},
		Quick: experiments.Quick{
			Grid: map[string][]string{"ktotal": {"110", "220"}, "lambda1": {"0.01"}},
		},
		Substitutes: "Wikipedia (610,035 terms × 2,807,535 articles, 25 classes) is not public. A synthetic Wikipedia-like corpus stands in " +
			"(datasets/synthetic preset wikipedia-like: 25 classes with Table 5's class-size shape, planted (Ks, Kc) = (10, 4), log-normal " +
			"lengths of mean 100, raw counts) at 2,000 terms × 4,000 documents (quick: 1,000 × 1,000), so that K = 1100 fits (K ≤ min(M, N)) " +
			"and the Wikipedia-like grid (40 jobs of 3 iterations) runs in roughly 10–15 minutes on 2 cores: measured one job at a time, iteration 2 took " +
			"43 s for RLSI at K = 1100 (6 s for iteration 1), 6 s for RLSI at K = 550, 0.8 s for GRLSI at (100, 40), 1.4 s for NMF at K = 1100 " +
			"and 0.13 s for GroupNMF at (100, 40). " +
			"Rounding to whole documents leaves the smallest classes with a single document. " +
			"The same settings also run on the public 20 Newsgroups train split (20 classes, 11,314 posts; the paper has no timings on it): " +
			"unit-length tf-idf documents over the " + strconv.Itoa(newsTimingVocab) + " terms of highest document frequency among those of total " +
			"frequency ≥ 10 (the corpus of gmf2012/tables10-11; quick: " + strconv.Itoa(newsTimingVocabQuick) + " terms), so that K = 900 ≤ min(M, N). " +
			"Measured one job at a time on the busy machine (load ≈ 9), iteration 2 took 51 s for RLSI at K = 900 (16 s for iteration 1), " +
			"16 s for RLSI at K = 450, 3.1 s for GRLSI at (100, 40), 8.4 s for NMF at K = 900 and 0.8 s for GroupNMF at (100, 40): " +
			"its 40 jobs add roughly 12 minutes.",
		Protocol: "RLSI and GRLSI (λ2 = 0.1, λ1 ∈ {0.01, 0.02, 0.05, 0.1}), NMF and GroupNMF (no λ), (Ks, Kc) = (10, 4), (20, 8), (50, 20), (100, 40) " +
			"for the group methods (§7.1: the paper's per-class settings, used on both data sets) and K = Ks + P·Kc for the others: " +
			"110, 220, 550, 1100 on the Wikipedia-like corpus (P = 25), 90, 180, 450, 900 on 20 Newsgroups (P = 20). The grid parameter ktotal " +
			"names a setting by its Wikipedia K on both data sets; the metric k is the K used. Exactly " + timingIters + " iterations " +
			"(the paper: 100) with the tolerance test off, random initialization from each job's derived seed. Time per iteration is the " +
			"mean of the recorded wall-clock seconds of iterations 2.." + timingIters + ". Quick: 1,000 × 1,000 Wikipedia-like, " +
			strconv.Itoa(newsTimingVocabQuick) + "-term 20 Newsgroups, settings ktotal ∈ {110, 220}, λ1 = 0.01. " +
			"Jobs share the machine's cores (and the machine is shared), so times are indicative; the claims compare ratios at the same K " +
			"on the same data set. The paper reports minutes on 2.8M documents: its numbers are printed beside ours only for their ratios.",
	}
}

// tables67Corpus is the timing corpus of a job: the Wikipedia-like corpus,
// or 20 Newsgroups' model corpus with newsTimingVocab terms.
func tables67Corpus(j *experiments.Job) (experiments.CorpusSpec, error) {
	vocab := newsTimingVocab
	if j.Quick {
		vocab = newsTimingVocabQuick
	}
	return corpusSpec(j.Dataset, j.Quick, vocab), nil
}

func tables67Task(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
	k, err := j.IntParam("ktotal", 0)
	if err != nil {
		return nil, err
	}
	ks, kc, err := groupSplit(k)
	if err != nil {
		return nil, fmt.Errorf("experiment %s: %w", j.Experiment.ID, err)
	}
	want, ok := timingClasses[j.Dataset]
	if !ok {
		return nil, fmt.Errorf("experiment %s: data set %q has no timing corpus (known: %s, %s)", j.Experiment.ID, j.Dataset, wikiData, newsData)
	}
	corpus, err := j.BuildCorpus()
	if err != nil {
		return nil, err
	}
	if len(corpus.ClassNames) != want {
		return nil, fmt.Errorf("experiment %s: corpus %s has %d classes, want %d", j.Experiment.ID, corpus.Name, len(corpus.ClassNames), want)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, kTotal, err := j.FitTopics(ctx, corpus, ks, kc)
	if err != nil {
		return nil, err
	}
	res, err := timingResult(j, f)
	if err != nil {
		return nil, err
	}
	res.AddMetric("k", float64(kTotal))
	res.AddMetric("ks", float64(ks))
	res.AddMetric("kc", float64(kc))
	return res, nil
}

// timingResult starts the job's result from the fit with the timing
// metrics sec_per_iter, first_iter_sec and objective.
func timingResult(j *experiments.Job, f *experiments.Fit) (*experiments.Result, error) {
	res, rec, status := f.NewResult(j), f.Recorder, f.Status
	its := rec.Iterations()
	if len(its) == 0 {
		return nil, fmt.Errorf("%s: the fit recorded no iteration", j.Label())
	}
	res.AddMetric("sec_per_iter", experiments.SecondsPerIteration(its))
	res.AddMetric("first_iter_sec", its[0].Seconds)
	res.AddMetric("objective", status.Objective)
	return res, nil
}

// speedups returns, for each setting (ktotal) present for both methods on
// the data set, the ratio of the mean seconds per iteration of base over
// group (means over λ1 and replicates), sorted by ktotal.
func speedups(r *experiments.Results, dataset, base, group string) (ks []int, ratio []float64) {
	mean := func(label string) map[int]float64 {
		out := map[int]float64{}
		for _, g := range r.Groups("sec_per_iter", []string{"ktotal"}, map[string]string{experiments.ColDataset: dataset, experiments.ColMethod: label}) {
			k, err := strconv.Atoi(g.Key[0])
			if err != nil || g.N == 0 {
				continue
			}
			out[k] = g.Mean
		}
		return out
	}
	b, g := mean(base), mean(group)
	for k := range b {
		if _, ok := g[k]; ok && g[k] > 0 {
			ks = append(ks, k)
		}
	}
	sort.Ints(ks)
	for _, k := range ks {
		ratio = append(ratio, b[k]/g[k])
	}
	return ks, ratio
}

// settingK is the K used on dataset for the setting named ktotal (itself
// when the data set's P is unknown or the setting invalid).
func settingK(dataset string, ktotal int) int {
	p, ok := timingClasses[dataset]
	ks, kc, err := groupSplit(ktotal)
	if !ok || err != nil {
		return ktotal
	}
	return totalTopics(ks, kc, p)
}

// speedupClaim is the claim judged by judgeSpeedup(r, dataset, base,
// group, paperRLSI).
func speedupClaim(statement, source, dataset, base, group string, paperRLSI bool) experiments.Claim {
	return experiments.Claim{Statement: statement, Source: source, Judge: func(r *experiments.Results) experiments.Verdict {
		return judgeSpeedup(r, dataset, base, group, paperRLSI)
	}}
}

// judgeSpeedup: held when the group method is faster (ratio > 1) at every
// K of the data set and the ratio never decreases from one K to the next;
// at least two K are needed. paperRLSI prints the ratios of Tables 6–7.
func judgeSpeedup(r *experiments.Results, dataset, base, group string, paperRLSI bool) experiments.Verdict {
	ks, ratio := speedups(r, dataset, base, group)
	var parts []string
	for i, k := range ks {
		s := fmt.Sprintf("K=%d: %.2f×", settingK(dataset, k), ratio[i])
		if p, ok := table6[k]; paperRLSI && ok {
			s += fmt.Sprintf(" (paper at λ1 = 0.01: %.2f×)", p[0]/table7[k][0])
		}
		parts = append(parts, s)
	}
	detail := fmt.Sprintf("%s: %s/%s seconds per iteration, mean over λ1: %s", dataset, base, group, strings.Join(parts, ", "))
	if len(ks) < 2 {
		return experiments.Undecided(detail + "; fewer than two K with both methods")
	}
	for i := range ratio {
		if ratio[i] <= 1 {
			return experiments.Judged(false, detail+fmt.Sprintf("; %s is not faster at K = %d", group, settingK(dataset, ks[i])))
		}
		if i > 0 && ratio[i] < ratio[i-1] {
			return experiments.Judged(false, detail+fmt.Sprintf("; the speedup falls from K = %d to K = %d", settingK(dataset, ks[i-1]), settingK(dataset, ks[i])))
		}
	}
	return experiments.Judged(true, detail)
}
