package gnmfnc2014

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/metrics/stats"
)

// PValue is the significance level of every claim's paired two-sided
// t-test (§3.1: "a t-test with a default significant level of 0.05"),
// fixed before any run.
const PValue = 0.05

// protocol is one way of ranking (the whole archive, or the query's own
// judged candidates), of choosing the configuration and γ, and of
// reporting.
type protocol struct {
	key, title string
	// rank is the set of documents each query ranks.
	rank ranking
	// official chooses on dev and reports on test-2016; otherwise the
	// folds.
	official bool
}

var (
	protoArchiveOfficial = protocol{"archive-official", "main protocol (whole archive), official split", rankArchive, true}
	protoArchiveFolds    = protocol{"archive-folds", fmt.Sprintf("main protocol (whole archive), %d folds", Folds), rankArchive, false}
	protoCandsOfficial   = protocol{"cands-official", "second protocol (own ≤ 10 candidates; P@10 the same for every method), official split", rankCands, true}
	protoCandsFolds      = protocol{"cands-folds", fmt.Sprintf("second protocol (own ≤ 10 candidates; P@10 the same for every method), %d folds", Folds), rankCands, false}
	protocols            = []protocol{protoArchiveOfficial, protoArchiveFolds, protoCandsOfficial, protoCandsFolds}
)

// Rows of Tables 2 and 3 with the paper's MAP and P@10 (Yahoo! Answers,
// 1,000 test queries; P@1 is named in §3.2 but not printed).
var (
	table2Rows = []string{"BM25", "LM", "TM", "TRLM", "BM25+" + labelGNMFNC, "LM+" + labelGNMFNC}
	table3Rows = []string{"BM25", "BM25+" + labelNMF, "BM25+" + labelCNMF, "BM25+" + labelGroupNMF, "BM25+" + labelGNMFNC,
		"LM", "LM+" + labelNMF, "LM+" + labelCNMF, "LM+" + labelGroupNMF, "LM+" + labelGNMFNC}
	paperRows = map[string][2]float64{
		"BM25": {0.243, 0.225}, "LM": {0.286, 0.232}, "TM": {0.327, 0.235}, "TRLM": {0.341, 0.238},
		"BM25+" + labelNMF: {0.325, 0.235}, "BM25+" + labelCNMF: {0.344, 0.239}, "BM25+" + labelGroupNMF: {0.361, 0.242}, "BM25+" + labelGNMFNC: {0.369, 0.248},
		"LM+" + labelNMF: {0.337, 0.237}, "LM+" + labelCNMF: {0.352, 0.240}, "LM+" + labelGroupNMF: {0.365, 0.243}, "LM+" + labelGNMFNC: {0.374, 0.251},
	}
	// baseRows maps a Table 2 baseline row to the stored score names' prefix.
	baseRows = map[string]string{"BM25": scoreBM25, "LM": scoreLM, "TM": scoreTM, "TRLM": scoreTRLM}
)

// family is a method label up to its first space ("GNMFNC σ3=0" → "GNMFNC").
func family(label string) string {
	f, _, _ := strings.Cut(label, " ")
	return f
}

// candidate is one configuration of a row: its per-query values by query
// id, the mean over its seeds (seeds holds each seed's values; one for a
// baseline).
type candidate struct {
	desc  string
	vals  map[string][]float64
	seeds []map[string][]float64
}

// choice is a row's outcome under a protocol: the values on the reported
// queries (ids ascending) and what was chosen.
type choice struct {
	queries []string
	vals    [][]float64 // [query][measure], the mean over the seeds
	desc    string
	configs int
	// seedMAP is each seed's MAP over the reported queries (one value for
	// a baseline).
	seedMAP []float64
}

// mapInterval is the MAP's mean over the seeds with its 95 % t interval.
func (c *choice) mapInterval() stats.Interval {
	iv, err := stats.MeanInterval(c.seedMAP, Level)
	if err != nil {
		return stats.Interval{N: len(c.seedMAP), Mean: c.mean(0), Lo: math.NaN(), Hi: math.NaN()}
	}
	return iv
}

// mapText is "0.4123 [0.4100, 0.4146] (5 seeds)", or the MAP alone for a
// row of one run.
func (c *choice) mapText() string {
	if len(c.seedMAP) < 2 {
		return fmt.Sprintf("%.4f", c.mean(0))
	}
	return fmt.Sprintf("%s (%d seeds)", c.mapInterval().Format(4), len(c.seedMAP))
}

