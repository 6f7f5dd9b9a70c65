package tnmf2013

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/symmetric"
	"github.com/topicmf/topicmf/engine/tnmf"
	"github.com/topicmf/topicmf/experiments"
)

func init() { experiments.Register(Figures24()) }

// Thresholds of the Figures 2–4 claims, fixed before any run.
const (
	// DensityRatio is how many times denser than the document-vector
	// correlation the term correlation S must be for "≫" (one order of
	// magnitude; the paper's Tweets give 0.8835 / 0.0415 ≈ 21).
	DensityRatio = 10
	// FlatVocab is the largest ratio V(full) / V(10%) of df ≥ 4
	// vocabularies that still counts as "the vocabulary size almost keeps
	// the same" over a tenfold growth of the collection (Figure 2).
	FlatVocab = 1.2
	// RareShare is the share of terms with df < 10 that counts as "a large
	// proportion" (Figure 4): a majority.
	RareShare = 0.5
)

// dfBuckets are the document-frequency classes of Figure 4: [lo, hi).
var dfBuckets = []struct {
	name   string
	lo, hi int
}{
	{"df_1", 1, 2}, {"df_2_3", 2, 4}, {"df_4_9", 4, 10}, {"df_10_99", 10, 100}, {"df_100up", 100, math.MaxInt},
}

// Figures24 is the experiment "tnmf2013/figure2-4".
func Figures24() *experiments.Experiment {
	fracs := []string{"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"}
	full := map[string]string{"fraction": "1"}
	dfMetrics := make([]string, 0, len(dfBuckets)+1)
	for _, b := range dfBuckets {
		dfMetrics = append(dfMetrics, "share_"+b.name)
	}
	dfMetrics = append(dfMetrics, "share_df_lt10")
	var pv []experiments.PaperValue
	pv = append(pv,
		experiments.PaperValue{Where: map[string]string{experiments.ColDataset: Tweet, "fraction": "1"}, Metric: "density_s", Value: 0.8835, Note: "Figure 3(b), the paper's Tweets (different data)"},
		experiments.PaperValue{Where: map[string]string{experiments.ColDataset: Tweet, "fraction": "1"}, Metric: "density_docvec", Value: 0.0415, Note: "Figure 3(a), the paper's Tweets (different data)"},
	)
	return &experiments.Experiment{
		ID:      "tnmf2013/figure2-4",
		Title:   "Vocabulary growth, correlation densities and term document frequencies",
		Paper:   paperRef("§1 Figure 2, §3.1 Figure 3, §5.1 Figure 4"),
		Version: "1",

		Datasets:   allSets,
		Checksums:  experiments.CorpusChecksums(figures24Specs),
		Grid:       map[string][]string{"fraction": fracs},
		TaskParams: []string{"fraction"},
		Seed:       20130502,
		Task:       figures24Task,

		Metrics: []experiments.MetricDef{
			{Name: "documents", Definition: "documents in the prefix (the first fraction·N documents of one fixed random order of the collection)"},
			{Name: "vocab_df4", Definition: "terms with document frequency ≥ 4 in the prefix (Figure 2's threshold)"},
			{Name: "vocab_df10", Definition: "terms with document frequency ≥ 10 in the prefix (§5.1's threshold)"},
			{Name: "vocab_all", Definition: "distinct terms in the prefix, no pruning"},
			{Name: "density_s", Definition: "fraction of non-zero entries of the M×M term correlation S (cosines of PPMI co-occurrence vectors, engine/tnmf, §3.1) on the prefix's df ≥ 10 corpus (Figure 3(b))"},
			{Name: "density_docvec", Definition: "fraction of non-zero entries of the M×M cosine matrix of the terms' tf-idf document vectors, same corpus (Figure 3(a))"},
			{Name: "density_ratio", Definition: "density_s / density_docvec"},
			{Name: "share_df_1", Definition: "share of the distinct terms of the whole collection (no pruning) with df = 1; share_df_2_3, share_df_4_9, share_df_10_99, share_df_100up likewise (Figure 4)"},
			{Name: "share_df_lt10", Definition: "share of the distinct terms with df < 10"},
		},
		Tables: []experiments.Table{
			{
				Name: "vocabulary", Title: "Vocabulary size as the collection grows (Figure 2)",
				Rows: []string{experiments.ColDataset, "fraction"}, Metrics: []string{"documents", "vocab_all", "vocab_df4", "vocab_df10"}, Digits: 0,
			},
			{
				Name: "density", Title: "Density of the two term correlation matrices, df ≥ 10 corpus (Figure 3)",
				Rows: []string{experiments.ColDataset, "fraction"}, Metrics: []string{"density_s", "density_docvec", "density_ratio"}, Digits: 4,
			},
			{
				Name: "df-distribution", Title: "Share of terms by document frequency, whole collection without pruning (Figure 4)",
				Rows: []string{experiments.ColDataset}, Metrics: dfMetrics, Where: full, Digits: 3,
			},
		},
		Figures: []experiments.Figure{
			{
				Name: "figure2-vocabulary", Title: "Terms with df ≥ 4 as the collection grows",
				Kind: experiments.Line, Source: experiments.FromMetrics, X: "fraction", Y: "vocab_df4",
				Series: []string{experiments.ColDataset}, XLabel: "fraction of the collection", YLabel: "vocabulary (df ≥ 4)",
			},
			{
				Name: "figure3-density-s", Title: "Density of the term correlation S (PPMI co-occurrence vectors)",
				Kind: experiments.Line, Source: experiments.FromMetrics, X: "fraction", Y: "density_s",
				Series: []string{experiments.ColDataset}, XLabel: "fraction of the collection", YLabel: "density of S",
			},
			{
				Name: "figure3-density-docvec", Title: "Density of the document-vector term correlation",
				Kind: experiments.Line, Source: experiments.FromMetrics, X: "fraction", Y: "density_docvec",
				Series: []string{experiments.ColDataset}, XLabel: "fraction of the collection", YLabel: "density", LogY: true,
			},
			{
				Name: "figure4-rare-terms", Title: "Share of terms with document frequency < 10",
				Kind: experiments.Bar, Source: experiments.FromMetrics, X: experiments.ColDataset, Y: "share_df_lt10",
				Series: []string{"fraction"}, Where: full, XLabel: "data set", YLabel: "share of terms",
			},
		},
		PaperValues: pv,
		Claims: []experiments.Claim{
			{
				Statement: fmt.Sprintf("The term correlation S is much denser than the document-vector correlation: density ratio ≥ %d on every data set (whole collection)", DensityRatio),
				Source:    "§3.1, Figure 3 (0.8835 vs 0.0415 on Tweets)",
				Judge:     judgeDensity,
			},
			{
				Statement: "Vocabulary growth slows: the second half of the collection adds fewer df ≥ 4 terms than the first half brings, on every data set",
				Source:    "§1, Figure 2",
				Judge:     judgeSlowing,
			},
			{
				Statement: fmt.Sprintf("The df ≥ 4 vocabulary almost keeps the same as the collection grows tenfold: V(100%%) / V(10%%) ≤ %.1f on every data set", FlatVocab),
				Source:    "§1, Figure 2 (10⁴ to 10⁵ tweets)",
				Judge:     judgeFlat,
			},
			{
				Statement: fmt.Sprintf("A large proportion of terms occur in fewer than 10 documents: share ≥ %.1f on every data set", RareShare),
				Source:    "§5.1, Figure 4",
				Judge:     judgeRare,
			},
		},
		Quick: experiments.Quick{
			Datasets: []string{Tweet, SearchSnippets},
			Grid:     map[string][]string{"fraction": {"0.1", "0.5", "1"}},
		},
		Protocol: "The documents of each collection are put in one random order (from the experiment's root seed, the same for every fraction, so prefixes are nested); " +
			"the first ⌈fraction·N⌉ documents form the prefix, run through datasets/text (default tokenizer, no stop list, no stemming, tf-idf) with min df 1, 4 and 10. " +
			"Densities are those of S (engine/tnmf TermCorrelation, per-document co-occurrence counts, PPMI, cosine) and of the cosine of the rows of D, both on the df ≥ 10 corpus of the prefix; " +
			"the diagonal counts as stored by engine/tnmf (S has a zero diagonal by construction). Figure 4's shares are over the distinct terms of the whole collection without pruning. " +
			"--quick: Tweet and SearchSnippets, fractions 0.1, 0.5, 1.",
		Substitutes: substitutes,
	}
}

