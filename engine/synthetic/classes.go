package synthetic

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mathext"
)

// Class-size kinds accepted by ClassSpec.Kind.
const (
	ClassUniform   = "uniform"        // N/P documents per class (remainders spread by one)
	ClassCV        = "cv"             // log-normal shape with coefficient of variation ClassSpec.CV
	ClassWikipedia = "wikipedia-like" // GMF Table 5, Wikipedia: 25 classes, CV 1.78
	ClassWeb1      = "web1-like"      // GMF Table 5, Web-I: 204 classes, CV 0.71
)

// ClassSpec says how the N documents are split among the P classes.
type ClassSpec struct {
	// Kind is "uniform" (also ""), "cv", "wikipedia-like" or "web1-like".
	Kind string
	// CV is the target coefficient of variation STD/Mean of the class sizes
	// (population STD) for Kind "cv"; it must be below sqrt(P-1), the CV of
	// one class holding everything.
	CV float64
}

// SizeStats are the class-size statistics of GMF Table 5 (Wang et al.,
// SIGIR 2012, §7.1): Min, Max, R = Max − Min, Mean, STD and CV = STD/Mean.
// STD is the population standard deviation (the paper does not say which;
// for 25 or 204 classes the two differ by 2% or 0.25%).
type SizeStats struct {
	Classes                        int
	Min, Max, Range, Mean, STD, CV float64
}

// Table5Wikipedia and Table5Web1 are the rows of GMF Table 5 (class counts
// from its Table 4 and §7.1). Their CV is computed from STD/Mean (the table
// prints it rounded to 1.8 and 0.7).
var (
	Table5Wikipedia = SizeStats{Classes: 25, Min: 185, Max: 991695, Range: 991510, Mean: 112301.4, STD: 200123.6, CV: 200123.6 / 112301.4}
	Table5Web1      = SizeStats{Classes: 204, Min: 226, Max: 29999, Range: 29773, Mean: 15608.5, STD: 11152.0, CV: 11152.0 / 15608.5}
)

// Stats computes the Table 5 statistics of class sizes.
func Stats(sizes []int) SizeStats {
	s := SizeStats{Classes: len(sizes)}
	if len(sizes) == 0 {
		return s
	}
	s.Min, s.Max = math.Inf(1), math.Inf(-1)
	sum := 0.0
	for _, n := range sizes {
		x := float64(n)
		s.Min = math.Min(s.Min, x)
		s.Max = math.Max(s.Max, x)
		sum += x
	}
	s.Range = s.Max - s.Min
	s.Mean = sum / float64(len(sizes))
	ss := 0.0
	for _, n := range sizes {
		d := float64(n) - s.Mean
		ss += d * d
	}
	s.STD = math.Sqrt(ss / float64(len(sizes)))
	if s.Mean > 0 {
		s.CV = s.STD / s.Mean
	}
	return s
}

// ClassSizes splits n documents into p classes as spec says and returns
// the sizes, sorted ascending (every class gets at least one document), and
// warnings (for example when p is too small for a Table 5 shape). See
// profile for the shapes.
func ClassSizes(n, p int, spec ClassSpec) ([]int, []string, error) {
	if p < 1 || n < p {
		return nil, nil, fmt.Errorf("class sizes: need 1 <= P <= N, got P = %d, N = %d", p, n)
	}
	x, warn, err := profile(p, spec)
	if err != nil {
		return nil, nil, err
	}
	return roundSizes(n, x), warn, nil
}

// profile returns p relative class sizes, ascending, with mean 1.
//
//   - uniform: all 1.
//   - cv: the p quantiles exp(σ·z_i), z_i = Φ⁻¹((i − ½)/p), of a log-normal
//     distribution, with σ solved (Illinois regula falsi) so that their CV is
//     exactly spec.CV.
//   - wikipedia-like, web1-like: the quantiles at probabilities 0, 1/(p−1),
//     ..., 1 of a Beta(mκ, (1−m)κ) distribution stretched over [a, b] =
//     [Min/Mean, Max/Mean] of the Table 5 row (so the smallest class is a
//     and the largest b), with m solved for a mean of exactly 1 and κ for a
//     CV of exactly the row's STD/Mean: all of Min/Mean, Max/Mean and CV of
//     the row are reproduced (before rounding to whole documents). When p
//     is too small for that (the largest class alone would exceed p·Mean,
//     or no κ reaches the CV), the log-normal shape with the row's CV is
//     used and a warning says so.
func profile(p int, spec ClassSpec) ([]float64, []string, error) {
	switch spec.Kind {
	case "", ClassUniform:
		x := make([]float64, p)
		for i := range x {
			x[i] = 1
		}
		return x, nil, nil
	case ClassCV:
		if math.IsNaN(spec.CV) || spec.CV < 0 {
			return nil, nil, fmt.Errorf("class sizes: CV = %v, want >= 0", spec.CV)
		}
		if max := math.Sqrt(float64(p - 1)); spec.CV >= max && spec.CV > 0 {
			return nil, nil, fmt.Errorf("class sizes: CV = %v is unreachable with P = %d classes (it must be below sqrt(P-1) = %.4g)", spec.CV, p, max)
		}
		x, ok := logNormalProfile(p, spec.CV)
		if !ok {
			return nil, nil, fmt.Errorf("class sizes: no log-normal profile of %d classes has CV %v", p, spec.CV)
		}
		return x, nil, nil
	case ClassWikipedia, ClassWeb1:
		row := Table5Wikipedia
		if spec.Kind == ClassWeb1 {
			row = Table5Web1
		}
		if x, ok := betaProfile(p, row.Min/row.Mean, row.Max/row.Mean, row.CV); ok {
			return x, nil, nil
		}
		warn := []string{fmt.Sprintf("class sizes: %d classes are too few for the %s range shape (Table 5: Min/Mean %.4g, Max/Mean %.4g); a log-normal shape with its CV %.4g is used",
			p, spec.Kind, row.Min/row.Mean, row.Max/row.Mean, row.CV)}
		x, ok := logNormalProfile(p, row.CV)
		if !ok {
			return nil, nil, fmt.Errorf("class sizes: CV %.4g of %s is unreachable with P = %d classes (it must be below sqrt(P-1))", row.CV, spec.Kind, p)
		}
		return x, warn, nil
	}
	return nil, nil, fmt.Errorf("class sizes: unknown Kind %q (known: uniform, cv, wikipedia-like, web1-like)", spec.Kind)
}

