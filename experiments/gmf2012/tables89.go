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

	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments"
)

func init() { experiments.Register(Tables89()) }

// web1TimingData names the Web-I-like corpus of the Web-I timings.
const web1TimingData = "synthetic/web1-like-timing"

// web1Classes is the number of classes P of Web-I (§7.1, Table 4).
const web1Classes = 204

// Sizes of Web-I (GMF Table 4), for the memory arithmetic at the paper's
// scale.
const (
	webITerms = 530905
	webIDocs  = 3184138
)

// memBudget is the memory, in bytes, that one job's estimated factor and
// work matrices may take (memNeed): a configuration above it is recorded
// as "does not fit" and not run. The machine has 24 GiB shared by up to
// eight users (3 GiB each), and Go's collector lets the heap grow to about
// twice the live data (GOGC = 100; we measured a maximum resident size
// 1.7 times memNeed for RLSI at K = 1000 and GRLSI at (100, 50)), so 1 GiB
// of estimate keeps a job under about 2 GiB.
const memBudget = 1 << 30

// web1Setting is one (Ks, Kc) of the group models on Web-I.
type web1Setting struct{ ks, kc int }

// The settings of §7.1 for Web-I: (Ks, Kc) = (10, 5), (20, 10), (40, 20),
// (100, 50) for GRLSI and GroupNMF (K = Ks + 204·Kc = 1030, 2060, 4120,
// 10300), and K = 100, 200, 500, 1000 for RLSI and NMF ("we found that it
// is not possible to run RLSI and NMF with such large numbers of topics on
// a single machine").
var (
	web1Settings = []web1Setting{{10, 5}, {20, 10}, {40, 20}, {100, 50}}
	web1FlatKs   = []int{100, 200, 500, 1000}
)

// Paper's Tables 8 and 9 (minutes per iteration on Web-I, 100 iterations),
// by K and then λ1 = 0.01, 0.02, 0.05, 0.1. In the text extraction the
// column K = 100 of Table 8 is printed after Table 9's header, before
// K = 1030; it belongs to Table 8 (RLSI runs at K ≤ 1000 only).
var (
	table8 = map[int][4]float64{
		100: {26.57, 26.79, 23.23, 14.19}, 200: {49.79, 39.24, 34.64, 32.68},
		500: {123.45, 117.54, 110.67, 100.25}, 1000: {324.58, 313.49, 303.24, 301.74},
	}
	table9 = map[int][4]float64{
		1030: {35.48, 35.30, 35.36, 34.86}, 2060: {57.50, 55.60, 52.63, 50.44},
		4120: {104.37, 99.46, 94.78, 92.15}, 10300: {438.29, 427.22, 414.37, 409.25},
	}
)

// web1TimingConfig is the Web-I-like corpus of the timing runs: the
// "web1-like" preset (204 classes shaped after Table 5's Web-I row,
// (Ks, Kc) = (10, 5) planted, log-normal lengths of mean 100) at 1,200
// terms × 7,200 documents, the ratio N/M = 6 of Web-I (3,184,138 /
// 530,905), with M ≥ 1000 so that RLSI and NMF can have K = 1000 topics;
// quick: 400 × 2,400.
func web1TimingConfig(quick bool) synthetic.Config {
	return sizedPreset(synthetic.ClassWeb1, 1200, 7200, 400, 2400, quick)
}

// memSizes are the sizes memNeed depends on: M terms, N documents, nnz
// non-zeros of D (0 leaves the data out), P classes.
type memSizes struct{ m, n, nnz, p int64 }