func (c *choice) mean(m int) float64 {
	s := 0.0
	for _, v := range c.vals {
		s += v[m]
	}
	return s / float64(len(c.vals))
}

func (c *choice) column(m int) []float64 {
	out := make([]float64, len(c.vals))
	for i, v := range c.vals {
		out[i] = v[m]
	}
	return out
}

// outcome holds every row's choice under one protocol.
type outcome struct {
	proto protocol
	rows  map[string]*choice
}

// outcomes runs both protocols once per Results.
func outcomes(r *experiments.Results) (map[string]*outcome, error) {
	return experiments.Derived(r, "gnmfnc2014 outcomes", computeOutcomes)
}

// computeOutcomes reads every job's stored per-query values, gathers each
// row's candidates per ranking (a Table 3 row: every configuration of the
// method family at the seeded setting, its seeds pooled per query, × every
// γ; a Table 2 baseline: its parameter values, read from the first job)
// and applies the protocols.
func computeOutcomes(r *experiments.Results) (map[string]*outcome, error) {
	cands := map[string]map[string][]candidate{} // ranking prefix → row → candidates
	for _, rk := range rankings {
		cands[rk.prefix] = map[string][]candidate{}
	}
	split, fold := map[string]int{}, map[string]int{}
	// The seeds of each configuration at the seeded setting, in job order.
	type config struct {
		job   *experiments.Job
		seeds []map[string]map[string][]float64 // per seed: name → query → measures
	}
	var configs []*config
	byConfig := map[string]*config{}
	for i, jr := range r.Jobs {
		byName := map[string]map[string][]float64{}
		for _, qm := range jr.Run.PerQuery {
			switch qm.Metric {
			case metricSplit:
				split[qm.Query] = int(qm.Value)
				continue
			case metricFold:
				fold[qm.Query] = int(qm.Value)
				continue
			}
			name, measure, ok := cutLast(qm.Metric, "/")
			m := slices.Index(measures, measure)
			if !ok || m < 0 {
				return nil, fmt.Errorf("%s: unknown per-query metric %q", jr.Run.Dir, qm.Metric)
			}
			v := byName[name]
			if v == nil {
				v = map[string][]float64{}
				byName[name] = v
			}
			x := v[qm.Query]
			if x == nil {
				x = make([]float64, len(measures))
				for k := range x {
					x[k] = math.NaN()
				}
				v[qm.Query] = x
			}
			x[m] = qm.Value
		}
		if i == 0 {
			for _, full := range slices.Sorted(maps.Keys(byName)) {
				prefix, name := "", full
				if rest, ok := strings.CutPrefix(full, archivePrefix); ok {
					prefix, name = archivePrefix, rest
				}
				if base, ok := strings.CutPrefix(name, baselinePrefix); ok {
					for row, bp := range baseRows {
						if base == bp || strings.HasPrefix(base, bp+" ") {
							cands[prefix][row] = append(cands[prefix][row], candidate{desc: base, vals: byName[full], seeds: []map[string][]float64{byName[full]}})
						}
					}
				}
			}
		}
		if !r.Quick && jr.Job.Point["setting"] != SeededSetting {
			continue // the one-seed grid: in the configs table, not in the claims
		}
		key := jr.Job.Method.DisplayName() + "\x00" + jr.Job.Point["setting"]
		c := byConfig[key]
		if c == nil {
			c = &config{job: jr.Job}
			byConfig[key] = c
			configs = append(configs, c)
		}
		c.seeds = append(c.seeds, byName)
	}
	for _, c := range configs {
		jr := struct{ Job *experiments.Job }{c.job}
		first := c.seeds[0]
		names := slices.Sorted(maps.Keys(first))
		fam := family(jr.Job.Method.DisplayName())
		for _, full := range names {
			prefix, name := "", full
			if rest, ok := strings.CutPrefix(full, archivePrefix); ok {
				prefix, name = archivePrefix, rest
			}
			rows := cands[prefix]
			if strings.HasPrefix(name, baselinePrefix) {
				continue
			}
			term, g, ok := strings.Cut(name, "@")
			if !ok {
				return nil, fmt.Errorf("%s: unknown per-query metric %q", jr.Job.Label(), full)
			}
			row := strings.ToUpper(term) + "+" + fam
			desc := fmt.Sprintf("%s setting %s γ=%s", jr.Job.Method.DisplayName(), jr.Job.Point["setting"], g)
			cand := candidate{desc: desc, vals: map[string][]float64{}}
			for s, seed := range c.seeds {
				v, ok := seed[full]
				if !ok {
					return nil, fmt.Errorf("%s, seed %d: no %s", jr.Job.Label(), s, full)
				}
				cand.seeds = append(cand.seeds, v)
			}
			for q := range first[full] {
				mean := make([]float64, len(measures))
				for _, seed := range cand.seeds {
					x, ok := seed[q]
					if !ok {
						return nil, fmt.Errorf("%s: a seed lacks query %s", desc, q)
					}
					for m := range mean {
						mean[m] += x[m] / float64(len(cand.seeds))
					}
				}
				cand.vals[q] = mean
			}
			rows[row] = append(rows[row], cand)
		}
	}
	for _, rows := range cands {
		for _, vals := range rows {
			for _, c := range vals {
				for _, seed := range c.seeds {
					for q, x := range seed {
						for m, v := range x {
							if math.IsNaN(v) {
								return nil, fmt.Errorf("%s lacks %s for query %s", c.desc, measures[m], q)
							}
						}
					}
				}
			}
		}
	}
	if len(split) == 0 {
		return nil, fmt.Errorf("no runs with per-query values")
	}
	out := map[string]*outcome{}
	for _, p := range protocols {
		o := &outcome{proto: p, rows: map[string]*choice{}}
		for row, cs := range cands[p.rank.prefix] {
			var err error
			if p.official {
				o.rows[row], err = chooseOfficial(cs, split)
			} else {
				o.rows[row], err = chooseFolds(cs, fold)
			}
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", p.key, row, err)
			}
		}
		out[p.key] = o
	}
	return out, nil
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+len(sep):], true
}

