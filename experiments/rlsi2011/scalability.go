package rlsi2011

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/metrics/topics"
	"gonum.org/v1/gonum/mat"
)

func init() { experiments.Register(Scalability()) }

// Thresholds of the scalability claims, fixed before running.
const (
	// SlopeHigh bounds the fitted log–log slope of seconds per iteration
	// against N (at fixed M, K) and against M (at fixed N, K). The paper's
	// per-iteration cost (IMK² + NK²)/P + T_U + T_V (Table 4) is affine in
	// N and in M — a constant part plus a linear part — so the slope lies
	// between 0 and 1; SlopeHigh leaves room for timing noise and rules out
	// the quadratic growth of an SVD (O(min(MN², NM²)), §2).
	SlopeHigh = 1.3
	// KSlopeHigh bounds the log–log slope against K at fixed N and M:
	// Table 4's cost is at most quadratic in K (IMK² + NK², plus K³ for one
	// K×K inversion, negligible while K ≪ M, N); 2.3 leaves the same
	// room for noise as SlopeHigh.
	KSlopeHigh = 2.3
	// MemSlopeHigh bounds the log–log slope of the memory of an iteration
	// against N: memory is affine in N (24·nnz + 24NK + ... bytes, see
	// rlsiMemory), so the slope is at most 1 up to rounding.
	MemSlopeHigh = 1.1
	// MemTolerance bounds |measured / formula − 1| for every run: the
	// measured memory of an iteration agrees with rlsiMemory.
	MemTolerance = 0.15
	// RecoveredCosine is the cosine above which a planted topic counts as
	// recovered by its matched learned topic (synthetic.MatchTopics).
	RecoveredCosine = 0.8
	// MachineBytes is the memory of the machine the formula is solved for
	// (24 GiB).
	MachineBytes = 24 << 30
)

// Names of the scalability design.
const (
	// scaleData names the synthetic corpora of the scalability experiment.
	scaleData = "synthetic/rlsi-scale"
	// nplData is the real collection of the K sweep.
	nplData = "npl"
	// wholeCollection is the docs and terms value of the NPL jobs: the
	// collection as prepared, every document and term.
	wholeCollection = "all"
	// The sweeps, the grid's task parameter "sweep".
	sweepN       = "N"
	sweepM       = "M"
	sweepK       = "K"
	sweepLargest = "largest"
)

// scaleDesign is a one-factor-at-a-time design through a centre point
// (n0 documents, m0 terms, k0 topics): N sweeps over docs at (m0, k0), M
// over terms at (n0, k0), K over ks at (n0, m0) on the synthetic corpora
// and over nplK on NPL; plus one largest run (bigN, bigM, k0).
type scaleDesign struct {
	docs, terms, ks []int
	n0, m0, k0      int
	bigN, bigM      int
	nplK            []int
}

var (
	// fullDesign was sized from single jobs of 3–4 iterations measured on
	// the shared, loaded machine (seconds per iteration there: centre
	// 0.35, N = 640,000 5.0, M = 160,000 0.87, K = 200 5–13, K = 500 38,
	// NPL K = 200 4.1, the largest 26 with 40 s to generate it and a
	// 9.9 GiB peak RSS): about 19 minutes there, perhaps half on an idle
	// machine.
	fullDesign = scaleDesign{
		docs:  []int{5000, 10000, 20000, 40000, 80000, 160000, 320000, 640000, 1280000},
		terms: []int{5000, 10000, 20000, 40000, 80000, 160000, 320000},
		ks:    []int{25, 50, 100, 200, 500}, n0: 20000, m0: 10000, k0: 50,
		bigN: 2000000, bigM: 200000, nplK: []int{50, 100, 200},
	}
	// quickDesign shares no centre value with fullDesign, so Keep can tell
	// the two apart.
	quickDesign = scaleDesign{
		docs: []int{1000, 2000}, terms: []int{1000, 2000}, ks: []int{10, 20}, n0: 1000, m0: 1000, k0: 10,
		bigN: 3000, bigM: 3000, nplK: []int{10, 20},
	}
)

