package foundation

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/metrics/topics"
)

func init() { experiments.Register(NMFSynthetic()) }

// Thresholds of the claims, fixed before any run.
const (
	// RecoveryThreshold is the mean matched cosine the recovery claim asks
	// for at the planted K.
	RecoveryThreshold = 0.9
	// MonotoneTol is the relative increase of the objective between two
	// iterations still counted as "not increasing": floating-point rounding
	// of a sum over millions of terms, far below any real increase.
	MonotoneTol = 1e-12
)

// syntheticData is the data set name of synthetic.Default().
const syntheticData = "synthetic/default"

// plantedK is the number of planted topics of synthetic.Default():
// Ks + P·Kc.
func plantedK() int {
	c := synthetic.Default()
	return c.Ks + c.P*c.Kc
}

// corpus is the job's corpus: synthetic.Default(), generated once per
// process by the runner.
func corpus(*experiments.Job) (experiments.CorpusSpec, error) {
	c := synthetic.Default()
	return experiments.CorpusSpec{Synthetic: &c, Name: syntheticData}, nil
}

// NMFSynthetic is the experiment "foundation/nmf-synthetic".
func NMFSynthetic() *experiments.Experiment {
	k := strconv.Itoa(plantedK())
	return &experiments.Experiment{
		ID:      "foundation/nmf-synthetic",
		Title:   "NMF on planted topics: monotone objective and topic recovery",
		Paper:   experiments.PaperRef{Reference: experiments.PaperGMF2012, Cite: "Wang et al., SIGIR 2012 (GMF)", Where: "§5.1, Proposition 1 (NMF multiplicative updates)"},
		Version: "1",

		Datasets: []string{syntheticData},
		Corpus:   corpus,
		Methods: []experiments.MethodSpec{{
			Label: "NMF", Name: "nmf",
			// A fixed number of iterations with the tolerance test off, so
			// that every trace has the same length and the monotonicity
			// check sees all of them.
			Params: map[string]string{"iters": "200", "tol": "-1"},
		}},
		Grid:       map[string][]string{"k": {"10", k, "20"}},
		Replicates: 3,
		Seed:       20120812,
		Fit:        nmfSyntheticTask,

		Metrics: []experiments.MetricDef{
			{Name: "recovery", Definition: "mean over the " + k + " planted topics of the cosine between the planted topic and the learned column of U matched to it by the one-to-one assignment maximizing the total cosine (Hungarian; synthetic.MatchTopics); a planted topic left unmatched when K < " + k + " counts 0"},
			{Name: "objective", Definition: "‖D − UV‖²_F after the last iteration, D the raw term counts"},
			{Name: "increases", Definition: "number of iterations t with f(t) > f(t−1)·(1 + " + strconv.FormatFloat(MonotoneTol, 'g', -1, 64) + ")"},
			{Name: "avgcomp", Definition: "AvgComp of U: mean over topics of the fraction of non-zero term weights (RLSI §6.2)"},
		},
		Tables: []experiments.Table{{
			Name: "recovery", Title: "Planted-topic recovery and final objective by K",
			Rows: []string{"k"}, Metrics: []string{"recovery", "objective", "increases", "avgcomp"}, Digits: 3,
		}},
		Figures: []experiments.Figure{
			{
				Name: "objective", Title: "NMF objective ‖D − UV‖²_F by iteration (synthetic default)",
				Kind: experiments.Line, Source: experiments.FromIterations, X: "iter", Y: "objective",
				Series: []string{"k"}, ErrorBars: true, LogY: true, XLabel: "iteration", YLabel: "objective",
			},
			{
				Name: "recovery", Title: "Mean matched cosine with the planted topics",
				Kind: experiments.Line, Source: experiments.FromMetrics, X: "k", Y: "recovery",
				Series: []string{"method"}, ErrorBars: true, XLabel: "K", YLabel: "recovery (mean cosine)",
			},
		},
		Claims: []experiments.Claim{
			{
				Statement: "The NMF objective never increases from one iteration to the next",
				Source:    "GMF §5.1, Proposition 1; Lee & Seung (2001)",
				Judge:     judgeMonotone,
			},
			{
				Statement: fmt.Sprintf("At the planted K = %s, NMF recovers the planted topics with mean matched cosine ≥ %.2f", k, RecoveryThreshold),
				Judge:     judgeRecovery,
			},
		},
		Quick: experiments.Quick{
			Grid:       map[string][]string{"k": {k}},
			Replicates: 2,
			Params:     map[string]string{"iters": "60"},
		},
		Substitutes: "No paper data: a synthetic corpus with known topics (datasets/synthetic.Default(): " +
			"2,000 terms × 1,500 documents in 5 equal classes, Ks = 5 shared and Kc = 2 topics per class, " +
			"so " + k + " planted topics, Poisson lengths of mean 80 tokens, raw counts).",
		Protocol: "NMF by the multiplicative updates, random non-negative initialization from each job's derived seed, " +
			"a fixed number of iterations (200; 60 with --quick) with the tolerance test disabled, " +
			"K ∈ {10, " + k + ", 20}, 3 replicates per K (--quick: K = " + k + ", 2 replicates). " +
			"Thresholds of the claims were fixed before running.",
	}
}