// memNeed estimates the bytes one fit holds at once: the float64 factor
// and work matrices its solver allocates, plus the sparse data. Read off
// the solvers (engine/rlsi newSolver and ridge, engine/nmf newSolver,
// engine/grouprlsi and engine/groupnmf newSolver and updateU), with
// K = Ks + P·Kc for the group models and kt = Ks + Kc:
//
//	rlsi:      U, U', R (3·M·K) + V, V', Φ (3·N·K) + VVᵀ twice, UᵀU, (UᵀU + λ2I), its
//	           Cholesky, inverse and copy (7·K²)
//	nmf:       U, DV, UVᵀV (3·M·K) + V, DᵀU, VUᵀU (3·N·K) + UᵀU, VᵀV (2·K²)
//	grouprlsi: U, U' (2·M·K) + R0, T0, [R_p], [T_p] (2·M·K) + V, V', Φ (3·N·kt)
//	           + per class V_pV_pᵀ twice, Ũ_pᵀŨ_p, Σ_p (4·P·kt²) + [W_pH_pᵀ], [H_pW_pᵀ]
//	           (2·P·Kc·Ks) + W_pW_pᵀ copies (P·Kc²) + S0 (Ks²)
//	groupnmf:  U, U' (2·M·K) + numerators, denominators, T0, T_p (3·M·K) + V, V', Φ,
//	           V denominators (4·N·kt) + per class grams (4·P·kt²) + 2·P·Kc·Ks + P·Kc² + Ks²
//
// times 8 bytes, plus the CSR data: D and Dᵀ (12 bytes a non-zero, 8 a row
// pointer), twice more for the group models' class-ordered copies. The
// flat models take k, the group models ks and kc. The live heap of real
// fits is 0.96 (RLSI: its transients are gone when measured) to 1.015
// times this estimate (TestMemNeedMatchesLiveHeap).
func memNeed(method string, s memSizes, k, ks, kc int64) (int64, error) {
	var floats, copies int64
	switch method {
	case "rlsi":
		floats, copies = 3*s.m*k+3*s.n*k+7*k*k, 2
	case "nmf":
		floats, copies = 3*s.m*k+3*s.n*k+2*k*k, 2
	case "grouprlsi", "groupnmf":
		kk, kt := ks+s.p*kc, ks+kc
		extra := 2*s.p*kc*ks + s.p*kc*kc + ks*ks
		if method == "grouprlsi" {
			floats = 4*s.m*kk + 3*s.n*kt + 4*s.p*kt*kt + extra
		} else {
			floats = 5*s.m*kk + 4*s.n*kt + 4*s.p*kt*kt + extra
		}
		copies = 4
	default:
		return 0, fmt.Errorf("memory estimate: unknown method %q (want rlsi, nmf, grouprlsi or groupnmf)", method)
	}
	data := int64(0)
	if s.nnz > 0 {
		data = copies / 2 * (2*12*s.nnz + 8*(s.m+1) + 8*(s.n+1))
	}
	return 8*floats + data, nil
}

// flatOf is the ungrouped family a group family is compared with.
var flatOf = map[string]string{"grouprlsi": "rlsi", "groupnmf": "nmf"}

// web1Keep keeps a group model's point when ktotal is its setting's total
// (Ks, Kc) = (ks, ks/2) on 204 classes, and a flat model's point when
// ktotal is one of the paper's K for RLSI and NMF.
func web1Keep(_ string, point map[string]string) bool {
	k, err := strconv.Atoi(point["ktotal"])
	if err != nil {
		return false
	}
	if v, ok := point["ks"]; ok {
		s, ok := web1SettingOf(v)
		return ok && totalTopics(s.ks, s.kc, web1Classes) == k
	}
	return slices.Contains(web1FlatKs, k)
}

// web1SettingOf returns the setting whose Ks is ks.
func web1SettingOf(ks string) (web1Setting, bool) {
	n, err := strconv.Atoi(ks)
	if err != nil {
		return web1Setting{}, false
	}
	for _, s := range web1Settings {
		if s.ks == n {
			return s, true
		}
	}
	return web1Setting{}, false
}