func itoa(xs ...int) []string {
	var out []string
	for _, x := range xs {
		s := strconv.Itoa(x)
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// grid is the design's grid: every value of each axis (the Cartesian
// product is cut down by keep).
func (d scaleDesign) grid() map[string][]string {
	return map[string][]string{
		"sweep": {sweepN, sweepM, sweepK, sweepLargest},
		"docs":  append(itoa(append(slices.Clone(d.docs), d.bigN)...), wholeCollection),
		"terms": append(itoa(append(slices.Clone(d.terms), d.bigM)...), wholeCollection),
		"k":     itoa(append(slices.Clone(d.ks), d.nplK...)...),
	}
}

// keep reports whether the point is one of the design's runs.
func (d scaleDesign) keep(dataset string, p map[string]string) bool {
	in := func(name string, xs ...int) bool { return slices.Contains(itoa(xs...), p[name]) }
	switch dataset {
	case nplData:
		return p["sweep"] == sweepK && p["docs"] == wholeCollection && p["terms"] == wholeCollection && in("k", d.nplK...)
	case scaleData:
		switch p["sweep"] {
		case sweepN:
			return in("docs", d.docs...) && in("terms", d.m0) && in("k", d.k0)
		case sweepM:
			return in("docs", d.n0) && in("terms", d.terms...) && in("k", d.k0)
		case sweepK:
			return in("docs", d.n0) && in("terms", d.m0) && in("k", d.ks...)
		case sweepLargest:
			return in("docs", d.bigN) && in("terms", d.bigM) && in("k", d.k0)
		}
	}
	return false
}

// scaleConfig is the synthetic corpus with n documents and m terms: 10
// classes, Ks = 10 shared and Kc = 2 topics per class (30 planted topics,
// each on 2m/30 terms), Poisson lengths of mean 80 tokens, tf-idf weights.
func scaleConfig(n, m int) synthetic.Config {
	return synthetic.Config{Name: fmt.Sprintf("rlsi-scale-%d-%d", n, m), M: m, N: n, P: 10, Ks: 10, Kc: 2,
		Length: synthetic.LengthSpec{Dist: synthetic.LengthPoisson, Mean: 80}, Weighting: "tfidf", Seed: 1}
}

// scaleSize returns the synthetic job's (docs, terms).
func scaleSize(j *experiments.Job) (n, m int, err error) {
	if n, err = j.IntParamIn("docs", 0, 1, math.MaxInt); err != nil {
		return 0, 0, err
	}
	if m, err = j.IntParamIn("terms", 0, 1, math.MaxInt); err != nil {
		return 0, 0, err
	}
	return n, m, nil
}

// scaleCorpus is the job's corpus: NPL through the retrieval pipeline
// (tf-idf), or the synthetic corpus of the job's size (scaleConfig).
func scaleCorpus(j *experiments.Job) (experiments.CorpusSpec, error) {
	switch j.Dataset {
	case nplData:
		return experiments.CorpusSpec{Collection: nplData, Text: retrievalText(text.WeightTFIDF)}, nil
	case scaleData:
		n, m, err := scaleSize(j)
		if err != nil {
			return experiments.CorpusSpec{}, err
		}
		c := scaleConfig(n, m)
		return experiments.CorpusSpec{Synthetic: &c, Name: scaleData}, nil
	}
	return experiments.CorpusSpec{}, fmt.Errorf("experiment %s: unknown data set %q (want %s or %s)", j.Experiment.ID, j.Dataset, scaleData, nplData)
}

// Scalability is the experiment "rlsi2011/scalability".
func Scalability() *experiments.Experiment {
	full, quick := fullDesign, quickDesign
	qgrid := quick.grid()
	return &experiments.Experiment{
		ID:      "rlsi2011/scalability",
		Title:   "RLSI time and memory per iteration against N, M and K",
		Paper:   experiments.PaperRef{Reference: thePaper, Cite: paperCite, Where: "§4.4, Table 4; §6.4 (its text: 1.5 hours per iteration on 1.6M documents, 7M terms, K = 500 with 16 processors) and Table 10 (topics, AvgComp 0.0035)"},
		Version: "2",

		Datasets: []string{scaleData, nplData},
		Corpus:   scaleCorpus,
		Methods: []experiments.MethodSpec{{Label: labelRLSI, Name: "rlsi",
			Params: rlsiParams(map[string]string{"variant": "u1v2", "lambda1": "0.01", "lambda2": "0.1", "iters": "10", "tol": "-1", "lambda-scale": LambdaRelative})}},
		Grid:       full.grid(),
		TaskParams: []string{"sweep", "docs", "terms"},
		Keep:       func(ds string, p map[string]string) bool { return full.keep(ds, p) || quick.keep(ds, p) },
		Sequential: true,
		Seed:       20110729,
		Task:       scalabilityTask,

		Metrics: []experiments.MetricDef{
			{Name: "sec_per_iter", Definition: "mean wall-clock seconds of iterations 2 to the last (the first includes warm-up)"},
			{Name: "N, M, nnz", Definition: "documents, terms and non-zero entries of D"},
			{Name: "empty_terms", Definition: "terms of the vocabulary with no non-zero in D (synthetic terms never drawn, or in every document so that idf = 0)"},
			{Name: "mem_fit_mib", Definition: "measured: the largest, over iterations, live Go heap (runtime/metrics /gc/heap/live:bytes right after a forced GC at the end of the iteration, outside its timing) minus the live heap just before the fit, the corpus already loaded — U, Vᵀ, R, Φ, their next iterates, the K×K matrices and scratch (MiB)"},
			{Name: "mem_data_mib", Definition: "bytes held by the arrays of D and Dᵀ (capacity × element size of RowPtr, ColIdx, Val; MiB)"},
			{Name: "mem_mib", Definition: "memory of an iteration: mem_data_mib + mem_fit_mib"},
			{Name: "mem_formula_mib", Definition: "rlsiMemory(M, N, nnz, K, P): 24·nnz + 8(M+N+2) for D and Dᵀ, 24K(M+N) for U, U_next, R, Vᵀ, V_next, Φ, 24K² for S, S_next, UᵀU, 12KP for the P workers' scratch (MiB)"},
			{Name: "gen_seconds", Definition: "seconds to generate (synthetic) or prepare (NPL) the corpus, not part of the iterations"},
			{Name: "avgcomp", Definition: "AvgComp of U after the last iteration (§6.2)"},
			{Name: "match_cos, recovered", Definition: fmt.Sprintf("synthetic only: mean cosine of the planted topics with their learned topics matched one to one (datasets/synthetic MatchTopics), and the number of the 30 planted topics whose matched cosine is ≥ %g", RecoveredCosine)},
		},
		Tables: []experiments.Table{
			{Name: "by-docs", Title: "RLSI per iteration against the number of documents N (synthetic)", Rows: []string{"docs"},
				Where: map[string]string{"dataset": scaleData, "sweep": sweepN}, Metrics: scaleTableMetrics, Digits: 3},
			{Name: "by-terms", Title: "RLSI per iteration against the number of terms M (synthetic)", Rows: []string{"terms"},
				Where: map[string]string{"dataset": scaleData, "sweep": sweepM}, Metrics: append(slices.Clone(scaleTableMetrics), "empty_terms"), Digits: 3},
			{Name: "by-topics", Title: "RLSI per iteration against the number of topics K (synthetic and NPL)", Rows: []string{"dataset", "k"},
				Where: map[string]string{"sweep": sweepK}, Metrics: scaleTableMetrics, Digits: 3},
			{Name: "largest", Title: "The largest synthetic run", Rows: []string{"docs", "terms", "k"},
				Where: map[string]string{"sweep": sweepLargest}, Metrics: append(slices.Clone(scaleTableMetrics), "gen_seconds", "match_cos", "recovered"), Digits: 3},
		},
		Figures: []experiments.Figure{
			{Name: "time-docs", Title: "RLSI seconds per iteration against N", Kind: experiments.Line, Source: experiments.FromMetrics,
				X: "docs", Y: "sec_per_iter", Series: []string{"method"}, Where: map[string]string{"dataset": scaleData, "sweep": sweepN}, XLabel: "documents N", YLabel: "seconds per iteration", Scaling: true},
			{Name: "time-terms", Title: "RLSI seconds per iteration against M", Kind: experiments.Line, Source: experiments.FromMetrics,
				X: "terms", Y: "sec_per_iter", Series: []string{"method"}, Where: map[string]string{"dataset": scaleData, "sweep": sweepM}, XLabel: "terms M", YLabel: "seconds per iteration", Scaling: true},
			{Name: "time-topics", Title: "RLSI seconds per iteration against K", Kind: experiments.Line, Source: experiments.FromMetrics,
				X: "k", Y: "sec_per_iter", Series: []string{"dataset"}, Where: map[string]string{"sweep": sweepK}, XLabel: "topics K", YLabel: "seconds per iteration", Scaling: true},
			{Name: "memory-docs", Title: "RLSI memory of an iteration against N", Kind: experiments.Line, Source: experiments.FromMetrics,
				X: "docs", Y: "mem_mib", Series: []string{"method"}, Where: map[string]string{"dataset": scaleData, "sweep": sweepN}, XLabel: "documents N", YLabel: "MiB", Scaling: true},
		},
		Claims: []experiments.Claim{
			{Statement: fmt.Sprintf("Time per iteration grows at most linearly with the number of documents at fixed M and K: log–log slope ≤ %g", SlopeHigh),
				Source: "§4.4, Table 4 (time per iteration (IMK² + NK²)/P + T_U + T_V)", Judge: judgeSweepSlope(scaleData, sweepN, "docs", "sec_per_iter", SlopeHigh)},
			{Statement: fmt.Sprintf("Time per iteration grows at most linearly with the number of terms at fixed N and K: log–log slope ≤ %g", SlopeHigh),
				Source: "§4.4, Table 4", Judge: judgeSweepSlope(scaleData, sweepM, "terms", "sec_per_iter", SlopeHigh)},
			{Statement: fmt.Sprintf("Time per iteration grows at most quadratically with K at fixed N and M (synthetic): log–log slope ≤ %g", KSlopeHigh),
				Source: "§4.4, Table 4 (IMK² + NK²)", Judge: judgeSweepSlope(scaleData, sweepK, "k", "sec_per_iter", KSlopeHigh)},
			{Statement: fmt.Sprintf("Time per iteration grows at most quadratically with K on NPL: log–log slope ≤ %g", KSlopeHigh),
				Source: "§4.4, Table 4 (IMK² + NK²)", Judge: judgeSweepSlope(nplData, sweepK, "k", "sec_per_iter", KSlopeHigh)},
			{Statement: fmt.Sprintf("Memory of an iteration grows at most linearly with N: log–log slope ≤ %g", MemSlopeHigh),
				Source: "§4.4, Table 4 (space N·AvgDL + (1+γ)MK + 2NK + K²)", Judge: judgeSweepSlope(scaleData, sweepN, "docs", "mem_mib", MemSlopeHigh)},
			{Statement: fmt.Sprintf("The memory formula rlsiMemory agrees with the measured memory of every run within ±%g%%", MemTolerance*100),
				Source: "", Judge: judgeMemFormula},
			{Statement: "Validity: no fit collapsed to U = 0 (AvgComp > 0 in every run), so every time is that of a working RLSI iteration",
				Source: "", Judge: judgeNoCollapse},
			{Statement: "Evidence: the largest run — its size, what the formula allows in 24 GiB, planted topics recovered, and the top-5 terms of its first 10 topics (Table 10 layout; synthetic terms are names w00000…, not words), beside NPL's at the smallest K",
				Source: "§6.4, Table 10", Judge: judgeLargest},
		},
		Quick: experiments.Quick{
			Grid:   qgrid,
			Params: map[string]string{"iters": "3"},
		},
		Substitutes: "The paper's web set (1.6M documents, 7M terms) is not public; synthetic corpora (datasets/synthetic: 10 classes, 10 shared and " +
			"2 class topics, each on 2M/30 terms, Poisson lengths of mean 80, tf-idf) of chosen N and M stand in, and the NPL collection " +
			"(11,429 documents, the retrieval experiments' pipeline: SMART stop list, tf-idf) is the real corpus of the K sweep. One machine " +
			"(2 cores, 24 GiB, the shared parallel engine), not MapReduce.",
		Protocol: fmt.Sprintf("RLSI (Uℓ1-Vℓ2), λ1 = 0.01, λ2 = 0.1 read relative to the data's scale, V⁽⁰⁾ at that scale (lambda-scale relative, init-scale balanced, as Table 8; "+
			"both values are points of Table 8's grid). §6.4's λ1 = 0.5, λ2 = 1.0 in this reading, and λ1 = λ2 = 0.1, empty every topic in the first iteration "+
			"(U = 0, then V = 0 for good) on the centre corpus, on NPL at K = 50 and (λ = 0.1) on the M = 160,000 corpus, when we sized the runs; "+
			"a collapsed fit does no RLSI work, so its time would say nothing (the validity claim checks every run). With fixed λ the sparsity of U "+
			"(avgcomp) still changes along a sweep, and with it the lasso's cost (γ in Table 4): avgcomp is listed beside every time. "+
			"Exactly 10 iterations (the first excluded from sec_per_iter). One factor at a time through the centre N = %d, M = %d, K = %d: "+
			"N ∈ %v; M ∈ %v; K ∈ %v, and K ∈ %v on NPL; the largest run N = %d, M = %d, K = %d (the centre is run once per sweep). "+
			"Jobs run one at a time (Sequential) on 2 workers; the machine is shared with other jobs, so times are indicative "+
			"(during sizing they were inflated about 2×). Slopes are least-squares fits of ln y on ln x over a sweep. "+
			"The largest run is sized to finish its 10 iterations in about 5 minutes and to stay well inside the shared machine's memory "+
			"(its generation peaks near twice the fit's working set); the evidence claim reports the largest N the formula fits in 24 GiB. "+
			"At N = 20,000 a synthetic corpus holds about 1.5M (document, term) pairs, so the larger M of the M sweep leave many terms "+
			"never drawn (empty_terms, empty rows of D), which still cost their share of U, R and the lasso. "+
			"--quick: centre N = M = 1,000, K = 10, sweeps of two points, NPL at K ∈ {10, 20}, largest 3,000 × 3,000, 3 iterations. Thresholds fixed before running.",
			full.n0, full.m0, full.k0, full.docs, full.terms, full.ks, full.nplK, full.bigN, full.bigM, full.k0),
	}
}

var scaleTableMetrics = []string{"N", "M", "nnz", "sec_per_iter", "mem_mib", "mem_formula_mib", "mem_fit_mib", "avgcomp"}

// rlsiMemory is the memory in bytes that a fit of engine/rlsi holds during
// an iteration on an M×N term-document matrix with nnz non-zeros, K topics
// and P workers, read from the code:
//
//	D and Dᵀ (CSR: int RowPtr, int32 ColIdx, float64 Val):
//	    8(M+1) + 12·nnz + 8(N+1) + 12·nnz
//	U, U_next, R = DVᵀ (M×K each) and Vᵀ, V_next, Φᵀ = DᵀU (N×K each):
//	    8·3MK + 8·3NK
//	S = VVᵀ, its next value and UᵀU (K×K each):  8·3K²
//	coordinate-descent scratch, one per worker (g: K float64, the
//	coordinate list: K int32):  12K·P
//
// that is 24·nnz + 8(M+N+2) + 24K(M+N) + 24K² + 12KP. Transients (the
// K×K Cholesky and inverse of the ℓ2 step, per-block counters) are
// O(K² + N/64) and left out. Table 4 counts N·AvgDL + (1+γ)MK + 2NK + K²
// (D once, sparse U); this implementation keeps D and Dᵀ, dense U and the
// next iterates, which is about three times Table 4's dense part.
func rlsiMemory(m, n, nnz, k, p int) float64 {
	M, N, Z, K, P := float64(m), float64(n), float64(nnz), float64(k), float64(p)
	return 24*Z + 8*(M+N+2) + 24*K*(M+N) + 24*K*K + 12*K*P
}

// maxDocsInMemory is the largest N whose rlsiMemory fits in limit bytes,
// for M terms, K topics, P workers and nnzPerDoc non-zeros per document.
func maxDocsInMemory(limit float64, m, k, p int, nnzPerDoc float64) int {
	fixed := rlsiMemory(m, 0, 0, k, p)
	perDoc := 24*nnzPerDoc + 8 + 24*float64(k)
	if limit <= fixed || perDoc <= 0 {
		return 0
	}
	return int((limit - fixed) / perDoc)
}

// csrBytes is the memory held by the arrays of a CSR matrix.
func csrBytes(a *sparse.CSR) float64 {
	return float64(8*cap(a.RowPtr) + 4*cap(a.ColIdx) + 8*cap(a.Val))
}

const mib = 1 << 20

func scalabilityTask(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
	spec, err := scaleCorpus(j)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	// A synthetic corpus is built outside the process's corpus cache,
	// which would keep every corpus of the sweep (up to 2,000,000
	// documents) for the rest of the process.
	build := experiments.BuildCorpus
	if spec.Synthetic != nil {
		build = experiments.BuildCorpusUncached
	}
	built, err := build(spec)
	if err != nil {
		return nil, err
	}
	corpus, truth := built.Corpus, built.Truth
	genSeconds := time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k, err := strconv.Atoi(j.Method.Params["k"])
	if err != nil {
		return nil, fmt.Errorf("experiment %s: model parameter k = %q: want an integer", j.Experiment.ID, j.Method.Params["k"])
	}
	before := experiments.LiveHeap()
	peak := math.Inf(-1)
	f, err := j.FitCorpus(ctx, built, func(engine.Iteration) { peak = math.Max(peak, experiments.LiveHeap()) })
	if err != nil {
		return nil, err
	}
	model, rec := f.Model, f.Recorder
	res := f.NewResult(j)
	its := rec.Iterations()
	if len(its) > 0 {
		res.AddMetric("sec_per_iter", experiments.SecondsPerIteration(its))
	}
	M, N, nnz := corpus.D.Rows, corpus.D.Cols, corpus.D.NNZ()
	res.AddMetric("N", float64(N))
	res.AddMetric("M", float64(M))
	res.AddMetric("K", float64(k))
	res.AddMetric("nnz", float64(nnz))
	empty := 0
	for m := 0; m < M; m++ {
		if corpus.D.RowPtr[m+1] == corpus.D.RowPtr[m] {
			empty++
		}
	}
	res.AddMetric("empty_terms", float64(empty))
	res.AddMetric("gen_seconds", genSeconds)
	data := csrBytes(corpus.D) + csrBytes(corpus.DT)
	if len(its) > 0 {
		fit := peak - before
		res.AddMetric("mem_fit_mib", fit/mib)
		res.AddMetric("mem_data_mib", data/mib)
		res.AddMetric("mem_mib", (data+fit)/mib)
	}
	workers := parallel.Default().Workers()
	res.AddMetric("workers", float64(workers))
	res.AddMetric("mem_formula_mib", rlsiMemory(M, N, nnz, k, workers)/mib)
	U := model.TermTopics()
	avg := topics.AvgComp(U)
	res.AddMetric("avgcomp", avg)
	if avg == 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: U collapsed to 0 (every topic empty): the iterations timed are degenerate", j.Label()))
	}
	var cosines []float64
	var assign []int
	if truth != nil {
		planted := truth.Topics()
		var mean float64
		mean, assign = synthetic.MatchTopics(planted, U)
		cosines = matchedCosines(planted, U, assign)
		recovered := 0
		for _, c := range cosines {
			if c >= RecoveredCosine {
				recovered++
			}
		}
		res.AddMetric("match_cos", mean)
		res.AddMetric("recovered", float64(recovered))
		res.AddMetric("planted", float64(len(cosines)))
	}
	res.Artifacts = append(res.Artifacts, topicsArtifact(U, corpus.Vocab, assign, cosines))
	return res, nil
}

// matchedCosines returns, for every planted topic i, the cosine of planted
// column i with learned column assign[i] (0 when unmatched or a column is
// zero).
func matchedCosines(planted, learned *mat.Dense, assign []int) []float64 {
	out := make([]float64, len(assign))
	for i, j := range assign {
		if j < 0 {
			continue
		}
		a, b := planted.ColView(i), learned.ColView(j)
		na, nb := mat.Norm(a, 2), mat.Norm(b, 2)
		if na > 0 && nb > 0 {
			out[i] = mat.Dot(a, b) / (na * nb)
		}
	}
	return out
}

// topicsArtifact is topics.txt: one line per learned topic, "topic k
// (non-zero c): top-5 terms", followed, when the corpus is synthetic, by
// the planted topic it is matched to and the cosine (assign and cosines
// as matchedCosines; nil: no planted topics).
func topicsArtifact(U *mat.Dense, vocab []string, assign []int, cosines []float64) experiments.Artifact {
	comp := topics.Compactness(U)
	top := topics.TopTerms(U, vocab, 5)
	matched := map[int]int{}
	for i, j := range assign {
		if j >= 0 {
			matched[j] = i
		}
	}
	return experiments.Artifact{Name: "topics.txt", Write: func(w io.Writer) error {
		for k, t := range top {
			line := fmt.Sprintf("topic %d (non-zero %s): %s", k+1, strconv.FormatFloat(comp[k], 'f', 4, 64), topics.Format(t))
			if i, ok := matched[k]; ok {
				line += fmt.Sprintf(" [planted %d, cosine %.3f]", i+1, cosines[i])
			}
			if _, err := fmt.Fprintln(w, line); err != nil {
				return err
			}
		}
		return nil
	}}
}

// judgeSweepSlope: over the runs of one sweep on one data set, the
// log–log slope of the metric y against the grid column x is at most high.
func judgeSweepSlope(dataset, sweep, x, y string, high float64) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		type pt struct{ x, y float64 }
		var pts []pt
		for _, g := range r.Groups(y, []string{x}, map[string]string{"dataset": dataset, "sweep": sweep}) {
			v, err := strconv.ParseFloat(g.Key[0], 64)
			if err != nil || g.N == 0 {
				continue
			}
			pts = append(pts, pt{v, g.Mean})
		}
		sort.Slice(pts, func(a, b int) bool { return pts[a].x < pts[b].x })
		var xs, ys []float64
		for _, p := range pts {
			xs, ys = append(xs, p.x), append(ys, p.y)
		}
		return experiments.SlopeAtMost(xs, ys, high, x, y, dataset+": ")
	}
}

