package rlsi2011

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/datasets/synthetic"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/memo"
	"github.com/topicmf/topicmf/metrics/topics"
)

func init() { experiments.Register(Scalability()) }

// Threshold of the scalability claim: the fitted log–log slope of seconds
// per iteration against N must not exceed SlopeHigh. The paper's
// per-iteration cost (IMK² + NK²)/P + T_U + T_V (Table 4) is affine in N at
// fixed M and K — a part independent of N plus a part linear in N — so the
// slope lies between 0 and 1; SlopeHigh leaves room for timing noise and
// rules out the quadratic growth of an SVD (O(min(MN², NM²)), §2).
const SlopeHigh = 1.3

// scaleData names the synthetic corpora of the scalability experiment.
const scaleData = "synthetic/rlsi-scale"

// scaleConfig is the synthetic corpus with n documents: 10,000 terms,
// 10 classes, Ks = 10 shared and Kc = 2 topics per class, Poisson lengths
// of mean 80 tokens, tf-idf weights.
func scaleConfig(n int) synthetic.Config {
	return synthetic.Config{Name: fmt.Sprintf("rlsi-scale-%d", n), M: 10000, N: n, P: 10, Ks: 10, Kc: 2,
		Length: synthetic.LengthSpec{Dist: synthetic.LengthPoisson, Mean: 80}, Weighting: "tfidf", Seed: 1}
}

var scaleCorpora memo.Map[*engine.Corpus]

func scaleCorpus(n int) (*engine.Corpus, error) {
	return scaleCorpora.Get(strconv.Itoa(n), func() (*engine.Corpus, error) {
		c, _, err := synthetic.Generate(scaleConfig(n))
		return c, err
	})
}

// Scalability is the experiment "rlsi2011/scalability".
func Scalability() *experiments.Experiment {
	return &experiments.Experiment{
		ID:      "rlsi2011/scalability",
		Title:   "RLSI time per iteration against the number of documents",
		Paper:   experiments.PaperRef{File: PaperFile, Cite: paperCite, Where: "§4.4, Table 4; §6.4 (1.5 hours per iteration on 1.6M documents with 16 processors)"},
		Version: "1",

		Datasets: []string{scaleData},
		Checksums: func(j *experiments.Job) ([]store.Checksum, error) {
			n, err := j.IntParam("docs", 0)
			if err != nil {
				return nil, err
			}
			sum := sha256.Sum256([]byte(scaleConfig(n).Canonical()))
			return []store.Checksum{{Name: scaleData, SHA256: hex.EncodeToString(sum[:])}}, nil
		},
		Methods: []experiments.MethodSpec{{Label: labelRLSI, Name: "rlsi",
			Params: map[string]string{"variant": "u1v2", "k": "50", "lambda1": "0.5", "lambda2": "1", "iters": "10", "tol": "-1"}}},
		Grid:       map[string][]string{"docs": {"2500", "5000", "10000", "20000", "40000"}},
		TaskParams: []string{"docs"},
		Seed:       20110729,
		Task:       scalabilityTask,

		Metrics: []experiments.MetricDef{
			{Name: "sec_per_iter", Definition: "mean wall-clock seconds of iterations 2 to the last (the first includes warm-up)"},
			{Name: "nnz", Definition: "non-zero entries of D"},
			{Name: "avgcomp", Definition: "AvgComp of U after the last iteration"},
		},
		Tables: []experiments.Table{{
			Name: "time", Title: "Seconds per RLSI iteration by number of documents (10,000 terms, K = 50)",
			Rows: []string{"docs"}, Metrics: []string{"sec_per_iter", "nnz", "avgcomp"}, Digits: 3,
		}},
		Figures: []experiments.Figure{{
			Name: "time", Title: "RLSI seconds per iteration against N", Kind: experiments.Line, Source: experiments.FromMetrics,
			X: "docs", Y: "sec_per_iter", Series: []string{"method"}, XLabel: "documents N", YLabel: "seconds per iteration",
		}},
		Claims: []experiments.Claim{{
			Statement: fmt.Sprintf("Time per iteration grows at most linearly with the number of documents at fixed M and K: log–log slope ≤ %g", SlopeHigh),
			Source:    "§4.4, Table 4 (time per iteration (IMK² + NK²)/P + T_U + T_V)",
			Judge:     judgeSlope,
		}},
		Quick: experiments.Quick{
			Grid:   map[string][]string{"docs": {"1000", "2000"}},
			Params: map[string]string{"iters": "3", "k": "20"},
		},
		Substitutes: "The paper's 1.6M-document web set is not public; synthetic corpora (datasets/synthetic: 10,000 terms, 10 classes, " +
			"10 shared and 2 class topics, Poisson lengths of mean 80, tf-idf) with N from 2,500 to 40,000 documents stand in. " +
			"We run on one machine (the shared parallel engine), not MapReduce.",
		Protocol: "RLSI (Uℓ1-Vℓ2), K = 50, λ1 = 0.5, λ2 = 1.0 (§6.4), exactly 10 iterations (--quick: N ∈ {1,000, 2,000}, K = 20, 3 iterations). " +
			"Jobs may run concurrently on the shared pool and the machine is shared, so the times are indicative; the slope is the " +
			"least-squares fit of ln(seconds per iteration) on ln N over the grid. Thresholds fixed before running.",
	}
}

