package rlsi2011

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/metrics/topics"
	"gonum.org/v1/gonum/mat"
)

func init() { experiments.Register(Table67()) }

// thePaper is the RLSI paper, cited in full in the report; paperCite is its
// short citation.
var thePaper = experiments.PaperRLSI2011

const paperCite = "Wang, Xu, Li, Craswell, SIGIR 2011"

// The four RLSI variants (§3–4): which norm regularizes U and which V.
var variants = []struct{ Label, Variant string }{
	{"RLSI (Uℓ1-Vℓ2)", "u1v2"},
	{"RLSI (Uℓ2-Vℓ1)", "u2v1"},
	{"RLSI (Uℓ1-Vℓ1)", "u1v1"},
	{"RLSI (Uℓ2-Vℓ2)", "u2v2"},
}

// Thresholds of the table6-7 claims, fixed before any run.
const (
	// SparseAvgComp is the AvgComp below which topics count as compact
	// (the paper's ℓ1-on-U values are 0.0075 and 0.0197 on AP).
	SparseAvgComp = 0.1
	// DenseAvgComp is the AvgComp from which topics count as dense (the
	// paper reports 1 for both ℓ2-on-U variants).
	DenseAvgComp = 0.99
)

// reutersData is the data set of the topic tables.
const reutersData = "reuters21578"

// topicCorpusOptions is the text pipeline of the topic tables: SMART stop
// list, tokens of ≥ 2 letters, numbers dropped, terms in ≥ minDF training
// documents, at most maxVocab terms (0: all), tf-idf weights.
func topicCorpusOptions(minDF, maxVocab int, weighting string) text.Options {
	return text.Bare(text.Options{StopList: "smart", MinDF: minDF, MaxVocab: maxVocab, Weighting: weighting})
}

// table67Corpus is the corpus of a job: the ModApte training stories of
// Reuters-21578 through the pipeline with the job's min-df and vocab.
func table67Corpus(j *experiments.Job) (experiments.CorpusSpec, error) {
	minDF, vocab, err := table67Params(j)
	if err != nil {
		return experiments.CorpusSpec{}, err
	}
	return experiments.CorpusSpec{Collection: reutersData, Split: "train",
		Text: topicCorpusOptions(minDF, vocab, modelWeighting(j.Method.Name))}, nil
}

// topicTable completes e with what the topic tables (table6-7 and
// table8-topics) share: Reuters-21578's ModApte training stories through
// the pipeline of the task parameters min-df and vocab (table67Corpus),
// and the topic scoring (table67Task).
func topicTable(e *experiments.Experiment) *experiments.Experiment {
	e.Datasets, e.TaskParams = []string{reutersData}, []string{"min-df", "vocab"}
	e.Corpus, e.Fit = table67Corpus, table67Task
	return e
}