// figures24Corpus is the job's prefix of the collection in one random
// order (the root seed's, the same for every fraction, so prefixes are
// nested) as tf-idf with the given min df.
func figures24Corpus(j *experiments.Job, minDF int) (experiments.CorpusSpec, error) {
	fs := j.Param("fraction", "1")
	fraction, err := strconv.ParseFloat(fs, 64)
	if err != nil || !(fraction > 0 && fraction <= 1) {
		return experiments.CorpusSpec{}, fmt.Errorf("experiment %s: task parameter fraction = %q: want a number in (0, 1]", j.Experiment.ID, fs)
	}
	return experiments.CorpusSpec{Collection: j.Dataset, Subsample: fraction,
		SubsampleSeed: engine.DeriveSeed(j.RootSeed, j.Experiment.ID, "order", j.Dataset),
		Text:          corpusOptions(minDF, "tfidf")}, nil
}

// figures24Specs are the job's corpora: the prefix without pruning, and
// with the paper's min df (the term correlations).
func figures24Specs(j *experiments.Job) ([]experiments.CorpusSpec, error) {
	raw, err := figures24Corpus(j, 1)
	if err != nil {
		return nil, err
	}
	pruned := raw
	pruned.Text = corpusOptions(PaperMinDF, "tfidf")
	return []experiments.CorpusSpec{raw, pruned}, nil
}