// Tables89 is the experiment "gmf2012/tables8-9".
func Tables89() *experiments.Experiment {
	webNote := "the paper's minutes per iteration × 60, on 3.2M Web-I pages; compare ratios only"
	pv := append(timingPaperValues(map[string]string{}, labelRLSI, "Table 8", table8, webNote),
		timingPaperValues(map[string]string{}, labelGRLSI, "Table 9", table9, webNote)...)
	var ktotals, kss []string
	for _, k := range web1FlatKs {
		ktotals = append(ktotals, strconv.Itoa(k))
	}
	for _, s := range web1Settings {
		ktotals = append(ktotals, strconv.Itoa(totalTopics(s.ks, s.kc, web1Classes)))
		kss = append(kss, strconv.Itoa(s.ks))
	}
	budget := fmt.Sprintf("%d MiB", memBudget>>20)
	return &experiments.Experiment{
		ID:      "gmf2012/tables8-9",
		Title:   "Time per iteration of RLSI against Group RLSI and NMF against Group NMF (Web-I-like), and the memory each needs",
		Paper:   experiments.PaperRef{Reference: thePaper, Cite: paperCite, Where: "§7.2 Experiment 1, Tables 8 and 9, Figures 4 and 5"},
		Version: "1",

		Datasets: []string{web1TimingData},
		Corpus: func(j *experiments.Job) (experiments.CorpusSpec, error) {
			if j.Dataset != web1TimingData {
				return experiments.CorpusSpec{}, fmt.Errorf("experiment gmf2012/tables8-9: unknown data set %q (want %s)", j.Dataset, web1TimingData)
			}
			return corpusSpec(j.Dataset, j.Quick, 0), nil
		},
		Methods: timingMethods(),
		// ktotal is the total K of every job; ks (a parameter of the group
		// families only) picks the group setting, and Keep pairs them.
		Grid: map[string][]string{
			"ktotal":  ktotals,
			"ks":      kss,
			"lambda1": lambda1s,
		},
		TaskParams: []string{"ktotal"},
		Keep:       web1Keep,
		Sequential: true,
		Seed:       20120812,
		Task:       tables89Task,

		Metrics: append(timingMetrics("when the configuration does not fit"), []experiments.MetricDef{
			{Name: "k", Definition: "total number of topics K (group models: Ks + 204·Kc)"},
			{Name: "ks", Definition: "shared topics Ks (group models)"},
			{Name: "kc", Definition: "topics per class Kc (group models)"},
			{Name: "mem_mib", Definition: "estimated memory of the fit in MiB (memNeed: the solver's float64 factor and work matrices, e.g. 3·M·K + 3·N·K + 7·K² for RLSI, plus D and Dᵀ in CSR) on our corpus"},
			{Name: "fits", Definition: "1 when mem_mib is within the budget of " + budget + " per job and (flat models) K ≤ min(M, N), so the job ran; 0: does not fit, not run"},
			{Name: "webi_gib", Definition: "the same estimate (without the data, whose size the paper does not give) at Web-I's 530,905 terms × 3,184,138 documents, in GiB"},
			{Name: "flat_mem_mib", Definition: "group models: mem_mib of the ungrouped model (RLSI for GRLSI, NMF for GroupNMF) at the same total K"},
			{Name: "flat_fits", Definition: "group models: 1 when the ungrouped model at the same K is within the memory budget (whether or not K ≤ min(M, N))"},
			{Name: "flat_k_ok", Definition: "group models: 1 when the same K is at most min(M, N) of our corpus, as the ungrouped models require"},
			{Name: "flat_webi_gib", Definition: "group models: webi_gib of the ungrouped model at the same K"},
		}...),
		Tables: []experiments.Table{
			{Name: "table8", Title: "Table 8: seconds per iteration of RLSI (Web-I-like)", Rows: []string{"ktotal", "lambda1"}, Metrics: []string{"sec_per_iter"}, Where: map[string]string{experiments.ColMethod: labelRLSI}, Digits: 3},
			{Name: "table9", Title: "Table 9: seconds per iteration of GRLSI (Web-I-like; K = Ks + 204·Kc)", Rows: []string{"ktotal", "lambda1"}, Metrics: []string{"ks", "kc", "sec_per_iter"}, Where: map[string]string{experiments.ColMethod: labelGRLSI}, Digits: 3},
			{Name: "nmf", Title: "Seconds per iteration of NMF and GroupNMF (Web-I-like; the paper's Figure 5)", Rows: []string{"method", "ktotal"}, Metrics: []string{"sec_per_iter", "first_iter_sec"}, Where: map[string]string{"lambda1": ""}, Digits: 3},
			{Name: "memory", Title: "Estimated memory per fit: ours (MiB, budget " + budget + ") and at Web-I's size (GiB); for the group models also the ungrouped model at the same K",
				Rows: []string{"method", "ktotal"}, Metrics: []string{"mem_mib", "fits", "webi_gib", "flat_mem_mib", "flat_fits", "flat_k_ok", "flat_webi_gib"}, Digits: 1},
		},
		Figures: []experiments.Figure{
			timingFigure("figure4", "Seconds per iteration of RLSI and GRLSI against K (λ1 = 0.01, Web-I-like)", map[string]string{"lambda1": "0.01"}, kLabel),
			timingFigure("figure5", "Seconds per iteration of NMF and GroupNMF against K (Web-I-like)", map[string]string{"lambda1": ""}, kLabel),
		},
		PaperValues: pv,
		Claims: []experiments.Claim{
			{
				Statement: "At nearly the same K, GRLSI at (Ks, Kc) = (10, 5), K = 1030, is faster per iteration than RLSI at K = 1000",
				Source:    "§7.2: \"GRLSI and GroupNMF have better efficiency and scalability\" (Tables 8–9: 324.58 against 35.48 minutes at λ1 = 0.01)",
				Judge:     func(r *experiments.Results) experiments.Verdict { return judgeNearK(r, labelRLSI, labelGRLSI, true) },
			},
			{
				Statement: "At nearly the same K, GroupNMF at (10, 5), K = 1030, is faster per iteration than NMF at K = 1000",
				Source:    "§7.2 (Figure 5; the text gives no numbers)",
				Judge:     func(r *experiments.Results) experiments.Verdict { return judgeNearK(r, labelNMF, labelGroupNMF, false) },
			},
			{
				Statement: "GRLSI's speedup over RLSI grows with K: time per iteration grows more slowly with K for GRLSI (fitted exponent b of t ∝ K^b over its four settings) than for RLSI (over K = 100–1000)",
				Source:    "§7.2: \"particularly when the number of topics gets large\"; the paper's Tables 8–9 give b = 1.14 (RLSI) and 1.08 (GRLSI) on the means over λ1, 1.07 and 1.09 at λ1 = 0.01",
				Judge:     func(r *experiments.Results) experiments.Verdict { return judgeGrowth(r, labelRLSI, labelGRLSI, true) },
			},
			{
				Statement: "GroupNMF's speedup over NMF grows with K (fitted exponent of GroupNMF below NMF's)",
				Source:    "§7.2 (Figure 5)",
				Judge: func(r *experiments.Results) experiments.Verdict {
					return judgeGrowth(r, labelNMF, labelGroupNMF, false)
				},
			},
			{
				Statement: "Some memory budget holds GRLSI at every setting but RLSI at none of the group models' K (1030–10300), and likewise GroupNMF against NMF",
				Source:    "§7.2: \"we were not able to run RLSI and NMF on the single machine, when the number of topics is larger than 1,000\"",
				Judge:     judgeMemory,
			},
		},
		Quick: experiments.Quick{
			Grid: map[string][]string{"ktotal": {"100", "200", "1030", "2060"}, "ks": {"10", "20"}, "lambda1": {"0.01"}},
		},
		Substitutes: "Web-I (530,905 terms × 3,184,138 pages, 204 ODP classes) is not public. A synthetic Web-I-like corpus stands in " +
			"(datasets/synthetic preset web1-like: 204 classes with Table 5's Web-I class-size shape, planted (Ks, Kc) = (10, 5), log-normal " +
			"lengths of mean 100, raw counts) at 1,200 terms × 7,200 documents (Web-I's N/M = 6; M ≥ 1000 so that RLSI and NMF can have " +
			"K = 1000 topics; quick: 400 × 2,400). Rounding to whole documents leaves the smallest classes with one document. " +
			"Measured one job at a time on the busy shared machine (load ≈ 9 on 2 cores), iteration 2 took 43 s for RLSI at K = 1000 " +
			"(9 s for iteration 1), 7.1 s at K = 500, 0.33 s at K = 100; 21 s for GRLSI at (100, 50) (30 s for iteration 1), 2.9 s at (40, 20), " +
			"0.45 s at (10, 5); 2.7 s for NMF at K = 1000 and 1.5 s for GroupNMF at (100, 50): the 40 jobs of 3 iterations take about 13–14 minutes " +
			"(run one at a time). Maximum resident memory was 1.7 times memNeed (RLSI at K = 1000: 525 MB at 1,500 × 9,000).",
		Protocol: "RLSI and GRLSI (λ2 = 0.1, λ1 ∈ {0.01, 0.02, 0.05, 0.1}), NMF and GroupNMF (no λ); GRLSI and GroupNMF with (Ks, Kc) = (10, 5), (20, 10), " +
			"(40, 20), (100, 50), i.e. K = Ks + 204·Kc = 1030, 2060, 4120, 10300, and RLSI and NMF with K = 100, 200, 500, 1000, as §7.1 does " +
			"because the ungrouped models cannot run at the group models' K. Exactly " + timingIters + " iterations (the paper: 100) with the " +
			"tolerance test off, random initialization from each job's derived seed, jobs one at a time (each with the whole worker pool). " +
			"Time per iteration is the mean of iterations 2.." + timingIters + ". Memory: before fitting, every job estimates the bytes its " +
			"solver will hold (memNeed, read off the solvers' allocations; metric definitions) and is recorded as \"does not fit\" without " +
			"running when the estimate exceeds " + budget + " (or, for RLSI and NMF, when K > min(M, N)); each group job also records the " +
			"estimate of the ungrouped model at its K, and both at Web-I's size. Quick: 400 × 2,400, K ∈ {100, 200} and (Ks, Kc) ∈ " +
			"{(10, 5), (20, 10)}, λ1 = 0.01. The paper reports minutes on 3.2M pages: its numbers are printed beside ours only for their ratios.",
	}
}

