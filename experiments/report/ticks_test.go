package report

import (
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
