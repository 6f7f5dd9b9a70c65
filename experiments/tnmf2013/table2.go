package tnmf2013

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/metrics/coherence"
	"github.com/topicmf/topicmf/metrics/topics"
)

func init() { experiments.Register(Table2()) }

// TopWords is the number of words shown per topic (Table 2: top 5).
const TopWords = 5

// Table2 is the experiment "tnmf2013/table2": top words of the topics each
// method learns on Tweet at K = 20. SymNMF learns no term-topic matrix and
// is left out, as in the paper.
func Table2() *experiments.Experiment {
	var methods []experiments.MethodSpec
	for _, m := range shortTextMethods() {
		if m.Label != SymNMF {
			methods = append(methods, m)
		}
	}
	return &experiments.Experiment{
		ID:      "tnmf2013/table2",
		Title:   "Top words of the topics learned on Tweet (K = 20)",
		Paper:   paperRef("§5.3, Table 2"),
		Version: "3", // 2: npmi, cv, td25; 3: top words in top-words.csv and in the section

		Datasets: []string{Tweet},
		Methods:  methods,
		Grid:     map[string][]string{"k": {"20"}},
		Seed:     20130504,
		Corpus:   func(j *experiments.Job) (experiments.CorpusSpec, error) { return corpusSpec(j), nil },
		Fit:      table2Task,

		Metrics: []experiments.MetricDef{
			{Name: "distinct_top_words", Definition: "distinct words among the K topics' top-5 words, divided by 5K (1: no word shared by two topics)"},
			{Name: "avgcomp", Definition: "AvgComp of U: mean over topics of the fraction of non-zero term weights"},
			{Name: "cluster_purity_top", Definition: "mean over topics of the largest share of the topic's top-5 words whose most frequent Tweet query cluster is the same (how often a topic's top words point to one query)"},
			quality.Metrics[0], quality.Metrics[1], quality.Metrics[2],
		},
		Tables: []experiments.Table{{
			Name: "topics", Title: "Properties of the top words (the words themselves are in the next table)",
			Rows: []string{experiments.ColMethod}, Metrics: []string{"distinct_top_words", "cluster_purity_top", "avgcomp", "npmi", "cv", "td25"},
		}},
		TextTables: []experiments.TextTable{{
			Name: "top-words", Title: fmt.Sprintf("Top %d words of every topic at K = 20 (Table 2 lists 4 hand-picked topics per method; all 20 are here)", TopWords),
			Build: topWordsTable,
		}},
		Claims: []experiments.Claim{{
			Statement: "TNMF_E and TNMF_I give the most distinct topics: their share of distinct top-5 words is at least every baseline's (a proxy for \"much more compact topics with the best readability\")",
			Source:    "§5.3, last conclusion (qualitative in the paper)",
			Judge:     judgeDistinct,
		}, quality.CoherenceNote(experiments.ColMethod, "distinct_top_words", false, nil)},
		Quick: experiments.Quick{Params: map[string]string{"iters": "15"}},
		Protocol: "Tweet through datasets/text with terms of df < 10 removed (§5.1), tf-idf (counts for LDA); each method fitted once at K = 20 with catalog defaults " +
			"(LDA: collapsed Gibbs, α = 50/K, β = 0.1, 500 sweeps: ours; the paper ran GibbsLDA++ (§5.2, footnote 4) with parameters \"tuned to best manually\" and not stated, and the tool's documented default is 2,000 Gibbs iterations with α = 50/K, β = 0.1; " +
			"--quick: 15 iterations or sweeps). The top 5 words of every topic (largest weights of U's column; LDA's φ) are written to top-words.csv in the run directory and listed in the section. " +
			"The paper hand-picked 4 matching topics per method; we list all 20 and report proxies and coherence, not readability.",
		Substitutes: "The paper's Tweet data (TREC 2011 microblog subset, 4,520 posts after preprocessing) is replaced by sttm-tweet " +
			"(2,472 tweets relevant to TREC 2011/2012 microblog queries, 89 query clusters; 408 terms with df ≥ 10), so the paper's topics (Egypt, Super Bowl, ...) need not appear.",
	}
}

func table2Task(_ context.Context, j *experiments.Job, f *experiments.Fit) (*experiments.Result, error) {
	corpus, model := f.Corpus.Corpus, f.Model
	res := &experiments.Result{}
	rep, err := quality.AddMetricsReport(res, j, f)
	if err != nil {
		return nil, err
	}
	U := model.TermTopics()
	top := topics.TopTerms(U, corpus.Vocab, TopWords)
	if rep == nil || len(rep.Topics) != len(top) {
		return nil, fmt.Errorf("table2: %d topics scored for coherence, want %d", topicCount(rep), len(top))
	}
	seen := map[string]bool{}
	total := 0
	for _, t := range top {
		for _, w := range topics.Words(t) {
			seen[w] = true
			total++
		}
	}
	if total > 0 {
		res.AddMetric("distinct_top_words", float64(len(seen))/float64(total))
	}
	res.AddMetric("avgcomp", topics.AvgComp(U))
	res.AddMetric("cluster_purity_top", clusterPurityTop(corpus, top))
	res.Artifacts = append(res.Artifacts, experiments.Artifact{
		Name: topWordsFile,
		Write: func(w io.Writer) error {
			cw := csv.NewWriter(w)
			head := []string{"topic"}
			for r := range TopWords {
				head = append(head, fmt.Sprintf("word_%d", r+1))
			}
			cw.Write(append(head, "npmi", "cv"))
			for k, t := range top {
				words := topics.Words(t)
				for len(words) < TopWords {
					words = append(words, "")
				}
				sc := rep.Topics[k].Scores
				cw.Write(append(append([]string{strconv.Itoa(k + 1)}, words...), score(sc, coherence.NPMI), score(sc, coherence.CV)))
			}
			cw.Flush()
			return cw.Error()
		},
	})
	return res, nil
}