func figures24Task(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
	res := &experiments.Result{}
	specs, err := figures24Specs(j)
	if err != nil {
		return nil, err
	}
	spec := specs[0]
	raw, err := experiments.BuildCorpus(spec)
	if err != nil {
		return nil, err
	}
	res.AddMetric("documents", float64(raw.Report.Documents))
	res.AddMetric("vocab_all", float64(raw.Terms()))
	df := documentFrequencies(raw.Corpus)
	for _, min := range []int{Figure2MinDF, PaperMinDF} {
		n := 0
		for _, d := range df {
			if d >= min {
				n++
			}
		}
		res.AddMetric("vocab_df"+strconv.Itoa(min), float64(n))
	}
	if spec.Subsample == 1 {
		var lt10 int
		for _, b := range dfBuckets {
			n := 0
			for _, d := range df {
				if d >= b.lo && d < b.hi {
					n++
				}
			}
			res.AddMetric("share_"+b.name, float64(n)/float64(len(df)))
		}
		for _, d := range df {
			if d < 10 {
				lt10++
			}
		}
		res.AddMetric("share_df_lt10", float64(lt10)/float64(len(df)))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := experiments.BuildCorpus(specs[1])
	if err != nil {
		return nil, err
	}
	corr, err := tnmf.TermCorrelation(nil, c.D, c.DT, tnmf.PerDocument, symmetric.StorageAuto)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", j.Label(), err)
	}
	dv := tnmf.DocumentVectorCorrelation(nil, c.D, symmetric.StorageSparse)
	res.AddMetric("terms_df10", float64(c.Terms()))
	res.AddMetric("density_s", corr.S.Density())
	res.AddMetric("density_docvec", dv.Density())
	if dv.Density() > 0 {
		res.AddMetric("density_ratio", corr.S.Density()/dv.Density())
	}
	return res, nil
}

// documentFrequencies returns df(t) for every term of c (non-zero entries
// of the term's row of D; a zero-idf term, present in every document, has
// an empty row and df N).
func documentFrequencies(c *engine.Corpus) []int {
	df := make([]int, c.Terms())
	for i := range df {
		df[i] = c.D.RowPtr[i+1] - c.D.RowPtr[i]
		if df[i] == 0 {
			df[i] = c.Docs()
		}
	}
	return df
}

// perDataset collects metric at the given fraction, by data set.
func perDataset(r *experiments.Results, metric, fraction string) map[string]float64 {
	out := map[string]float64{}
	for _, jr := range r.Select(map[string]string{"fraction": fraction}) {
		if v, ok := jr.Run.Metric(metric); ok {
			out[jr.Job.Dataset] = v
		}
	}
	return out
}

// verdictAll is Held when ok holds for every data set, with the values in
// the detail.
func verdictAll(vals map[string]float64, format string, ok func(float64) bool, threshold string) experiments.Verdict {
	if len(vals) == 0 {
		return experiments.Undecided("no run with the needed fraction")
	}
	held, values := allHold(vals, format, func(_ string, v float64) bool { return ok(v) })
	return experiments.Judged(held, values+"; "+threshold)
}

// allHold reports whether ok holds for every named value, and lists them
// in name order as "<name> <value>" (value printed with format), joined by
// ", ".
func allHold(vals map[string]float64, format string, ok func(name string, v float64) bool) (bool, string) {
	names := slices.Sorted(maps.Keys(vals))
	held := true
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + " " + fmt.Sprintf(format, vals[k])
		held = held && ok(k, vals[k])
	}
	return held, strings.Join(parts, ", ")
}

func judgeDensity(r *experiments.Results) experiments.Verdict {
	return verdictAll(perDataset(r, "density_ratio", "1"), "%.1f", func(v float64) bool { return v >= DensityRatio },
		fmt.Sprintf("density(S) / density(document vectors), threshold ≥ %d", DensityRatio))
}

// ratios returns num(fraction a) op den(fraction b) for data sets having both.
func ratios(r *experiments.Results, metric, a, b string, f func(x, y float64) float64) map[string]float64 {
	x, y := perDataset(r, metric, a), perDataset(r, metric, b)
	out := map[string]float64{}
	for k, v := range x {
		if w, ok := y[k]; ok {
			out[k] = f(v, w)
		}
	}
	return out
}

func judgeSlowing(r *experiments.Results) experiments.Verdict {
	// (V(1) − V(0.5)) / V(0.5): below 1 when the second half adds fewer
	// terms than the first half brings.
	v := ratios(r, "vocab_df4", "1", "0.5", func(full, half float64) float64 { return (full - half) / half })
	return verdictAll(v, "%.3f", func(x float64) bool { return x < 1 },
		"(V(100%) − V(50%)) / V(50%) of df ≥ 4 vocabularies, threshold < 1")
}

func judgeFlat(r *experiments.Results) experiments.Verdict {
	v := ratios(r, "vocab_df4", "1", "0.1", func(full, tenth float64) float64 { return full / tenth })
	return verdictAll(v, "%.2f", func(x float64) bool { return x <= FlatVocab },
		fmt.Sprintf("V(100%%) / V(10%%) of df ≥ 4 vocabularies, threshold ≤ %.1f", FlatVocab))
}

func judgeRare(r *experiments.Results) experiments.Verdict {
	return verdictAll(perDataset(r, "share_df_lt10", "1"), "%.3f", func(v float64) bool { return v >= RareShare },
		fmt.Sprintf("share of distinct terms with df < 10, threshold ≥ %.1f", RareShare))
}