// judgeMemFormula: every run's measured mem_mib is within MemTolerance of
// mem_formula_mib.
func judgeMemFormula(r *experiments.Results) experiments.Verdict {
	worst, worstLabel := 0.0, ""
	n := 0
	for _, j := range r.Jobs {
		meas, ok1 := j.Run.Metric("mem_mib")
		form, ok2 := j.Run.Metric("mem_formula_mib")
		if !ok1 || !ok2 || !(form > 0) {
			continue
		}
		n++
		dev := meas/form - 1
		if math.IsNaN(dev) || math.Abs(dev) >= math.Abs(worst) {
			worst, worstLabel = dev, fmt.Sprintf("%s %s N=%s M=%s K=%s: measured %.1f MiB, formula %.1f MiB",
				j.Job.Dataset, j.Job.Column("sweep"), j.Job.Column("docs"), j.Job.Column("terms"), j.Job.Column("k"), meas, form)
		}
	}
	if n == 0 {
		return experiments.Undecided("no run with both numbers")
	}
	detail := fmt.Sprintf("%d runs; largest deviation %+.1f%% (%s)", n, 100*worst, worstLabel)
	return experiments.Judged(!(math.IsNaN(worst) || math.Abs(worst) > MemTolerance), detail)
}

// judgeNoCollapse: every run has AvgComp > 0 (a fit whose U is all zero
// has V = 0 too and stays there; its iterations are not RLSI's work).
func judgeNoCollapse(r *experiments.Results) experiments.Verdict {
	var bad []string
	n := 0
	for _, j := range r.Jobs {
		a, ok := j.Run.Metric("avgcomp")
		if !ok {
			continue
		}
		n++
		if !(a > 0) {
			bad = append(bad, fmt.Sprintf("%s %s N=%s M=%s K=%s", j.Job.Dataset, j.Job.Column("sweep"), j.Job.Column("docs"), j.Job.Column("terms"), j.Job.Column("k")))
		}
	}
	if n == 0 {
		return experiments.Undecided("no run with AvgComp")
	}
	if len(bad) > 0 {
		return experiments.Judged(false, fmt.Sprintf("%d of %d runs collapsed: %s", len(bad), n, strings.Join(bad, "; ")))
	}
	return experiments.Judged(true, fmt.Sprintf("%d runs, none collapsed", n))
}