// Table67 is the experiment "rlsi2011/table6-7".
func Table67() *experiments.Experiment {
	var methods []experiments.MethodSpec
	var paper []experiments.PaperValue
	paperAvg := map[string]float64{"u1v2": 0.0075, "u2v1": 1, "u1v1": 0.0197, "u2v2": 1}
	for _, v := range variants {
		methods = append(methods, experiments.MethodSpec{Label: v.Label, Name: "rlsi",
			Params: rlsiParams(map[string]string{"variant": v.Variant, "k": "20", "iters": "100"})})
		// The paper's Table 6 is one setting per variant (K = 20, "λ1 and
		// λ2 the optimal parameters for the retrieval experiment" on AP),
		// so its value stands beside the one row we show as Table 6 (the
		// topics evidence below), not beside every λ of the grid.
		paper = append(paper, experiments.PaperValue{Where: map[string]string{"method": v.Label, "lambda-scale": LambdaRelative, "lambda1": WorkingLambda1, "lambda2": PaperLambda2}, Metric: "avgcomp",
			Value: paperAvg[v.Variant], Note: "Table 6 (AP, K = 20, at the λ's best for retrieval on AP, which the paper does not give): beside our Table 6 setting, relative λ, λ1 = " + WorkingLambda1 + ", λ2 = " + PaperLambda2 + " only"})
	}
	return topicTable(&experiments.Experiment{
		ID:      "rlsi2011/table6-7",
		Title:   "RLSI variants: topics and topic compactness (Tables 6 and 7)",
		Paper:   experiments.PaperRef{Reference: thePaper, Cite: paperCite, Where: "§6.2, Tables 6 and 7"},
		Version: "4", // 4: npmi, cv, td25

		Methods: methods,
		Grid: map[string][]string{
			"lambda-scale": {LambdaRelative, LambdaAbsolute},
			"lambda1":      {"0.01", "0.1", "0.5", "1"},
			"lambda2":      {"0.01", "0.1", "1"},
		},
		Seed: 20110724,

		Metrics: []experiments.MetricDef{
			{Name: "avgcomp", Definition: "AvgComp: mean over the K topics (columns of U) of the fraction of terms with a non-zero weight (§6.2), exact zeros (metrics/topics.AvgComp)"},
			{Name: "empty_topics", Definition: "topics whose every term weight is zero"},
			{Name: "distinct_top5", Definition: "distinct terms among the K × 5 top-weighted terms divided by 5K (1: no term repeats across topics); a readability proxy — the paper's Uℓ2-Vℓ2 topics repeat terms across topics"},
			{Name: "objective", Definition: "the variant's objective (§3–4) after the last iteration"},
			{Name: "iterations", Definition: "outer iterations run (Algorithm 1)"},
			quality.Metrics[0], quality.Metrics[1], quality.Metrics[2],
		},
		Tables: []experiments.Table{{
			Name: "avgcomp", Title: "Topic compactness of the RLSI variants at K = 20 (Reuters-21578 ModApte train)",
			Rows: []string{"lambda-scale", "lambda1", "lambda2", "method"}, Metrics: []string{"avgcomp", "empty_topics", "distinct_top5", "npmi", "cv", "td25", "iterations"}, Digits: 4,
		}},
		PaperValues: paper,
		Claims: []experiments.Claim{
			{Statement: "ℓ1 on U gives more compact topics: both Uℓ1 variants have lower AvgComp than both Uℓ2 variants",
				Source: "§6.2, Tables 6 and 7", Judge: judgeCompactOrder},
			{Statement: fmt.Sprintf("Uℓ1 topics are sparse: AvgComp < %g for Uℓ1-Vℓ2 and Uℓ1-Vℓ1", SparseAvgComp),
				Source: "§6.2, Table 6 (0.0075 and 0.0197)", Judge: judgeSparse},
			{Statement: fmt.Sprintf("Uℓ2 topics are not compact: AvgComp ≥ %g for Uℓ2-Vℓ1 and Uℓ2-Vℓ2", DenseAvgComp),
				Source: "§6.2, Table 6 (AvgComp = 1)", Judge: judgeDense},
			{Statement: "Without any ℓ1 norm (Uℓ2-Vℓ2) topics are less readable: its top-5 terms repeat across topics more (lower distinct_top5) than every other variant's",
				Source: "§6.2, finding 2 (readability judged by proxy)", Judge: judgeReadability},
			{Statement: "Evidence: top-5 terms of the first 10 topics of each variant at λ1 = 0.1, λ2 = 1 (the paper's §6.3 λ2 with the largest grid λ1 that empties no topic under the relative reading; Table 6 layout; every run's topics are in its topics.txt)",
				Source: "Table 6", Judge: topicsEvidence(map[string]string{"lambda1": WorkingLambda1, "lambda2": PaperLambda2}, 8)},
			quality.CoherenceNote(experiments.ColMethod, "avgcomp", true, map[string]string{"lambda-scale": LambdaRelative, "lambda1": WorkingLambda1, "lambda2": PaperLambda2}),
		},
		Quick: experiments.Quick{
			Grid:   map[string][]string{"lambda1": {"0.1", "0.5"}, "lambda2": {"1"}},
			Params: map[string]string{"iters": "8", "vocab": "2000", "min-df": "3"},
		},
		Substitutes: "AP (TREC) is not public: the ModApte training stories of Reuters-21578 (9,603 newswire stories) stand in, " +
			"tokens of ≥ 2 letters, numbers dropped, SMART stop list, terms in ≥ 2 stories, tf-idf weights tf·ln(N/df); " +
			"--quick keeps the 2,000 terms of highest document frequency (in ≥ 3 stories) and runs 8 iterations.",
		Protocol: "Each variant is fitted once at K = 20 for every λ1 ∈ {0.01, 0.1, 0.5, 1} and λ2 ∈ {0.01, 0.1, 1} (the paper's retrieval grid, §6.2, plus " +
			"the λ1 = 0.5 of its §6.3 setting λ = (0.5, 1); " +
			"its Table 6 uses the λ's best for retrieval on AP, which we do not know), up to 100 outer iterations " +
			"(relative tolerance 1e-4), V⁽⁰⁾ ~ N(0, σ²) from the job's derived seed with σ = √(ŝ/N), ŝ = ‖D‖_F/√N (init-scale balanced: " +
			"the paper's Algorithm 1 draws V at random without a scale; at unit scale the ℓ1-on-V variants lose every topic). " +
			"The paper does not say how D is scaled; its λ range ([0.01, 1], §6.2) regularizes nothing on raw tf-idf, whose documents " +
			"are long, so both readings are run: lambda-scale absolute (Eq. 1 as written on raw tf-idf) and relative (λ stated for documents " +
			"of unit RMS length: ℓ1 weights × ŝ^{3/2}, squared-ℓ2 weights × ŝ; engine/rlsi Options.RelativeLambda). " +
			"A claim is judged at every (lambda-scale, λ1, λ2) where no variant has an empty topic " +
			"(an all-zero column of U: the regularizer won); it holds when it holds at every such point, fails when it fails at one, " +
			"and is inconclusive when there is no such point. --quick: λ1 ∈ {0.1, 0.5}, λ2 = 1. " +
			"The top-5 terms of every topic are in each run's topics.txt. Claim thresholds were fixed before running.",
	})
}