// pick returns the candidate with the highest mean MAP over the queries
// keep accepts (ties: the first), reading no other query's value.
func pick(cs []candidate, keep func(q string) bool) (int, error) {
	best, bi := math.Inf(-1), -1
	for i, c := range cs {
		s, n := 0.0, 0
		for q, v := range c.vals {
			if keep(q) {
				s += v[0]
				n++
			}
		}
		if n == 0 {
			return 0, fmt.Errorf("%s: no selection query", c.desc)
		}
		if m := s / float64(n); m > best {
			best, bi = m, i
		}
	}
	if bi < 0 {
		return 0, fmt.Errorf("no candidate")
	}
	return bi, nil
}

// chooseOfficial chooses on the dev queries and reports on the test ones.
func chooseOfficial(cs []candidate, split map[string]int) (*choice, error) {
	dev, test := slices.Index(splitNames, splitDev), slices.Index(splitNames, splitTest)
	bi, err := pick(cs, func(q string) bool { return split[q] == dev })
	if err != nil {
		return nil, err
	}
	c := &choice{desc: cs[bi].desc, configs: len(cs)}
	for _, q := range slices.Sorted(maps.Keys(cs[bi].vals)) {
		if split[q] == test {
			c.queries = append(c.queries, q)
			c.vals = append(c.vals, cs[bi].vals[q])
		}
	}
	for _, seed := range cs[bi].seeds {
		s := 0.0
		for _, q := range c.queries {
			s += seed[q][0]
		}
		c.seedMAP = append(c.seedMAP, s/float64(len(c.queries)))
	}
	return c, nil
}

// chooseFolds chooses, for each fold, on the queries of the other folds
// and reports on the fold's; the result covers every query.
func chooseFolds(cs []candidate, fold map[string]int) (*choice, error) {
	c := &choice{configs: len(cs)}
	chosen := make([]int, Folds)
	for f := range chosen {
		bi, err := pick(cs, func(q string) bool { return fold[q] != f })
		if err != nil {
			return nil, err
		}
		chosen[f] = bi
	}
	nseeds := math.MaxInt
	for _, bi := range chosen {
		nseeds = min(nseeds, len(cs[bi].seeds))
	}
	c.seedMAP = make([]float64, nseeds)
	for _, q := range slices.Sorted(maps.Keys(cs[0].vals)) {
		c.queries = append(c.queries, q)
		c.vals = append(c.vals, cs[chosen[fold[q]]].vals[q])
		for s := range c.seedMAP {
			c.seedMAP[s] += cs[chosen[fold[q]]].seeds[s][q][0]
		}
	}
	for s := range c.seedMAP {
		c.seedMAP[s] /= float64(len(c.queries))
	}
	var parts []string
	for f, bi := range chosen {
		parts = append(parts, fmt.Sprintf("fold %d: %s", f+1, cs[bi].desc))
	}
	c.desc = strings.Join(parts, "; ")
	return c, nil
}

