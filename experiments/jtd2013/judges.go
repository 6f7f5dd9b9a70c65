package jtd2013

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/metrics/stats"
)

// datasetsOf returns the data sets present in r, sorted.
func datasetsOf(r *experiments.Results) []string {
	seen := map[string]bool{}
	for _, j := range r.Select(nil) {
		seen[j.Job.Dataset] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

func mean(v []float64) float64 {
	m, _ := stats.MeanStd(v)
	return m
}

// judgeRatio holds when mean(num)/mean(den) ≥ factor on every data set.
func judgeRatio(num, den string, factor float64) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		var parts []string
		held, n := true, 0
		for _, d := range datasetsOf(r) {
			where := map[string]string{experiments.ColDataset: d}
			a, b := r.Values(num, where), r.Values(den, where)
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			n++
			ratio := mean(a) / mean(b)
			held = held && ratio >= factor
			parts = append(parts, fmt.Sprintf("%s: %s/%s = %.0f/%.0f = %.1f", d, num, den, mean(a), mean(b), ratio))
		}
		if n == 0 {
			return experiments.Undecided("no runs")
		}
		return experiments.Judged(held, strings.Join(parts, "; "))
	}
}

// judgeAtLeast holds when the metric's mean is ≥ threshold on every data set.
func judgeAtLeast(metric string, threshold float64) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		var parts []string
		held, n := true, 0
		for _, d := range datasetsOf(r) {
			v := r.Values(metric, map[string]string{experiments.ColDataset: d})
			if len(v) == 0 {
				continue
			}
			n++
			held = held && mean(v) >= threshold
			parts = append(parts, fmt.Sprintf("%s: %s = %.3f", d, metric, mean(v)))
		}
		if n == 0 {
			return experiments.Undecided("no runs")
		}
		return experiments.Judged(held, strings.Join(parts, "; ")+fmt.Sprintf(" (threshold %.3g)", threshold))
	}
}

// pairedFolds returns the fold accuracies of metric a in the jobs of whereA
// and of metric b in the jobs of whereB, paired by (replicate, fold): the
// folds of a data set and replicate are the same for every job.
func pairedFolds(r *experiments.Results, a string, whereA map[string]string, b string, whereB map[string]string) (xs, ys []float64) {
	type key struct {
		rep  int
		fold string
	}
	collect := func(metric string, where map[string]string) map[key]float64 {
		out := map[key]float64{}
		for _, j := range r.Select(where) {
			for _, q := range j.Run.PerQuery {
				if q.Metric == metric {
					out[key{j.Job.Replicate, q.Query}] = q.Value
				}
			}
		}
		return out
	}
	ma, mb := collect(a, whereA), collect(b, whereB)
	var keys []key
	for k := range ma {
		if _, ok := mb[k]; ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].rep != keys[j].rep {
			return keys[i].rep < keys[j].rep
		}
		return keys[i].fold < keys[j].fold
	})
	for _, k := range keys {
		xs, ys = append(xs, ma[k]), append(ys, mb[k])
	}
	return xs, ys
}

// comparison is one "A beats B" test: the mean difference over paired folds
// and its paired t-test.
type comparison struct {
	label      string
	meanA      float64
	meanB      float64
	p          float64
	pairs      int
	beats, sig bool
}

func compare(label string, xs, ys []float64, alpha float64) (comparison, error) {
	c := comparison{label: label, pairs: len(xs)}
	if len(xs) < 2 {
		return c, fmt.Errorf("%s: %d paired folds", label, len(xs))
	}
	c.meanA, c.meanB = mean(xs), mean(ys)
	tt, err := stats.PairedTTest(xs, ys)
	if err != nil {
		return c, err
	}
	c.p = tt.P
	c.beats = c.meanA > c.meanB
	c.sig = c.beats && c.p < alpha
	return c, nil
}

// betterAtBoth holds when, at both values v of the column col, metric a in
// the jobs of whereA(v) beats metric b in those of whereB(v) by at least
// margin and significantly (compare at α = 0.05 over their pairedFolds).
func betterAtBoth(r *experiments.Results, col string, values [2]string, a string, whereA func(string) map[string]string, b string, whereB func(string) map[string]string, margin float64) experiments.Verdict {
	var parts []string
	held, n := true, 0
	for _, v := range values {
		xs, ys := pairedFolds(r, a, whereA(v), b, whereB(v))
		c, err := compare(col+" = "+v, xs, ys, 0.05)
		if err != nil {
			parts = append(parts, err.Error())
			continue
		}
		n++
		held = held && c.sig && c.meanA-c.meanB >= margin
		parts = append(parts, c.String())
	}
	if n < len(values) {
		return experiments.Undecided(strings.Join(parts, "; ") + " (needs both " + col + ")")
	}
	return experiments.Judged(held, strings.Join(parts, "; "))
}

func (c comparison) String() string {
	return fmt.Sprintf("%s: %.4f vs %.4f (%+.4f, paired t-test over %d folds p = %.3g)", c.label, c.meanA, c.meanB, c.meanA-c.meanB, c.pairs, c.p)
}