// cvOf returns the population CV of x and divides x by its mean.
func cvOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	mean := s / float64(len(x))
	ss := 0.0
	for i := range x {
		x[i] /= mean
		d := x[i] - 1
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(x)))
}

// solve finds t in [lo, hi] with f(t) = target for a continuous monotone f,
// by the Illinois variant of regula falsi. It reports false when the
// interval does not bracket target (or f gives NaN) or when it does not
// reach |f(t) − target| ≤ tol within 200 steps.
func solve(f func(float64) float64, lo, hi, target, tol float64) (float64, bool) {
	a, b := lo, hi
	fa, fb := f(a)-target, f(b)-target
	switch {
	case math.IsNaN(fa) || math.IsNaN(fb):
		return 0, false
	case math.Abs(fa) <= tol:
		return a, true
	case math.Abs(fb) <= tol:
		return b, true
	case fa*fb > 0:
		return 0, false
	}
	side := 0
	for it := 0; it < 200; it++ {
		c := (fa*b - fb*a) / (fa - fb)
		fc := f(c) - target
		if math.IsNaN(fc) {
			return 0, false
		}
		if math.Abs(fc) <= tol {
			return c, true
		}
		if fc*fb > 0 {
			b, fb = c, fc
			if side == -1 {
				fa /= 2
			}
			side = -1
		} else {
			a, fa = c, fc
			if side == 1 {
				fb /= 2
			}
			side = 1
		}
	}
	return 0, false
}

func logNormalProfile(p int, cv float64) ([]float64, bool) {
	z := make([]float64, p)
	for i := range z {
		z[i] = math.Sqrt2 * math.Erfinv(2*(float64(i)+0.5)/float64(p)-1)
	}
	x := make([]float64, p)
	fill := func(sigma float64) float64 {
		for i := range x {
			x[i] = math.Exp(sigma * (z[i] - z[p-1])) // ≤ 1, no overflow
		}
		return cvOf(x)
	}
	if cv == 0 || p == 1 {
		fill(0)
		return x, true
	}
	sigma, ok := solve(fill, 0, 50, cv, 1e-12)
	if !ok {
		return nil, false
	}
	fill(sigma)
	return x, true
}

// betaProfile returns x_i = a + (b − a)·F⁻¹((i−1)/(p−1); mκ, (1−m)κ),
// i = 1..p, the quantiles of a Beta distribution stretched over [a, b]
// taken at evenly spaced probabilities from 0 to 1 (so x_1 = a and x_p =
// b), with m solved for a sample mean of exactly 1 and κ for a sample CV of
// exactly cv. It reports false when no such (m, κ) exists.
func betaProfile(p int, a, b, cv float64) ([]float64, bool) {
	if p < 3 || !(a < 1 && 1 < b) {
		return nil, false
	}
	// With the end points fixed, the mean ranges over these bounds.
	if lo, hi := (float64(p-1)*a+b)/float64(p), (a+float64(p-1)*b)/float64(p); !(lo < 1 && 1 < hi) {
		return nil, false
	}
	x := make([]float64, p)
	fill := func(m, k float64) float64 {
		s := 0.0
		for i := range x {
			x[i] = a + (b-a)*mathext.InvRegIncBeta(m*k, (1-m)*k, float64(i)/float64(p-1))
			s += x[i]
		}
		return s / float64(p)
	}
	cvAt := func(logKappa float64) float64 {
		k := math.Exp(logKappa)
		m, ok := solve(func(m float64) float64 { return fill(m, k) }, 1e-12, 1-1e-12, 1, 1e-13)
		if !ok {
			return math.NaN()
		}
		fill(m, k)
		return cvOf(x)
	}
	lk, ok := solve(cvAt, math.Log(1e-2), math.Log(1e6), cv, 1e-12)
	if !ok {
		return nil, false
	}
	cvAt(lk)
	sort.Float64s(x)
	return x, true
}

// roundSizes turns relative sizes x (mean 1) into p integers ≥ 1 summing
// to n: floors of x_i·n/p (at least 1), then the remaining documents one by
// one to the largest remainders (or, if the floors of 1 overshoot, taken
// from the largest classes). Ties go to the later (larger) class.
func roundSizes(n int, x []float64) []int {
	p := len(x)
	sizes := make([]int, p)
	rem := make([]float64, p)
	total := 0
	for i, v := range x {
		t := v * float64(n) / float64(p)
		f := math.Floor(t)
		if f < 1 {
			f = 1
		}
		sizes[i] = int(f)
		rem[i] = t - f
		total += sizes[i]
	}
	order := make([]int, p)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		if rem[order[i]] != rem[order[j]] {
			return rem[order[i]] > rem[order[j]]
		}
		return order[i] > order[j]
	})
	for k := 0; total < n; k = (k + 1) % p {
		sizes[order[k]]++
		total++
	}
	for total > n { // only when floors of 1 overshoot
		big := p - 1
		for i := range sizes {
			if sizes[i] > sizes[big] {
				big = i
			}
		}
		sizes[big]--
		total--
	}
	sort.Ints(sizes)
	return sizes
}