// test is the paired t-test of row a against row b on measure m.
func test(a, b *choice, m int) (stats.TTest, error) {
	if !slices.Equal(a.queries, b.queries) {
		return stats.TTest{}, fmt.Errorf("rows evaluated on different queries (%d vs %d)", len(a.queries), len(b.queries))
	}
	return stats.PairedTTest(a.column(m), b.column(m))
}

// comparison judges "a above b" for each pair under one protocol: held
// when every a has a higher MAP than its b, and (when significant) with a
// Holm-adjusted p < PValue over the claim's comparisons (Holm 1979); each
// row's per-query values are the means over its seeds. P@10 and its paired
// t-test are reported beside, not judged.
func comparison(p protocol, pairs [][2]string, significant bool) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := outcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocol: " + err.Error())
		}
		o := out[p.key]
		type cmp struct {
			pair   [2]string
			a, b   *choice
			t, p10 stats.TTest
		}
		var cmps []cmp
		var ps []float64
		p10 := slices.Index(measures, "P_10")
		for _, pr := range pairs {
			a, b := o.rows[pr[0]], o.rows[pr[1]]
			if a == nil || b == nil {
				continue
			}
			t, err := test(a, b, 0)
			if err != nil {
				return experiments.Undecided(err.Error())
			}
			tp, err := test(a, b, p10)
			if err != nil {
				return experiments.Undecided(err.Error())
			}
			cmps = append(cmps, cmp{pr, a, b, t, tp})
			ps = append(ps, t.P)
		}
		if len(cmps) == 0 {
			return experiments.Undecided("no runs of these rows")
		}
		adj, err := stats.Holm(ps, len(ps))
		if err != nil {
			return experiments.Undecided(err.Error())
		}
		n, held := len(cmps), 0
		var parts []string
		for i, c := range cmps {
			if c.t.MeanDiff > 0 && (!significant || adj[i] < PValue) {
				held++
			}
			parts = append(parts, fmt.Sprintf("%s %s vs %s %s (%+.4f, p=%.3g, Holm p=%.3g; P@10 %.4f vs %.4f, %+.4f, p=%.3g)",
				c.pair[0], c.a.mapText(), c.pair[1], c.b.mapText(), c.t.MeanDiff, c.t.P, adj[i], c.a.mean(p10), c.b.mean(p10), c.p10.MeanDiff, c.p10.P))
		}
		nq := len(o.rows[pairs[0][0]].queries)
		how := "higher"
		if significant {
			how = "significantly higher (Holm-adjusted p < " + strconv.FormatFloat(PValue, 'g', -1, 64) + fmt.Sprintf(" over the claim's m = %d comparisons)", n)
		}
		return experiments.Judged(held == n, fmt.Sprintf("%s, %d queries, MAP mean over seeds [95 %% t interval], per-query means over seeds compared by paired t-tests: MAP %s in %d of %d comparisons: %s",
			p.title, nq, how, held, n, strings.Join(parts, "; ")))
	}
}

