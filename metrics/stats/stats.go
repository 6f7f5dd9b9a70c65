package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MeanStd returns the arithmetic mean of x and its sample standard deviation
// (divisor n − 1). The mean of an empty slice is NaN; the standard deviation
// of fewer than two values is NaN.
func MeanStd(x []float64) (mean, std float64) {
	n := len(x)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	if n < 2 {
		return mean, math.NaN()
	}
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(n-1))
}

// TTest is the result of a paired two-sided t-test.
type TTest struct {
	N        int     // number of pairs
	MeanDiff float64 // d̄, mean of a − b
	StdDiff  float64 // s, sample standard deviation of a − b
	T        float64 // t statistic
	DF       float64 // degrees of freedom, n − 1
	P        float64 // two-sided p-value
	// Warnings explain NaN or infinite results (n < 2, zero variance).
	Warnings []string
}

// Significant reports whether P < alpha (false when P is NaN).
func (r TTest) Significant(alpha float64) bool { return r.P < alpha }

// PairedTTest runs Student's paired two-sided t-test of a against b (see the
// package documentation). It returns an error when the lengths differ or a
// value is NaN or infinite.
func PairedTTest(a, b []float64) (TTest, error) {
	if len(a) != len(b) {
		return TTest{}, fmt.Errorf("stats: paired t-test of %d values against %d", len(a), len(b))
	}
	d := make([]float64, len(a))
	for i := range a {
		if math.IsNaN(a[i]) || math.IsInf(a[i], 0) || math.IsNaN(b[i]) || math.IsInf(b[i], 0) {
			return TTest{}, fmt.Errorf("stats: pair %d is (%v, %v), want finite values", i, a[i], b[i])
		}
		d[i] = a[i] - b[i]
	}
	r := TTest{N: len(d), DF: float64(len(d) - 1)}
	r.MeanDiff, r.StdDiff = MeanStd(d)
	if r.N < 2 {
		r.T, r.P = math.NaN(), math.NaN()
		r.Warnings = append(r.Warnings, fmt.Sprintf("t-test on %d pair(s): at least 2 are needed", r.N))
		if r.N == 0 {
			r.DF = math.NaN()
		}
		return r, nil
	}
	if r.StdDiff == 0 {
		if r.MeanDiff == 0 {
			r.T, r.P = math.NaN(), math.NaN()
			r.Warnings = append(r.Warnings, "t-test: all differences are zero; the test is undefined")
		} else {
			r.T, r.P = math.Copysign(math.Inf(1), r.MeanDiff), 0
			r.Warnings = append(r.Warnings, "t-test: all differences are equal and non-zero (zero variance)")
		}
		return r, nil
	}
	r.T = r.MeanDiff / (r.StdDiff / math.Sqrt(float64(r.N)))
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}
	r.P = 2 * st.CDF(-math.Abs(r.T))
	return r, nil
}