func scalabilityTask(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
	n, err := j.IntParam("docs", 0)
	if err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("experiment %s: task parameter docs = %d, want ≥ 1", j.Experiment.ID, n)
	}
	corpus, err := scaleCorpus(n)
	if err != nil {
		return nil, err
	}
	method, err := j.NewMethod()
	if err != nil {
		return nil, err
	}
	rec := engine.NewRecorder()
	rec.OnIteration = j.OnIteration
	model, status, err := method.Fit(ctx, corpus, rec)
	if err != nil {
		return nil, err
	}
	if status.Reason == engine.Cancelled {
		return nil, ctx.Err()
	}
	res := &experiments.Result{Iterations: rec, Status: &status}
	its := rec.Iterations()
	var s float64
	cnt := 0
	for i, it := range its {
		if i == 0 && len(its) > 1 {
			continue
		}
		s += it.Seconds
		cnt++
	}
	if cnt > 0 {
		res.AddMetric("sec_per_iter", s/float64(cnt))
	}
	res.AddMetric("nnz", float64(corpus.D.NNZ()))
	res.AddMetric("avgcomp", topics.AvgComp(model.TermTopics()))
	return res, nil
}

// logSlope is the least-squares slope of ln y on ln x (NaN with fewer than
// two distinct x or a non-positive value).
func logSlope(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 2 {
		return math.NaN()
	}
	var mx, my float64
	for i := range x {
		if x[i] <= 0 || y[i] <= 0 {
			return math.NaN()
		}
		mx += math.Log(x[i])
		my += math.Log(y[i])
	}
	mx /= float64(len(x))
	my /= float64(len(x))
	var sxy, sxx float64
	for i := range x {
		dx := math.Log(x[i]) - mx
		sxy += dx * (math.Log(y[i]) - my)
		sxx += dx * dx
	}
	if sxx == 0 {
		return math.NaN()
	}
	return sxy / sxx
}

func judgeSlope(r *experiments.Results) experiments.Verdict {
	type pt struct{ n, t float64 }
	var pts []pt
	for _, g := range r.Groups("sec_per_iter", []string{"docs"}, nil) {
		n, err := strconv.ParseFloat(g.Key[0], 64)
		if err != nil || g.N == 0 {
			continue
		}
		pts = append(pts, pt{n, g.Mean})
	}
	sort.Slice(pts, func(a, b int) bool { return pts[a].n < pts[b].n })
	var xs, ys []float64
	var parts []string
	for _, p := range pts {
		xs, ys = append(xs, p.n), append(ys, p.t)
		parts = append(parts, fmt.Sprintf("N=%g: %.3g s", p.n, p.t))
	}
	slope := logSlope(xs, ys)
	detail := fmt.Sprintf("slope %.3f over %s", slope, strings.Join(parts, ", "))
	switch {
	case math.IsNaN(slope):
		return inconclusive(detail)
	case slope <= SlopeHigh:
		return experiments.Verdict{Outcome: experiments.Held, Detail: detail}
	}
	return experiments.Verdict{Outcome: experiments.NotHeld, Detail: detail}
}