func table67Params(j *experiments.Job) (minDF, vocab int, err error) {
	if minDF, err = j.IntParam("min-df", 2); err != nil {
		return
	}
	vocab, err = j.IntParam("vocab", 0)
	return
}

func table67Task(_ context.Context, j *experiments.Job, f *experiments.Fit) (*experiments.Result, error) {
	corpus, model, status := f.Corpus, f.Model, f.Status
	res := &experiments.Result{Notes: slices.Clone(corpus.Report.Warnings)}
	U := model.TermTopics()
	addTopicMetrics(res, U, corpus.Vocab)
	if err := quality.AddMetrics(res, j, f); err != nil {
		return nil, err
	}
	res.AddMetric("objective", status.Objective)
	res.AddMetric("iterations", float64(status.Iterations))
	res.AddMetric("terms", float64(len(corpus.Vocab)))
	res.AddMetric("documents", float64(len(corpus.DocIDs)))
	return res, nil
}

// addTopicMetrics records AvgComp, empty topics and the distinct share of
// top-5 terms, and the topics.txt artifact.
func addTopicMetrics(res *experiments.Result, U *mat.Dense, vocab []string) {
	res.AddMetric("avgcomp", topics.AvgComp(U))
	comp := topics.Compactness(U)
	empty := 0
	for _, c := range comp {
		if c == 0 {
			empty++
		}
	}
	res.AddMetric("empty_topics", float64(empty))
	top := topics.TopTerms(U, vocab, 5)
	res.AddMetric("distinct_top5", distinctShare(top, 5))
	res.Artifacts = append(res.Artifacts, topicsArtifact(U, vocab, nil, nil))
}

// distinctShare is the number of distinct terms among the top-n lists
// divided by n·K (each topic counts n slots, so an empty topic lowers it).
func distinctShare(top [][]topics.Term, n int) float64 {
	if len(top) == 0 || n == 0 {
		return math.NaN()
	}
	seen := map[string]bool{}
	for _, t := range top {
		for _, x := range t {
			seen[x.Term] = true
		}
	}
	return float64(len(seen)) / float64(n*len(top))
}

// gridPoint is one (lambda-scale, λ1, λ2) with each variant's metrics.
type gridPoint struct {
	scale, lambda1, lambda2 string
	m                       map[string]map[string]float64 // variant → metric → value
}

