package testcorpus

import (
	"fmt"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Topics is a corpus drawn from a known topic model.
type Topics struct {
	C     *engine.Corpus
	Phi   *mat.Dense // true P(w|z), M×K
	Theta *mat.Dense // true P(z|d), N×K
}

// Planted draws N documents of length docLen from K topics over M
// terms: topic z puts 90% of its mass uniformly on its own block of M/K
// terms and 10% uniformly on all terms; document d mixes one main topic
// (weight 0.6–1) with a second one (the rest), and each token picks a topic
// from θ_d and a term from that topic (engine.NewRand(seed)).
func Planted(t testing.TB, seed uint64, m, n, k, docLen int) Topics {
	t.Helper()
	rng := engine.NewRand(seed)
	phi := mat.NewDense(m, k, nil)
	block := m / k
	owner := func(w int) int { return min(w/block, k-1) }
	for z := 0; z < k; z++ {
		size := block
		if z == k-1 {
			size = m - block*(k-1)
		}
		for w := 0; w < m; w++ {
			p := 0.1 / float64(m)
			if owner(w) == z {
				p += 0.9 / float64(size)
			}
			phi.Set(w, z, p)
		}
	}
	theta := mat.NewDense(n, k, nil)
	var ts []sparse.Triplet
	cdf := func(p []float64) int {
		u := rng.Float64()
		for i, v := range p {
			u -= v
			if u < 0 {
				return i
			}
		}
		return len(p) - 1
	}
	col := make([]float64, m)
	for d := 0; d < n; d++ {
		a, b := rng.IntN(k), rng.IntN(k)
		wa := 0.6 + 0.4*rng.Float64()
		theta.Set(d, a, theta.At(d, a)+wa)
		theta.Set(d, b, theta.At(d, b)+1-wa)
		th := mat.Row(nil, d, theta)
		counts := map[int]float64{}
		for i := 0; i < docLen; i++ {
			z := cdf(th)
			mat.Col(col, z, phi)
			counts[cdf(col)]++
		}
		for w, c := range counts {
			ts = append(ts, sparse.Triplet{Row: w, Col: d, Val: c})
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	return Topics{C: CorpusOf(t, d), Phi: phi, Theta: theta}
}

// CorpusOf wraps a term×document matrix as a corpus named "synthetic"
// with terms t0, t1, ….
func CorpusOf(t testing.TB, d *sparse.CSR) *engine.Corpus {
	t.Helper()
	return newCorpus(t, "synthetic", d, nil, nil)
}

// newCorpus wraps d as the corpus name with terms t0, t1, …, the given
// labels and class names, failing the test on an error.
func newCorpus(t testing.TB, name string, d *sparse.CSR, labels []int, classNames []string) *engine.Corpus {
	t.Helper()
	vocab := make([]string, d.Rows)
	for i := range vocab {
		vocab[i] = fmt.Sprint("t", i)
	}
	c, err := engine.NewCorpus(name, vocab, d, nil, labels, classNames)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// MatchedCosine is the mean cosine between the columns of a and b (both
// M×K) under the permutation of b's columns that maximizes it (exhaustive
// search; K ≤ 8).
func MatchedCosine(a, b *mat.Dense) float64 {
	_, k := a.Dims()
	cos := make([][]float64, k)
	for i := range cos {
		cos[i] = make([]float64, k)
		ai := mat.Col(nil, i, a)
		for j := range cos[i] {
			bj := mat.Col(nil, j, b)
			cos[i][j] = matcmp.Cosine(ai, bj)
		}
	}
	perm := make([]int, k)
	for i := range perm {
		perm[i] = i
	}
	best := math.Inf(-1)
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			s := 0.0
			for x, y := range perm {
				s += cos[x][y]
			}
			best = max(best, s/float64(k))
			return
		}
		for j := i; j < k; j++ {
			perm[i], perm[j] = perm[j], perm[i]
			rec(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
	}
	rec(0)
	return best
}

// Filled is the m×n corpus with entries f(i, j) (zeros left out), for the
// degenerate-scale checks (a matrix of 1e308, entries around 1e200, …).
func Filled(t testing.TB, m, n int, f func(i, j int) float64) *engine.Corpus {
	t.Helper()
	return CorpusOf(t, FilledMatrix(t, m, n, f))
}

// FilledMatrix is the m×n matrix with entries f(i, j) (zeros left out).
func FilledMatrix(t testing.TB, m, n int, f func(i, j int) float64) *sparse.CSR {
	t.Helper()
	d, err := matrixOf(m, n, f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// CSROf is the dense matrix a in CSR (zeros left out); it panics on an
// entry sparse.FromTriplets refuses (NaN or ±Inf).
func CSROf(a *mat.Dense) *sparse.CSR {
	r, c := a.Dims()
	d, err := matrixOf(r, c, a.At)
	if err != nil {
		panic(err)
	}
	return d
}

func matrixOf(m, n int, f func(i, j int) float64) (*sparse.CSR, error) {
	var ts []sparse.Triplet
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if v := f(i, j); v != 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: v})
			}
		}
	}
	return sparse.FromTriplets(m, n, ts)
}

// RandomNonNeg is an r×c matrix with Uniform[0,1) entries, a fraction zero
// of them set to 0 (deterministic in seed).
func RandomNonNeg(r, c int, zero float64, seed uint64) *mat.Dense {
	g := engine.NewRand(seed)
	a := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if g.Float64() >= zero {
				a.Set(i, j, g.Float64())
			}
		}
	}
	return a
}