// nmfSyntheticTask scores one NMF fit against the planted topics.
func nmfSyntheticTask(_ context.Context, _ *experiments.Job, f *experiments.Fit) (*experiments.Result, error) {
	res := &experiments.Result{}
	status, corpus, truth := f.Status, f.Corpus, f.Corpus.Truth
	U := f.Model.TermTopics()
	planted := truth.Topics()
	recovery, assign := synthetic.MatchTopics(planted, U)
	res.AddMetric("recovery", recovery)
	res.AddMetric("objective", status.Objective)
	res.AddMetric("iterations", float64(status.Iterations))
	obj := make([]float64, 0, status.Iterations)
	for _, it := range f.Recorder.Iterations() {
		obj = append(obj, it.Objective)
	}
	_, _, inc, maxRel := monotone(obj)
	res.AddMetric("increases", float64(inc))
	res.AddMetric("max_relative_change", maxRel)
	res.AddMetric("avgcomp", topics.AvgComp(U))

	top := topics.TopTerms(U, corpus.Vocab, 10)
	plantedTop := topics.TopTerms(planted, corpus.Vocab, 10)
	res.Artifacts = append(res.Artifacts, experiments.Artifact{
		Name: "matching.txt",
		Write: func(w io.Writer) error {
			for i, l := range assign {
				if l < 0 {
					if _, err := fmt.Fprintf(w, "planted %d: unmatched\n  planted: %s\n", i, topics.Format(plantedTop[i])); err != nil {
						return err
					}
					continue
				}
				c := cosine(planted.ColView(i), U.ColView(l))
				if _, err := fmt.Fprintf(w, "planted %d ~ learned %d  cosine %s\n  planted: %s\n  learned: %s\n",
					i, l, strconv.FormatFloat(c, 'f', 4, 64), topics.Format(plantedTop[i]), topics.Format(top[l])); err != nil {
					return err
				}
			}
			return nil
		},
	})
	return res, nil
}

// monotone scans an objective trace (NaN entries, iterations where the
// objective was not evaluated, are skipped): steps compared, steps with
// any increase, steps increasing by more than MonotoneTol relatively, and
// the largest relative change f(t)/f(t−1) − 1 (NaN when fewer than two
// evaluations).
func monotone(obj []float64) (steps, strict, beyond int, maxRel float64) {
	maxRel = math.Inf(-1)
	prev := math.NaN()
	for _, f := range obj {
		if math.IsNaN(f) {
			continue
		}
		if !math.IsNaN(prev) {
			steps++
			rel := (f - prev) / math.Max(math.Abs(prev), 1e-300)
			if rel > 0 {
				strict++
			}
			if rel > MonotoneTol {
				beyond++
			}
			maxRel = math.Max(maxRel, rel)
		}
		prev = f
	}
	if steps == 0 {
		maxRel = math.NaN()
	}
	return steps, strict, beyond, maxRel
}

func cosine(a, b mat.Vector) float64 {
	na, nb := mat.Norm(a, 2), mat.Norm(b, 2)
	if na == 0 || nb == 0 {
		return 0
	}
	return mat.Dot(a, b) / (na * nb)
}

// judgeMonotone checks every stored trace: no step may raise the objective
// by more than MonotoneTol relatively.
func judgeMonotone(r *experiments.Results) experiments.Verdict {
	steps, strict, bad, runs := 0, 0, 0, 0
	worst := math.Inf(-1)
	var worstJob string
	for _, j := range r.Jobs {
		obj := j.Run.IterColumn("objective")
		if obj == nil {
			continue
		}
		runs++
		st, sc, b, m := monotone(obj)
		steps, strict, bad = steps+st, strict+sc, bad+b
		if m > worst {
			worst, worstJob = m, j.Job.Label()
		}
	}
	if steps == 0 {
		return experiments.Undecided("no iteration traces with two evaluated objectives")
	}
	detail := fmt.Sprintf("%d increases beyond %g relative in %d steps of %d runs (%d steps with any increase); largest relative change %+.3g (%s)",
		bad, MonotoneTol, steps, runs, strict, worst, worstJob)
	return experiments.Judged(bad == 0, detail)
}

// judgeRecovery compares the mean recovery over the replicates at the
// planted K with RecoveryThreshold.
func judgeRecovery(r *experiments.Results) experiments.Verdict {
	k := strconv.Itoa(plantedK())
	where := map[string]string{"k": k}
	if len(r.Values("recovery", where)) == 0 {
		return experiments.Undecided("no run at K = " + k)
	}
	return experiments.InBand(r, "recovery", where, RecoveryThreshold, math.Inf(1), 3, fmt.Sprintf("threshold %.2f", RecoveryThreshold))
}
