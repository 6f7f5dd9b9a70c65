package stats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// TestAgainstScipy compares MeanInterval with scipy.stats.t.interval (t.ppf)
// and PairedTTest with scipy.stats.ttest_rel on random samples of 2 to 60
// values (the sizes of seeds and of query sets), through /usr/bin/python3.
func TestAgainstScipy(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import scipy.stats").Run(); err != nil {
		realdata.Missing(t, "scipy is not installed for /usr/bin/python3 (apt-get install python3-scipy): %v", err)
	}
	rng := rand.New(rand.NewPCG(29, 6))
	type sample struct{ A, B []float64 }
	var samples []sample
	for _, n := range []int{2, 3, 5, 5, 10, 30, 60} {
		s := sample{A: make([]float64, n), B: make([]float64, n)}
		for i := range n {
			s.A[i] = rng.Float64()
			s.B[i] = s.A[i] - 0.05 + 0.1*rng.NormFloat64()
		}
		samples = append(samples, s)
	}
	in, _ := json.Marshal(samples)
	cmd := exec.Command("/usr/bin/python3", "-c", `
import json, sys
import numpy as np
from scipy import stats
out = []
for s in json.load(sys.stdin):
    a, b = np.array(s["A"]), np.array(s["B"])
    n = len(a)
    lo, hi = stats.t.interval(0.95, n - 1, loc=a.mean(), scale=a.std(ddof=1) / np.sqrt(n))
    r = stats.ttest_rel(a, b)
    out.append({"lo": lo, "hi": hi, "q": stats.t.ppf(0.975, n - 1), "t": r.statistic, "p": r.pvalue})
json.dump(out, sys.stdout)
`)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scipy: %v", err)
	}
	var want []struct{ Lo, Hi, Q, T, P float64 }
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for i, s := range samples {
		iv, err := MeanInterval(s.A, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if rel(iv.Lo, want[i].Lo) > 1e-9 || rel(iv.Hi, want[i].Hi) > 1e-9 {
			t.Errorf("n=%d: interval [%.15g, %.15g], scipy t.interval [%.15g, %.15g] (t.ppf(0.975) = %v)", len(s.A), iv.Lo, iv.Hi, want[i].Lo, want[i].Hi, want[i].Q)
		}
		r, err := PairedTTest(s.A, s.B)
		if err != nil {
			t.Fatal(err)
		}
		if rel(r.T, want[i].T) > 1e-9 || rel(r.P, want[i].P) > 1e-9 {
			t.Errorf("n=%d: t=%.15g p=%.15g, scipy ttest_rel t=%.15g p=%.15g", len(s.A), r.T, r.P, want[i].T, want[i].P)
		}
	}
}

// TestMeanIntervalHand: x = (1, 2, 3): x̄ = 2, s = 1, t_{0.975, 2} =
// 4.302652729911275 (scipy.stats.t.ppf(0.975, 2)), half-width 4.3027/√3.
func TestMeanIntervalHand(t *testing.T) {
	iv, err := MeanInterval([]float64{1, 2, 3}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	half := 4.302652729911275 / math.Sqrt(3)
	// gonum's t quantile agrees with scipy's to about 1e-10.
	if iv.Mean != 2 || math.Abs(iv.Lo-(2-half)) > 1e-9 || math.Abs(iv.Hi-(2+half)) > 1e-9 || iv.N != 3 {
		t.Errorf("MeanInterval(1, 2, 3) = %+v, want 2 ± %v", iv, half)
	}
	if got := iv.Format(2); got != "2.00 [-0.48, 4.48]" {
		t.Errorf("Format = %q", got)
	}
	one, _ := MeanInterval([]float64{0.5}, 0.95)
	if one.Mean != 0.5 || !math.IsNaN(one.Lo) || !math.IsNaN(one.Hi) {
		t.Errorf("one value: %+v", one)
	}
	same, _ := MeanInterval([]float64{0.5, 0.5, 0.5}, 0.95)
	if same.Lo != 0.5 || same.Hi != 0.5 {
		t.Errorf("equal values: %+v", same)
	}
	if _, err := MeanInterval([]float64{1, 2}, 1); err == nil || !strings.Contains(err.Error(), "level 1") {
		t.Errorf("level 1: %v", err)
	}
	if _, err := MeanInterval([]float64{1, math.Inf(1)}, 0.95); err == nil || !strings.Contains(err.Error(), "value 1") {
		t.Errorf("Inf: %v", err)
	}
}

// TestHolmHand works Holm's procedure by hand. p = (0.01, 0.04, 0.03,
// 0.005) in a family of m = 4: sorted 0.005, 0.01, 0.03, 0.04 get
// multipliers 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04 → running maximum 0.02,
// 0.03, 0.06, 0.06. With m = 10 (six untested hypotheses at p = 1):
// multipliers 10, 9, 8, 7: 0.05, 0.09, 0.24, 0.28. A NaN stays NaN and
// values are capped at 1.
func TestHolmHand(t *testing.T) {
	p := []float64{0.01, 0.04, 0.03, 0.005}
	for _, tc := range []struct {
		m    int
		want []float64
	}{
		{4, []float64{0.03, 0.06, 0.06, 0.02}},
		{10, []float64{0.09, 0.28, 0.24, 0.05}},
		{100, []float64{0.99, 1, 1, 0.5}},
	} {
		got, err := Holm(p, tc.m)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-12 {
				t.Errorf("Holm(%v, m=%d) = %v, want %v", p, tc.m, got, tc.want)
				break
			}
		}
	}
	got, _ := Holm([]float64{0.2, math.NaN(), 0.01}, 3)
	if !math.IsNaN(got[1]) || math.Abs(got[2]-0.03) > 1e-12 || math.Abs(got[0]-0.4) > 1e-12 {
		t.Errorf("with NaN: %v, want [0.4 NaN 0.03]", got)
	}
	if _, err := Holm([]float64{0.1, 0.2}, 1); err == nil || !strings.Contains(err.Error(), "family of 1") {
		t.Errorf("m < len(p): %v", err)
	}
	if _, err := Holm([]float64{1.5}, 1); err == nil || !strings.Contains(err.Error(), "p-value 0") {
		t.Errorf("p > 1: %v", err)
	}
}