// topWordsFile is the run artifact listing each topic's top words: a CSV
// with columns topic (1-based), word_1 … word_TopWords (best first), and
// the topic's NPMI and C_V over its top 10 words (empty when the topic has
// no score).
const topWordsFile = "top-words.csv"

// score formats a topic's coherence score in full precision, "" when the
// topic has none (NaN or absent).
func score(s map[coherence.Measure]float64, m coherence.Measure) string {
	v, ok := s[m]
	if !ok || math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// roundScore shows a stored score with 4 decimals ("–" for a topic
// without one).
func roundScore(v string) (string, error) {
	if v == "" {
		return "–", nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return "", fmt.Errorf("score %q is not a number", v)
	}
	return strconv.FormatFloat(x, 'f', 4, 64), nil
}

func topicCount(rep *quality.Report) int {
	if rep == nil {
		return 0
	}
	return len(rep.Topics)
}

// topWordsTable is the section's table of top words: one row per method
// and topic, in job order, read from each run's top-words.csv.
func topWordsTable(r *experiments.Results) ([]string, [][]string, error) {
	head := []string{experiments.ColMethod, "topic"}
	for i := range TopWords {
		head = append(head, fmt.Sprintf("word %d", i+1))
	}
	head = append(head, "npmi (top 10)", "cv (top 10)")
	var rows [][]string
	for _, j := range r.Jobs {
		path := filepath.Join(j.Dir, topWordsFile)
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(recs) == 0 {
			return nil, nil, fmt.Errorf("%s: empty, want a header line", path)
		}
		for n, rec := range recs[1:] {
			if len(rec) != len(head)-1 {
				return nil, nil, fmt.Errorf("%s line %d: %d fields, want %d (topic, %d words, npmi, cv)", path, n+2, len(rec), len(head)-1, TopWords)
			}
			row := append([]string{j.Job.Method.DisplayName()}, rec[:len(rec)-2]...)
			for _, v := range rec[len(rec)-2:] {
				r, err := roundScore(v)
				if err != nil {
					return nil, nil, fmt.Errorf("%s line %d: %w", path, n+2, err)
				}
				row = append(row, r)
			}
			rows = append(rows, row)
		}
	}
	return head, rows, nil
}

// clusterPurityTop: for each topic, the most frequent class among the
// documents containing each top word (the word's dominant query cluster),
// then the largest share of the topic's top words sharing one dominant
// cluster; averaged over topics.
func clusterPurityTop(c *engine.Corpus, top [][]topics.Term) float64 {
	index := map[string]int{}
	for i, t := range c.Vocab {
		index[t] = i
	}
	dominant := func(term string) int {
		i, ok := index[term]
		if !ok {
			return -1
		}
		count := map[int]int{}
		for p := c.D.RowPtr[i]; p < c.D.RowPtr[i+1]; p++ {
			if l := c.Labels[c.D.ColIdx[p]]; l >= 0 {
				count[l]++
			}
		}
		best, arg := 0, -1
		for _, l := range slices.Sorted(maps.Keys(count)) {
			if count[l] > best {
				best, arg = count[l], l
			}
		}
		return arg
	}
	var sum float64
	n := 0
	for _, t := range top {
		words := topics.Words(t)
		if len(words) == 0 {
			continue
		}
		count := map[int]int{}
		best := 0
		for _, w := range words {
			if d := dominant(w); d >= 0 {
				count[d]++
				best = max(best, count[d])
			}
		}
		sum += float64(best) / float64(len(words))
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func judgeDistinct(r *experiments.Results) experiments.Verdict {
	vals := map[string]float64{}
	for _, jr := range r.Jobs {
		if v, ok := jr.Run.Metric("distinct_top_words"); ok {
			vals[jr.Job.Method.DisplayName()] = v
		}
	}
	te, okE := vals[TNMFE]
	ti, okI := vals[TNMFI]
	if !okE || !okI || len(vals) < 3 {
		return experiments.Undecided("TNMF_E, TNMF_I and at least one baseline are needed")
	}
	held, values := allHold(vals, "%.3f", func(k string, v float64) bool { return k == TNMFE || k == TNMFI || !(v > te || v > ti) })
	detail := "share of distinct top-5 words: " + values
	return experiments.Judged(held, detail)
}