// points collects the runs by (lambda-scale, λ1, λ2), in job order.
func points(r *experiments.Results) []*gridPoint {
	var out []*gridPoint
	index := map[string]*gridPoint{}
	for _, j := range r.Jobs {
		dn, l1, l2 := j.Job.Column("lambda-scale"), j.Job.Column("lambda1"), j.Job.Column("lambda2")
		key := dn + "/" + l1 + "/" + l2
		p := index[key]
		if p == nil {
			p = &gridPoint{scale: dn, lambda1: l1, lambda2: l2, m: map[string]map[string]float64{}}
			index[key] = p
			out = append(out, p)
		}
		v := j.Job.Method.Params["variant"]
		if p.m[v] == nil {
			p.m[v] = map[string]float64{}
		}
		for _, m := range j.Run.Metrics {
			p.m[v][m.Name] = m.Value
		}
	}
	return out
}

// complete says whether every variant ran at the point with no empty topic.
func (p *gridPoint) complete() bool {
	for _, v := range variants {
		m, ok := p.m[v.Variant]
		if !ok {
			return false
		}
		if e, ok := m["empty_topics"]; !ok || e > 0 {
			return false
		}
	}
	return true
}

func (p *gridPoint) values(metric string) (map[string]float64, string) {
	out := map[string]float64{}
	var parts []string
	for _, v := range variants {
		x, ok := p.m[v.Variant][metric]
		if !ok {
			x = math.NaN()
		}
		out[v.Variant] = x
		parts = append(parts, v.Variant+" "+strconv.FormatFloat(x, 'f', 4, 64))
	}
	return out, fmt.Sprintf("lambda-scale %s λ1=%s λ2=%s: %s", p.scale, p.lambda1, p.lambda2, strings.Join(parts, ", "))
}

// judgeAtPoints applies test to the metric at every complete grid point: held when it holds at all of them, not held when it fails at one,
// inconclusive when no point is complete.
func judgeAtPoints(r *experiments.Results, metric string, test func(map[string]float64) bool) experiments.Verdict {
	pts := points(r)
	var held, failed []string
	skipped := 0
	for _, p := range pts {
		if !p.complete() {
			skipped++
			continue
		}
		v, d := p.values(metric)
		if test(v) {
			held = append(held, d)
		} else {
			failed = append(failed, d)
		}
	}
	n := len(held) + len(failed)
	detail := fmt.Sprintf("%s: holds at %d of %d (lambda-scale, λ1, λ2) points with no empty topic (%d points left out for empty topics or missing runs)",
		metric, len(held), n, skipped)
	if len(failed) > 0 {
		detail += "; fails at " + strings.Join(failed, "; ")
	}
	if len(held) > 0 {
		detail += "; holds at " + strings.Join(held, "; ")
	}
	if n == 0 {
		return experiments.Undecided(detail)
	}
	return experiments.Judged(len(failed) == 0, detail)
}

func judgeCompactOrder(r *experiments.Results) experiments.Verdict {
	return judgeAtPoints(r, "avgcomp", func(a map[string]float64) bool {
		return math.Max(a["u1v2"], a["u1v1"]) < math.Min(a["u2v1"], a["u2v2"])
	})
}

func judgeSparse(r *experiments.Results) experiments.Verdict {
	return judgeAtPoints(r, "avgcomp", func(a map[string]float64) bool {
		return a["u1v2"] < SparseAvgComp && a["u1v1"] < SparseAvgComp
	})
}

func judgeDense(r *experiments.Results) experiments.Verdict {
	return judgeAtPoints(r, "avgcomp", func(a map[string]float64) bool {
		return a["u2v1"] >= DenseAvgComp && a["u2v2"] >= DenseAvgComp
	})
}

func judgeReadability(r *experiments.Results) experiments.Verdict {
	return judgeAtPoints(r, "distinct_top5", func(d map[string]float64) bool {
		return d["u2v2"] < d["u1v2"] && d["u2v2"] < d["u2v1"] && d["u2v2"] < d["u1v1"]
	})
}
