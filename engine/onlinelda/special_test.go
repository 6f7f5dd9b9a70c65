package onlinelda

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// psiCase is a line of testdata/psi.txt: x, c, ψ(x) and exp(ψ(x) − c)
// computed by mpmath with 60 digits (testdata/psi_reference.py).
type psiCase struct{ x, c, psi, expDiff float64 }

func psiReference(t *testing.T) []psiCase {
	t.Helper()
	f, err := os.Open("testdata/psi.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []psiCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 4 {
			t.Fatalf("psi.txt: %q: want 4 fields", line)
		}
		var v [4]float64
		for i, s := range fields {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil && !(i == 3 && x == 0) { // exp(ψ(x) − c) below 10⁻³²⁴ parses as 0 with a range error
				t.Fatalf("psi.txt: %q: %v", line, err)
			}
			v[i] = x
		}
		cases = append(cases, psiCase{v[0], v[1], v[2], v[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 1500 {
		t.Fatalf("psi.txt: %d cases, want the ≥ 1500 the script writes", len(cases))
	}
	return cases
}

// expPsiBound is expPsiMinus's stated relative error bound.
func expPsiBound(x, c float64) float64 {
	return 4e-16 * (8 + math.Abs(digamma(x)) + math.Abs(c))
}

// TestDigammaReference: ψ(x) to 10⁻¹⁵ relative (absolute below 1) against
// mpmath for 10⁻⁴ ≤ x ≤ 10¹².
func TestDigammaReference(t *testing.T) {
	worst := 0.0
	for _, c := range psiReference(t) {
		err := math.Abs(digamma(c.x)-c.psi) / math.Max(1, math.Abs(c.psi))
		worst = math.Max(worst, err)
		if err > 1e-15 {
			t.Errorf("ψ(%v) = %.17g, mpmath %.17g", c.x, digamma(c.x), c.psi)
		}
	}
	t.Logf("largest error of ψ: %.3g", worst)
}

// TestExpPsiMinus: exp(ψ(x) − c) within its stated bound
// 4·10⁻¹⁶·(8 + |ψ(x)| + |c|) relative of mpmath's value, and of
// math.Exp(digamma(x) − c) within three times that on a million random
// arguments of the E-step's and M-step's ranges: that path has its own
// rounding of the exponent, larger for small x (at x = 0.00195, c = 5.358 it
// is 3.8·10⁻¹³ from mpmath's value, 1.8 times the bound, where
// expPsiMinus is 5.5·10⁻¹⁴ from it).
func TestExpPsiMinus(t *testing.T) {
	worst := 0.0 // in units of the bound
	for _, c := range psiReference(t) {
		got := expPsiMinus(c.x, c.c)
		err := math.Abs(got - c.expDiff)
		if c.expDiff > 0 {
			err /= c.expDiff
		}
		worst = math.Max(worst, err/expPsiBound(c.x, c.c))
		if err > expPsiBound(c.x, c.c) {
			t.Errorf("exp(ψ(%v) − %v) = %.17g, mpmath %.17g: relative error %.3g, bound %.3g", c.x, c.c, got, c.expDiff, err, expPsiBound(c.x, c.c))
		}
	}
	t.Logf("against mpmath: largest error %.3f of the bound", worst)
	rnd := rand.New(rand.NewPCG(1, 2))
	worst = 0
	for range 1_000_000 {
		x := math.Pow(10, -4+10*rnd.Float64())
		s := x * math.Pow(10, 6*rnd.Float64())
		c := digamma(s)
		got, want := expPsiMinus(x, c), math.Exp(digamma(x)-c)
		err := math.Abs(got - want)
		if want > 0 {
			err /= want
		}
		worst = math.Max(worst, err/expPsiBound(x, c))
		if err > 3*expPsiBound(x, c) {
			t.Fatalf("exp(ψ(%v) − %v) = %.17g, math.Exp(digamma(x) − c) %.17g: relative difference %.3g", x, c, got, want, err)
		}
	}
	t.Logf("against math.Exp(digamma(x) − c): largest difference %.3f of the bound", worst)
	// The exact path outside the fast range: NaN, 0, tiny and huge x.
	for _, x := range []float64{math.NaN(), 0, 1e-310, 1e301, math.Inf(1)} {
		got, want := expPsiMinus(x, 1), math.Exp(digamma(x)-1)
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("exp(ψ(%v) − 1) = %v, want %v", x, got, want)
		}
	}
}

// TestExpReduced: e^z within 5·10⁻¹⁶ relative of math.Exp (itself within
// one ulp, 2.2·10⁻¹⁶) over −708 ≤ z ≤ 700, and exactly 1 at 0.
func TestExpReduced(t *testing.T) {
	if got := expReduced(0); got != 1 {
		t.Errorf("e^0 = %v", got)
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	worst := 0.0
	for i := range 2_000_000 {
		z := -708 + 1408*rnd.Float64()
		if i%2 == 0 {
			z = -1 + 2*rnd.Float64() // dense near 0, where most exponents are
		}
		got, want := expReduced(z), math.Exp(z)
		err := math.Abs(got-want) / want
		worst = math.Max(worst, err)
		if err > 5e-16 {
			t.Fatalf("e^%v = %.17g, math.Exp %.17g: relative difference %.3g", z, got, want, err)
		}
	}
	t.Logf("largest relative difference from math.Exp: %.3g", worst)
}

// TestExpPsiMinus4: the four-lane kernel gives expPsiMinus's bits in every
// lane, on the fast path and when a lane sends all four to the exact path.
func TestExpPsiMinus4(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	var x, c [4]float64
	for i := range 200_000 {
		for q := range 4 {
			x[q] = math.Pow(10, -4+10*rnd.Float64())
			c[q] = digamma(x[q] * math.Pow(10, 6*rnd.Float64()))
		}
		if i%1000 == 0 {
			x[i/1000%4] = []float64{1e-310, 1e31, math.NaN(), 1e-5}[i/4000%4] // exact path (1e-5 by its exponent)
		}
		var got [4]float64
		got[0], got[1], got[2], got[3] = expPsiMinus4(x[0], x[1], x[2], x[3], c[0], c[1], c[2], c[3])
		for q := range 4 {
			if want := expPsiMinus(x[q], c[q]); math.Float64bits(got[q]) != math.Float64bits(want) {
				t.Fatalf("lane %d: exp(ψ(%v) − %v) = %v, expPsiMinus %v", q, x[q], c[q], got[q], want)
			}
		}
	}
}

// benchRow is γ of a document as the E-step sees it at K = 100 and α =
// 0.01: most topics near α, one in ten large.
func benchRow() []float64 {
	g := make([]float64, 100)
	for j := range g {
		g[j] = 0.01 + 1e-4*float64(j)
		if j%10 == 0 {
			g[j] = 3 + float64(j)
		}
	}
	return g
}

// BenchmarkExpDirichletRow: exp(ψ(γ) − ψ(Σγ)) of one row, K = 100, by the
// E-step's kernel (expPsiMinus4) ...
func BenchmarkExpDirichletRow(b *testing.B) {
	g, dst := benchRow(), make([]float64, 100)
	for b.Loop() {
		expDirichletRow(dst, g)
	}
}

// BenchmarkExpDirichletRowExact: ... and by math.Exp(digamma(x) − c).
func BenchmarkExpDirichletRowExact(b *testing.B) {
	g, dst := benchRow(), make([]float64, 100)
	for b.Loop() {
		dirichletRow(dst, g)
		for j, v := range dst {
			dst[j] = math.Exp(v)
		}
	}
}
