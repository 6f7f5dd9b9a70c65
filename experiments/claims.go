package experiments

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Judged is the verdict of a decided claim: Held when held, else NotHeld,
// with the numbers behind it.
func Judged(held bool, detail string) Verdict {
	if held {
		return Verdict{Outcome: Held, Detail: detail}
	}
	return Verdict{Outcome: NotHeld, Detail: detail}
}

// Undecided is the verdict of a claim the results cannot decide (no runs,
// a missing method, a fit that is not defined), saying why.
func Undecided(why string) Verdict {
	return Verdict{Outcome: Inconclusive, Detail: why}
}

// Comparison is one point of BeatsAtEvery: the means of A and B at one
// value of the column.
type Comparison struct {
	At     string
	A, B   float64
	Better bool
}

// BeatsAtEvery judges "A beats B on metric at every value of column x"
// (e.g. x = "k"), among the jobs matching where: at each value of x where
// both methods (display names) recorded the metric, the mean of A's
// replicates is above B's (below with lowerBetter). Points are in
// ascending numeric order of x (lexical when not numbers). The detail is
// "<label>=<x> <mean A> vs <mean B>" for each point, joined by ", " and
// preceded by prefix; the claim is undecided when no point has both.
func BeatsAtEvery(r *Results, metric, x, label string, where map[string]string, a, b string, lowerBetter bool, prefix string) Verdict {
	pts := Compare(r, metric, x, where, a, b, lowerBetter)
	if len(pts) == 0 {
		return Undecided(fmt.Sprintf("no %s where both %s and %s recorded %s", x, a, b, metric))
	}
	held := true
	parts := make([]string, len(pts))
	for i, p := range pts {
		parts[i] = fmt.Sprintf("%s=%s %.3f vs %.3f", label, p.At, p.A, p.B)
		held = held && p.Better
	}
	return Judged(held, prefix+strings.Join(parts, ", "))
}

// Compare returns, at each value of column x where both methods recorded
// the metric among the jobs matching where, the means of A and B over
// their replicates and whether A is better (strictly higher, or strictly
// lower with lowerBetter; NaN is never better), in ascending order of x.
func Compare(r *Results, metric, x string, where map[string]string, a, b string, lowerBetter bool) []Comparison {
	means := map[[2]string]float64{}
	seen := map[string]bool{}
	var xs []string
	for _, g := range r.Groups(metric, []string{x, ColMethod}, where) {
		if g.N == 0 {
			continue
		}
		if !seen[g.Key[0]] {
			seen[g.Key[0]] = true
			xs = append(xs, g.Key[0])
		}
		means[[2]string{g.Key[0], g.Key[1]}] = g.Mean
	}
	sortNumeric(xs)
	var out []Comparison
	for _, v := range xs {
		ma, okA := means[[2]string{v, a}]
		mb, okB := means[[2]string{v, b}]
		if !okA || !okB {
			continue
		}
		better := ma > mb
		if lowerBetter {
			better = ma < mb
		}
		out = append(out, Comparison{At: v, A: ma, B: mb, Better: better})
	}
	return out
}

// sortNumeric sorts values numerically when they all parse as numbers,
// lexically otherwise.
func sortNumeric(vs []string) {
	num := true
	for _, v := range vs {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			num = false
		}
	}
	sort.SliceStable(vs, func(i, j int) bool {
		if num {
			a, _ := strconv.ParseFloat(vs[i], 64)
			b, _ := strconv.ParseFloat(vs[j], 64)
			return a < b
		}
		return vs[i] < vs[j]
	})
}

// InBand judges "the mean of metric over the jobs matching where lies in
// [lo, hi]" (use ±Inf for a one-sided band). The detail gives the mean,
// the number of runs and each run's value (ascending, digits decimals),
// then the band as "threshold" text supplied by the caller.
func InBand(r *Results, metric string, where map[string]string, lo, hi float64, digits int, threshold string) Verdict {
	vals := r.Values(metric, where)
	if len(vals) == 0 {
		return Undecided("no run with " + metric)
	}
	s := Summarize(vals)
	sorted := append([]float64(nil), vals...)
	sort.Float64s(sorted)
	parts := make([]string, len(sorted))
	for i, v := range sorted {
		parts[i] = strconv.FormatFloat(v, 'f', digits, 64)
	}
	detail := fmt.Sprintf("mean %.*f over %d runs (%s); %s", digits, s.Mean, s.N, strings.Join(parts, ", "), threshold)
	return Judged(s.Mean >= lo && s.Mean <= hi, detail)
}

// LogLogFit fits y = a·x^b by least squares on (ln x, ln y) and returns a,
// b; ok is false with fewer than two points, a non-positive value, or x
// values that are all equal.
func LogLogFit(x, y []float64) (a, b float64, ok bool) {
	if len(x) != len(y) || len(x) < 2 {
		return 0, 0, false
	}
	lx, ly := make([]float64, len(x)), make([]float64, len(y))
	var mx, my float64
	for i := range x {
		if x[i] <= 0 || y[i] <= 0 {
			return 0, 0, false
		}
		lx[i], ly[i] = math.Log(x[i]), math.Log(y[i])
		mx += lx[i]
		my += ly[i]
	}
	mx /= float64(len(x))
	my /= float64(len(x))
	var sxy, sxx float64
	for i := range lx {
		dx := lx[i] - mx
		sxy += dx * (ly[i] - my)
		sxx += dx * dx
	}
	if sxx == 0 {
		return 0, 0, false
	}
	b = sxy / sxx
	return math.Exp(my - b*mx), b, true
}

// SlopeAtMost judges a trend: the fitted log–log slope b of y = a·x^b
// over the points is at most high. The detail is prefix, then
// "slope <b> of <yName> over " and the points as "<xName>=<x>: <y>".
func SlopeAtMost(x, y []float64, high float64, xName, yName, prefix string) Verdict {
	var parts []string
	for i := range x {
		parts = append(parts, fmt.Sprintf("%s=%g: %.3g", xName, x[i], y[i]))
	}
	_, b, ok := LogLogFit(x, y)
	if !ok {
		b = math.NaN()
	}
	detail := fmt.Sprintf("%sslope %.3f of %s over %s", prefix, b, yName, strings.Join(parts, ", "))
	if !ok {
		return Undecided(detail)
	}
	return Judged(b <= high, detail)
}