func tables89Task(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
	k, err := j.IntParam("ktotal", 0)
	if err != nil {
		return nil, err
	}
	corpus, err := experiments.BuildCorpus(corpusSpec(web1TimingData, j.Quick, 0))
	if err != nil {
		return nil, err
	}
	if len(corpus.ClassNames) != web1Classes {
		return nil, fmt.Errorf("experiment %s: corpus %s has %d classes, want %d", j.Experiment.ID, corpus.Name, len(corpus.ClassNames), web1Classes)
	}
	ours := memSizes{m: int64(corpus.D.Rows), n: int64(corpus.D.Cols), nnz: int64(len(corpus.D.Val)), p: web1Classes}
	webI := memSizes{m: webITerms, n: webIDocs, p: web1Classes}
	jc := *j
	jc.Method.Params = maps.Clone(j.Method.Params)
	var (
		ks, kc int64
		flat   = j.Method.Name
		fits   = true
		why    string
	)
	switch j.Method.Name {
	case "rlsi", "nmf":
		jc.Method.Params["k"] = strconv.Itoa(k)
		if lim := min(corpus.D.Rows, corpus.D.Cols); k > lim {
			fits, why = false, fmt.Sprintf("K = %d exceeds min(M, N) = %d", k, lim)
		}
	case "grouprlsi", "groupnmf":
		s, ok := web1SettingOf(j.Method.Params["ks"])
		if !ok || totalTopics(s.ks, s.kc, web1Classes) != k {
			return nil, fmt.Errorf("%s: ks = %q and ktotal = %d are not a setting of §7.1 (K = Ks + 204·Kc with (Ks, Kc) in %v)", j.Label(), j.Method.Params["ks"], k, web1Settings)
		}
		ks, kc = int64(s.ks), int64(s.kc)
		jc.Method.Params["kc"] = strconv.Itoa(s.kc)
		flat = flatOf[j.Method.Name]
	default:
		return nil, fmt.Errorf("%s: method %s is not timed by this experiment", j.Label(), j.Method.Name)
	}
	kk := int64(k)
	if ks > 0 || kc > 0 {
		kk = 0
	}
	need, err := memNeed(j.Method.Name, ours, kk, ks, kc)
	if err != nil {
		return nil, err
	}
	needWebI, _ := memNeed(j.Method.Name, webI, kk, ks, kc)
	if need > memBudget {
		fits, why = false, fmt.Sprintf("estimated %.0f MiB exceeds the budget of %d MiB", float64(need)/(1<<20), memBudget>>20)
	}
	var res *experiments.Result
	if fits {
		f, err := jc.FitCorpus(ctx, corpus, nil)
		if err != nil {
			return nil, err
		}
		if res, err = timingResult(j, f); err != nil {
			return nil, err
		}
	} else {
		res = &experiments.Result{Notes: append([]string{fmt.Sprintf("%s does not fit: %s; not run", j.Label(), why)}, corpus.SyntheticNotes()...)}
	}
	res.AddMetric("k", float64(k))
	if flat != j.Method.Name {
		res.AddMetric("ks", float64(ks))
		res.AddMetric("kc", float64(kc))
		fNeed, err := memNeed(flat, ours, int64(k), 0, 0)
		if err != nil {
			return nil, err
		}
		fWebI, _ := memNeed(flat, webI, int64(k), 0, 0)
		res.AddMetric("flat_mem_mib", float64(fNeed)/(1<<20))
		res.AddMetric("flat_fits", boolMetric(fNeed <= memBudget))
		res.AddMetric("flat_k_ok", boolMetric(k <= min(corpus.D.Rows, corpus.D.Cols)))
		res.AddMetric("flat_webi_gib", float64(fWebI)/(1<<30))
	}
	res.AddMetric("mem_mib", float64(need)/(1<<20))
	res.AddMetric("fits", boolMetric(fits))
	res.AddMetric("webi_gib", float64(needWebI)/(1<<30))
	return res, nil
}