// judgeLargest is evidence (inconclusive): the largest run's size, time,
// memory and recovery, the largest N the formula fits in MachineBytes at
// its M and K, and its topics beside NPL's at the smallest K.
func judgeLargest(r *experiments.Results) experiments.Verdict {
	big := r.Select(map[string]string{"dataset": scaleData, "sweep": sweepLargest})
	if len(big) == 0 {
		return experiments.Undecided("no largest run")
	}
	j := big[0]
	get := func(name string) float64 {
		v, ok := j.Run.Metric(name)
		if !ok {
			return math.NaN()
		}
		return v
	}
	N, M, nnz, k, p := get("N"), get("M"), get("nnz"), get("K"), get("workers")
	var parts []string
	parts = append(parts, fmt.Sprintf("N = %.0f, M = %.0f, nnz = %.0f, K = %.0f: %.3g s per iteration, %.0f MiB measured (formula %.0f MiB), corpus generated in %.3g s; "+
		"%.0f of %.0f planted topics recovered (cosine ≥ %g), mean matched cosine %.3f",
		N, M, nnz, k, get("sec_per_iter"), get("mem_mib"), get("mem_formula_mib"), get("gen_seconds"), get("recovered"), get("planted"), RecoveredCosine, get("match_cos")))
	if N > 0 && !math.IsNaN(nnz+M+k+p) {
		maxN := maxDocsInMemory(MachineBytes, int(M), int(k), int(p), nnz/N)
		parts = append(parts, fmt.Sprintf("by the formula, 24 GiB holds the fit of N ≤ %d documents at this M, K and %.1f non-zeros per document (the fit only: generating the corpus needs more)", maxN, nnz/N))
	}
	if ts, err := readTopics(j.Dir, shownTopics); err == nil {
		for i := range ts {
			ts[i] = fmt.Sprintf("%d: %s", i+1, ts[i])
		}
		parts = append(parts, "top-5 terms: "+strings.Join(ts, " · "))
	} else {
		parts = append(parts, fmt.Sprintf("no topics: %v", err))
	}
	var npl []*experiments.JobResult
	for _, jr := range r.Select(map[string]string{"dataset": nplData}) {
		npl = append(npl, jr)
	}
	sort.Slice(npl, func(a, b int) bool {
		ka, _ := strconv.Atoi(npl[a].Job.Column("k"))
		kb, _ := strconv.Atoi(npl[b].Job.Column("k"))
		return ka < kb
	})
	if len(npl) > 0 {
		if ts, err := readTopics(npl[0].Dir, shownTopics); err == nil {
			for i := range ts {
				ts[i] = fmt.Sprintf("%d: %s", i+1, ts[i])
			}
			parts = append(parts, fmt.Sprintf("NPL at K = %s: %s", npl[0].Job.Column("k"), strings.Join(ts, " · ")))
		}
	}
	return experiments.Undecided(strings.Join(parts, "; "))
}
