package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// Power-of-ten labels are the powers as written, not the rounding error of
// repeated multiplication (gonum's own labels read 9.999999999999999e-05).
func TestPowerTickLabels(t *testing.T) {
	var labels []string
	for _, tk := range (powerTicks{}).Ticks(1e-8, 10) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := "1e-08 1e-07 1e-06 1e-05 0.0001 0.001 0.01 0.1 1 10"
	if got := strings.Join(labels, " "); got != want {
		t.Errorf("labels %q, want %q", got, want)
	}
	var gonum []string
	for _, tk := range (plot.LogTicks{Prec: -1}).Ticks(1e-8, 10) {
		if tk.Label != "" {
			gonum = append(gonum, tk.Label)
		}
	}
	if strings.Join(gonum, " ") == want {
		t.Log("gonum's labels are exact now; powerTicks may be dropped")
	}
}

// WrapWords fills lines greedily and gives a word too long for any line a
// line of its own; sizes 0 and 1 included.
func TestWrapWords(t *testing.T) {
	runes := func(n int) func(string) bool { return func(l string) bool { return len([]rune(l)) <= n } }
	for _, c := range []struct {
		s    string
		n    int
		want []string
	}{
		{"", 5, nil},
		{"a", 5, []string{"a"}},
		{"aa bb cc", 5, []string{"aa bb", "cc"}},
		{"x verylongword y", 5, []string{"x", "verylongword", "y"}},
		{" α  β ", 3, []string{"α β"}},
	} {
		if got := WrapWords(c.s, runes(c.n)); !slices.Equal(got, c.want) {
			t.Errorf("WrapWords(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// niceStep against steps worked out by hand: the smallest of 1, 2, 5 ×
// 10^k with at most 7 multiples in the range.
func TestNiceStep(t *testing.T) {
	for _, c := range []struct {
		lo, hi, want float64
	}{
		{0, 20.8, 5},            // 2 has 11 multiples (0..20), 5 has 5
		{0.13, 30.87, 5},        // a 30-iteration trace: 5..30, not gonum's 4, 16, 28
		{0.2, 0.44, 0.05},       // 0.02 has 12 multiples
		{0.0036, 0.0145, 0.002}, // 0.001 has 11; 0.004..0.014 is 6, not gonum's 0.004, 0.008, 0.012
		{1226, 1386, 50},        // 20 has 8 (1240..1380)
		{-1, 1, 0.5},            // 0.2 has 11
		{0, 6, 1},               // exactly 7 multiples, 0..6
		{1000, 2000, 200},       // 100 has 11
		{5, 5, 0},               // empty range
		{0, math.Inf(1), 0},
	} {
		if got := niceStep(c.lo, c.hi, 7); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("niceStep(%v, %v, 7) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

// Labels have as many decimals as the step needs, the same on the whole
// axis (0.15, 0.20, 0.25, not 0.15, 0.2, 0.25), and zero is "0.0", never
// "-0.0"; unlabelled minor ticks fall at fifths of a step of 1 or 5 and
// quarters of a step of 2.
func TestNiceTickLabels(t *testing.T) {
	for _, c := range []struct {
		lo, hi     float64
		labels     string
		minorsEach int
	}{
		{0.1, 0.3, "0.10 0.15 0.20 0.25 0.30", 5},
		{-1, 1, "-1.0 -0.5 0.0 0.5 1.0", 5},
		{0, 1.3, "0.0 0.2 0.4 0.6 0.8 1.0 1.2", 4},
		{0.13, 30.87, "5 10 15 20 25 30", 5},
		{1000, 2000, "1000 1200 1400 1600 1800 2000", 4},
	} {
		ticks := niceTicks{}.Ticks(c.lo, c.hi)
		var labels []string
		var values []float64
		for _, tk := range ticks {
			if tk.Value < c.lo || tk.Value > c.hi {
				t.Errorf("[%v, %v]: tick at %v outside the range", c.lo, c.hi, tk.Value)
			}
			values = append(values, tk.Value)
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.labels {
			t.Errorf("[%v, %v]: labels %q, want %q", c.lo, c.hi, got, c.labels)
		}
		step := niceStep(c.lo, c.hi, maxTicks)
		for i := 1; i < len(values); i++ {
			if d := values[i] - values[i-1]; math.Abs(d-step/float64(c.minorsEach)) > 1e-9*step {
				t.Errorf("[%v, %v]: ticks %v and %v are %v apart, want %v", c.lo, c.hi, values[i-1], values[i], d, step/float64(c.minorsEach))
				break
			}
		}
	}
}

// Log ticks: powers of ten over two decades or more (none outside the
// range, which gonum would reserve room for), 1, 2, 5 × 10^k over less,
// and round linear steps when no 1, 2 or 5 falls in the range.
func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		labels string
	}{
		{0.03, 40, "0.1 1 10"},
		{3, 40, "5 10 20"},
		{0.8, 25, "1 2 5 10 20"},
		{3, 4, "3.0 3.2 3.4 3.6 3.8 4.0"},
	} {
		var labels []string
		for _, tk := range (logTicks{}).Ticks(c.lo, c.hi) {
			if tk.Value < c.lo || tk.Value > c.hi {
				t.Errorf("[%v, %v]: tick at %v outside the range", c.lo, c.hi, tk.Value)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.labels {
			t.Errorf("[%v, %v]: labels %q, want %q", c.lo, c.hi, got, c.labels)
		}
	}
}