// fitsWord is "" when a configuration fits the budget, else a remark.
func fitsWord(fits bool) string {
	if fits {
		return ""
	}
	return " (does not fit)"
}

func boolMetric(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// meanTimes returns a method's mean seconds per iteration (over λ1 and
// replicates) by K, for the jobs that ran.
func meanTimes(r *experiments.Results, label string) map[int]float64 {
	out := map[int]float64{}
	for _, g := range r.Groups("sec_per_iter", []string{"ktotal"}, map[string]string{experiments.ColMethod: label}) {
		k, err := strconv.Atoi(g.Key[0])
		if err != nil || g.N == 0 || !(g.Mean > 0) {
			continue
		}
		out[k] = g.Mean
	}
	return out
}

// judgeNearK: held when the group model at the smallest setting (K = 1030)
// is faster per iteration than the flat model at K = 1000.
func judgeNearK(r *experiments.Results, base, group string, paperRLSI bool) experiments.Verdict {
	kf, kg := web1FlatKs[len(web1FlatKs)-1], totalTopics(web1Settings[0].ks, web1Settings[0].kc, web1Classes)
	b, g := meanTimes(r, base), meanTimes(r, group)
	tb, ok1 := b[kf]
	tg, ok2 := g[kg]
	if !ok1 || !ok2 {
		return experiments.Undecided(fmt.Sprintf("needs %s at K = %d and %s at K = %d (not both in these runs)", base, kf, group, kg))
	}
	detail := fmt.Sprintf("%s at K = %d: %.3g s, %s at K = %d: %.3g s per iteration (means over λ1): %.2f×", base, kf, tb, group, kg, tg, tb/tg)
	if paperRLSI {
		var p8, p9 float64
		for i := range lambda1s {
			p8 += table8[kf][i] / 4
			p9 += table9[kg][i] / 4
		}
		detail += fmt.Sprintf(" (paper: %.2f× on the means over λ1, %.2f× at λ1 = 0.01)", p8/p9, table8[kf][0]/table9[kg][0])
	}
	return experiments.Judged(tb/tg > 1, detail)
}

// powerFit is the least-squares fit of log t = log a + b·log K over the
// points of times with K > 0 and t > 0, in ascending K
// (experiments.LogLogFit): the exponent b and the factor a; ok is false
// with fewer than two distinct K.
func powerFit(times map[int]float64) (a, b float64, ok bool) {
	var xs, ys []float64
	for _, k := range slices.Sorted(maps.Keys(times)) {
		if t := times[k]; k > 0 && t > 0 {
			xs = append(xs, float64(k))
			ys = append(ys, t)
		}
	}
	return experiments.LogLogFit(xs, ys)
}

// judgeGrowth: held when the group model's fitted exponent is below the
// flat model's, so that the speedup at equal K (the flat model's fit
// extrapolated to the group models' K) grows with K.
func judgeGrowth(r *experiments.Results, base, group string, paperRLSI bool) experiments.Verdict {
	bt, gt := meanTimes(r, base), meanTimes(r, group)
	af, bf, ok1 := powerFit(bt)
	ag, bg, ok2 := powerFit(gt)
	if !ok1 || !ok2 {
		return experiments.Undecided(fmt.Sprintf("needs two K or more for each of %s (%d) and %s (%d)", base, len(bt), group, len(gt)))
	}
	ks := slices.Sorted(maps.Keys(gt))
	var parts []string
	for _, k := range []int{ks[0], ks[len(ks)-1]} {
		x := float64(k)
		parts = append(parts, fmt.Sprintf("%.1f× at K = %d", af*math.Pow(x, bf)/(ag*math.Pow(x, bg)), k))
	}
	detail := fmt.Sprintf("t ∝ K^b fitted on the means over λ1: b = %.2f for %s (K = %s), %.2f for %s (K = %s); equal-K speedup with %s's fit extrapolated: %s",
		bf, base, joinInts(slices.Sorted(maps.Keys(bt))), bg, group, joinInts(ks), base, strings.Join(parts, ", "))
	if paperRLSI {
		detail += "; paper (Tables 8–9, means over λ1): b = 1.14 and 1.08, extrapolated speedup 9.9× at K = 1030 and 11.5× at K = 10300; at λ1 = 0.01: b = 1.07 and 1.09"
	}
	return experiments.Judged(bg < bf, detail)
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// judgeMemory: for each pair (GRLSI/RLSI, GroupNMF/NMF), a budget holding the
// group model at every setting and the flat model at none of the group
// models' K exists iff the largest group estimate is below the smallest
// flat estimate at those K. Held when that is so for both pairs (on our
// corpus); the detail gives the numbers on our corpus and at Web-I's size
// and what the stated budget does.
func judgeMemory(r *experiments.Results) experiments.Verdict {
	type row struct {
		k                   int
		group, flat         float64 // MiB, ours
		groupWebI, flatWebI float64 // GiB
		groupFits, flatFits bool
		flatKOK             bool
	}
	var parts []string
	held, n := true, 0
	for _, pair := range [][2]string{{labelGRLSI, labelRLSI}, {labelGroupNMF, labelNMF}} {
		var rows []row
		seen := map[int]bool{}
		for _, j := range r.Select(map[string]string{experiments.ColMethod: pair[0]}) {
			k, err := strconv.Atoi(j.Job.Point["ktotal"])
			if err != nil || seen[k] {
				continue
			}
			g, ok1 := j.Run.Metric("mem_mib")
			f, ok2 := j.Run.Metric("flat_mem_mib")
			if !ok1 || !ok2 {
				continue
			}
			seen[k] = true
			gw, _ := j.Run.Metric("webi_gib")
			fw, _ := j.Run.Metric("flat_webi_gib")
			gf, _ := j.Run.Metric("fits")
			ff, _ := j.Run.Metric("flat_fits")
			kok, ok := j.Run.Metric("flat_k_ok")
			rows = append(rows, row{k, g, f, gw, fw, gf == 1, ff == 1, !ok || kok == 1})
		}
		if len(rows) == 0 {
			continue
		}
		n++
		sort.Slice(rows, func(a, b int) bool { return rows[a].k < rows[b].k })
		maxGroup, minFlat := math.Inf(-1), math.Inf(1)
		maxGroupW, minFlatW := math.Inf(-1), math.Inf(1)
		var cells []string
		stops := 0
		for _, x := range rows {
			maxGroup, minFlat = math.Max(maxGroup, x.group), math.Min(minFlat, x.flat)
			maxGroupW, minFlatW = math.Max(maxGroupW, x.groupWebI), math.Min(minFlatW, x.flatWebI)
			cells = append(cells, fmt.Sprintf("K = %d: %s %.0f MiB%s (Web-I %.1f GiB), %s %.0f MiB%s (Web-I %.1f GiB)",
				x.k, pair[0], x.group, fitsWord(x.groupFits), x.groupWebI, pair[1], x.flat, fitsWord(x.flatFits)+map[bool]string{true: "", false: " (K > min(M, N): cannot run)"}[x.flatKOK], x.flatWebI))
			if !x.flatFits && stops == 0 {
				stops = x.k
			}
		}
		sep := maxGroup < minFlat
		held = held && sep
		verdict := fmt.Sprintf("the largest %s estimate %.0f MiB is %s the smallest %s one %.0f MiB", pair[0], maxGroup, map[bool]string{true: "below", false: "not below"}[sep], pair[1], minFlat)
		verdict += fmt.Sprintf(" (at Web-I's size %.1f against %.1f GiB)", maxGroupW, minFlatW)
		if stops > 0 {
			verdict += fmt.Sprintf("; with the stated budget of %d MiB, %s stops fitting in memory at K = %d", memBudget>>20, pair[1], stops)
		} else {
			verdict += fmt.Sprintf("; with the stated budget of %d MiB, %s fits in memory at every K", memBudget>>20, pair[1])
		}
		parts = append(parts, fmt.Sprintf("[%s/%s] %s; %s", pair[0], pair[1], strings.Join(cells, "; "), verdict))
	}
	if n == 0 {
		return experiments.Undecided("no group job with memory estimates")
	}
	detail := strings.Join(parts, " ")
	return experiments.Judged(held, detail)
}
