package stats

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a mean with a two-sided confidence interval.
type Interval struct {
	N      int     // number of values
	Mean   float64 // x̄
	Lo, Hi float64 // x̄ ∓ t_{1−(1−level)/2, n−1} · s/√n
	Level  float64 // e.g. 0.95
}

// Format is "0.3276 [0.3251, 0.3301]" with digits after the decimal point.
func (iv Interval) Format(digits int) string {
	return fmt.Sprintf("%.*f [%.*f, %.*f]", digits, iv.Mean, digits, iv.Lo, digits, iv.Hi)
}

// MeanInterval returns the mean of x with Student's t confidence interval
// at the given level (0 < level < 1):
//
//	x̄ ± t_{(1+level)/2, n−1} · s / √n,
//
// s the sample standard deviation (divisor n − 1) and t_{q, ν} the q
// quantile of Student's t with ν degrees of freedom (as
// scipy.stats.t.interval(level, n−1, loc=x̄, scale=s/√n)). Fewer than two
// values give Lo = Hi = NaN; equal values give Lo = Hi = x̄.
func MeanInterval(x []float64, level float64) (Interval, error) {
	if !(level > 0 && level < 1) {
		return Interval{}, fmt.Errorf("stats: confidence level %v, want 0 < level < 1", level)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Interval{}, fmt.Errorf("stats: value %d is %v, want a finite value", i, v)
		}
	}
	iv := Interval{N: len(x), Level: level}
	var s float64
	iv.Mean, s = MeanStd(x)
	if len(x) < 2 {
		iv.Lo, iv.Hi = math.NaN(), math.NaN()
		return iv, nil
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(x) - 1)}.Quantile((1 + level) / 2)
	half := t * s / math.Sqrt(float64(len(x)))
	iv.Lo, iv.Hi = iv.Mean-half, iv.Mean+half
	return iv, nil
}

// Holm returns Holm's step-down adjusted p-values (S. Holm, "A simple
// sequentially rejective multiple test procedure", Scandinavian Journal of
// Statistics 6(2), 1979) of the given p-values within a family of m ≥
// len(p) hypotheses; the m − len(p) hypotheses not listed count as p = 1
// (never rejected), which makes the adjustment conservative when their
// p-values are unknown, e.g. the settings a best setting was chosen from.
// With the listed p-values sorted ascending, p_(1) ≤ … ≤ p_(n):
//
//	p̃_(i) = min(1, max_{j ≤ i} (m − j + 1) · p_(j)),
//
// returned in the order given. Hypothesis i is rejected at level α when
// p̃_i < α, which controls the family-wise error rate at α. A NaN p-value
// (an undefined test) stays NaN and takes no rank.
func Holm(p []float64, m int) ([]float64, error) {
	var idx []int
	for i, v := range p {
		if math.IsNaN(v) {
			continue
		}
		if v < 0 || v > 1 {
			return nil, fmt.Errorf("stats: p-value %d is %v, want a value in [0, 1]", i, v)
		}
		idx = append(idx, i)
	}
	if m < len(p) {
		return nil, fmt.Errorf("stats: Holm's family of %d hypotheses is smaller than the %d p-values given", m, len(p))
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	out := make([]float64, len(p))
	for i := range out {
		out[i] = math.NaN()
	}
	running := 0.0
	for rank, i := range idx {
		running = math.Max(running, math.Min(1, float64(m-rank)*p[i]))
		out[i] = running
	}
	return out, nil
}