// evidence renders a table's rows under one protocol, with paired t-tests
// of each combined row against its term model alone (* p < PValue) and the
// paper's numbers.
func evidence(p protocol, rows []string) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		out, err := outcomes(r)
		if err != nil {
			return experiments.Undecided("cannot run the protocol: " + err.Error())
		}
		o := out[p.key]
		var b strings.Builder
		fmt.Fprintf(&b, "%s. ", p.title)
		for _, row := range rows {
			c := o.rows[row]
			if c == nil {
				continue
			}
			base := o.rows[strings.SplitN(row, "+", 2)[0]]
			fmt.Fprintf(&b, "%s (%d queries", row, len(c.queries))
			if len(c.seedMAP) > 1 {
				fmt.Fprintf(&b, "; MAP over %d seeds %s", len(c.seedMAP), c.mapInterval().Format(4))
			}
			if p.official && c.configs > 1 {
				fmt.Fprintf(&b, "; best of %d on dev: %s", c.configs, c.desc)
			}
			b.WriteString("): ")
			for m, measure := range measures {
				fmt.Fprintf(&b, "%s %.4f", measureNames[measure], c.mean(m))
				if base != nil && base != c {
					if t, err := test(c, base, m); err == nil {
						star := ""
						if t.Significant(PValue) {
							star = "*"
						}
						fmt.Fprintf(&b, " (%+.4f, p=%.3g%s)", t.MeanDiff, t.P, star)
					}
				}
				if pv, ok := paperRows[row]; ok && measure != "P_1" {
					fmt.Fprintf(&b, " [paper %.3f]", pv[map[string]int{"map": 0, "P_10": 1}[measure]])
				}
				if m < len(measures)-1 {
					b.WriteString(", ")
				}
			}
			b.WriteString(". ")
		}
		return experiments.Undecided(strings.TrimSpace(b.String()))
	}
}

// protocolClaims are the paper's claims of §3.2–3.3 judged under one
// protocol, and the evidence tables.
func protocolClaims(p protocol) []experiments.Claim {
	g := labelGNMFNC
	var all [][2]string
	for _, term := range []string{"BM25", "LM"} {
		for _, m := range []string{labelNMF, labelCNMF, labelGroupNMF, labelGNMFNC} {
			all = append(all, [2]string{term + "+" + m, term})
		}
	}
	tag := " [" + p.title + "; (Ks, Kp) = (20, 8), 5 seeds]"
	return []experiments.Claim{
		{Statement: "BM25+GNMFNC and LM+GNMFNC perform significantly better than BM25 and LM (MAP, paired t-test, Holm-adjusted p < 0.05)" + tag,
			Source: "§3.2 trend (1), Table 2 rows 1, 2 vs 9, 10", Judge: comparison(p, [][2]string{{"BM25+" + g, "BM25"}, {"LM+" + g, "LM"}}, true)},
		{Statement: "BM25+GNMFNC and LM+GNMFNC perform better than the translation models TM and TRLM (higher MAP; the paper: \"some improvements are statistically significant\")" + tag,
			Source: "§3.2 trend (2), Table 2 rows 3, 4 vs 9, 10", Judge: comparison(p, [][2]string{{"BM25+" + g, "TM"}, {"BM25+" + g, "TRLM"}, {"LM+" + g, "TM"}, {"LM+" + g, "TRLM"}}, false)},
		{Statement: "All matrix factorizations significantly improve BM25 and LM (MAP, Holm-adjusted p < 0.05)" + tag,
			Source: "§3.3 observation (1), Table 3", Judge: comparison(p, all, true)},
		{Statement: "GroupNMF and GNMFNC perform significantly better than NMF and CNMF respectively (MAP, Holm-adjusted p < 0.05; read as GroupNMF > NMF and GNMFNC > CNMF, with BM25 and with LM)" + tag,
			Source: "§3.3 observation (2), Table 3", Judge: comparison(p, [][2]string{{"BM25+" + labelGroupNMF, "BM25+" + labelNMF}, {"BM25+" + g, "BM25+" + labelCNMF}, {"LM+" + labelGroupNMF, "LM+" + labelNMF}, {"LM+" + g, "LM+" + labelCNMF}}, true)},
		{Statement: "GNMFNC performs significantly better than Group NMF (MAP, Holm-adjusted p < 0.05, with BM25 and with LM)" + tag,
			Source: "§3.3 observation (3), Table 3 rows 4 vs 5, 9 vs 10", Judge: comparison(p, [][2]string{{"BM25+" + g, "BM25+" + labelGroupNMF}, {"LM+" + g, "LM+" + labelGroupNMF}}, true)},
		{Statement: "Evidence (Table 2): BM25, LM, TM, TRLM and BM25/LM+GNMFNC; MAP over seeds with its 95 % interval, differences and unadjusted p against the row's term model alone; the paper's Yahoo! Answers numbers in brackets" + tag,
			Source: "Table 2", Judge: evidence(p, table2Rows)},
		{Statement: "Evidence (Table 3): BM25/LM and each factorization combined with them, likewise" + tag,
			Source: "Table 3", Judge: evidence(p, table3Rows)},
	}
}
