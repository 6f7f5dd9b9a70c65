package stats

import (
	"math"
	"strings"
	"testing"
)

func rel(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }

func TestPairedTTest(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
		// expected values; where noted obtained with scipy 1.10.1
		// (Debian python3-scipy): scipy.stats.ttest_rel(a, b).
		t, p, df float64
		tol      float64
	}{
		// Student (1908) sleep data (Cushny & Peebles), drug 1 vs drug 2.
		// R: t.test(extra ~ group, data = sleep, paired = TRUE) prints
		// t = -4.0621, df = 9, p-value = 0.002833; scipy gives the digits below.
		{"sleep", []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0},
			[]float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4},
			-4.062127683382037, 0.00283289019738427, 9, 1e-12},
		// scipy: ttest_rel([0.30,0.42,0.55],[0.25,0.40,0.41])
		{"three", []float64{0.30, 0.42, 0.55}, []float64{0.25, 0.40, 0.41},
			1.9414506867883004, 0.1917096231345241, 2, 1e-12},
		// hand: d = (1, 2), d̄ = 1.5, s = √0.5, t = 1.5/(√0.5/√2) = 3; p = 2 F_1(−3) = 1 − (2/π) atan 3
		{"two", []float64{1, 2}, []float64{0, 0}, 3, 1 - 2/math.Pi*math.Atan(3), 1, 1e-12},
		// scipy on AP-like values of 8 queries
		{"eight", []float64{0.2113, 0.3345, 0.1234, 0.5567, 0.4421, 0.2998, 0.3876, 0.1502},
			[]float64{0.2001, 0.3100, 0.1500, 0.5012, 0.4400, 0.2500, 0.3800, 0.1300},
			1.9360219781274977, 0.09408449208471437, 7, 1e-12},
	}
	for _, tc := range tests {
		r, err := PairedTTest(tc.a, tc.b)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if rel(r.T, tc.t) > tc.tol || rel(r.P, tc.p) > tc.tol || r.DF != tc.df || r.N != len(tc.a) {
			t.Errorf("%s: t=%.17g p=%.17g df=%v, want t=%.17g p=%.17g df=%v", tc.name, r.T, r.P, r.DF, tc.t, tc.p, tc.df)
		}
		if len(r.Warnings) != 0 {
			t.Errorf("%s: unexpected warnings %v", tc.name, r.Warnings)
		}
		// symmetry: swapping a and b negates t and keeps p
		s, _ := PairedTTest(tc.b, tc.a)
		if s.T != -r.T || s.P != r.P {
			t.Errorf("%s: swapped gives t=%v p=%v", tc.name, s.T, s.P)
		}
	}
	if r, _ := PairedTTest([]float64{0.30, 0.42, 0.55}, []float64{0.25, 0.40, 0.41}); !r.Significant(0.2) || r.Significant(0.05) {
		t.Errorf("Significant: p = %v", r.P)
	}
}

func TestPairedTTestDegenerate(t *testing.T) {
	tests := []struct {
		name   string
		a, b   []float64
		t, p   float64 // NaN means NaN expected
		warn   string
		wantDF float64
	}{
		{"empty", nil, nil, math.NaN(), math.NaN(), "0 pair", math.NaN()},
		{"one", []float64{1}, []float64{0}, math.NaN(), math.NaN(), "1 pair", 0},
		// scipy: ttest_rel([1,2,3],[0,1,2]) -> statistic=inf, pvalue=0.0
		{"constant shift", []float64{1, 2, 3}, []float64{0, 1, 2}, math.Inf(1), 0, "zero variance", 2},
		{"constant negative", []float64{0, 1}, []float64{1, 2}, math.Inf(-1), 0, "zero variance", 1},
		// scipy: ttest_rel([1,2,3],[1,2,3]) -> nan, nan
		{"identical", []float64{1, 2, 3}, []float64{1, 2, 3}, math.NaN(), math.NaN(), "all differences are zero", 2},
	}
	same := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	for _, tc := range tests {
		r, err := PairedTTest(tc.a, tc.b)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !same(r.T, tc.t) || !same(r.P, tc.p) || !same(r.DF, tc.wantDF) {
			t.Errorf("%s: t=%v p=%v df=%v, want t=%v p=%v df=%v", tc.name, r.T, r.P, r.DF, tc.t, tc.p, tc.wantDF)
		}
		if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], tc.warn) {
			t.Errorf("%s: warnings %v, want one containing %q", tc.name, r.Warnings, tc.warn)
		}
		if r.Significant(0.05) != (r.P == 0) {
			t.Errorf("%s: Significant with p=%v", tc.name, r.P)
		}
	}
}

func TestPairedTTestErrors(t *testing.T) {
	if _, err := PairedTTest([]float64{1, 2}, []float64{1}); err == nil || !strings.Contains(err.Error(), "2 values against 1") {
		t.Errorf("length mismatch: %v", err)
	}
	if _, err := PairedTTest([]float64{1, math.NaN()}, []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "pair 1") {
		t.Errorf("NaN: %v", err)
	}
}

func TestMeanStd(t *testing.T) {
	tests := []struct {
		x         []float64
		mean, std float64
	}{
		{nil, math.NaN(), math.NaN()},
		{[]float64{3}, 3, math.NaN()},
		{[]float64{1, 3}, 2, math.Sqrt(2)},
		// numpy: np.std([2,4,4,4,5,5,7,9], ddof=1) = 2.138089935299395
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, 2.138089935299395},
	}
	same := func(x, y float64) bool {
		return (math.IsNaN(x) && math.IsNaN(y)) || math.Abs(x-y) <= 1e-15*math.Max(1, math.Abs(y))
	}
	for _, tc := range tests {
		m, s := MeanStd(tc.x)
		if !same(m, tc.mean) || !same(s, tc.std) {
			t.Errorf("MeanStd(%v) = %v, %v, want %v, %v", tc.x, m, s, tc.mean, tc.std)
		}
	}
}
