package lsi

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// planted is a corpus drawn from a known topic model.
type planted struct {
	c     *engine.Corpus
	phi   *mat.Dense // true P(w|z), M×K
	theta *mat.Dense // true P(z|d), N×K
}

// plantedCorpus draws N documents of length docLen from K topics over M
// terms: topic z puts 90% of its mass uniformly on its own block of M/K
// terms and 10% uniformly on all terms; document d mixes one main topic
// (weight 0.6–1) with a second one (the rest), and each token picks a topic
// from θ_d and a term from that topic (engine.NewRand(seed)).
func plantedCorpus(t testing.TB, seed uint64, m, n, k, docLen int) planted {
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
	return planted{c: corpusOf(t, d), phi: phi, theta: theta}
}

func corpusOf(t testing.TB, d *sparse.CSR) *engine.Corpus {
	t.Helper()
	vocab := make([]string, d.Rows)
	for i := range vocab {
		vocab[i] = fmt.Sprint("t", i)
	}
	c, err := engine.NewCorpus("synthetic", vocab, d, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// matchedCosine is the mean cosine between the columns of a and b (both
// M×K) under the permutation of b's columns that maximizes it (exhaustive
// search; K ≤ 8).
func matchedCosine(a, b *mat.Dense) float64 {
	_, k := a.Dims()
	cos := make([][]float64, k)
	for i := range cos {
		cos[i] = make([]float64, k)
		ai := mat.Col(nil, i, a)
		for j := range cos[i] {
			bj := mat.Col(nil, j, b)
			cos[i][j] = cosine(ai, bj)
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

func cosine(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	return ab / math.Sqrt(aa*bb)
}

func bitsEqual(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	for i := 0; i < ar; i++ {
		for j := 0; j < ac; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// Benchmark size of the foundation (engine/sparse benchmarks): M terms × N
// documents with about NNZ non-zeros, K topics.
const (
	benchM   = 30000
	benchN   = 20000
	benchNNZ = 1600000
	benchK   = 100
)

var (
	benchOnce   sync.Once
	benchCorpus *engine.Corpus
)

// benchmarkCorpus is a deterministic count matrix of the benchmark size:
// every document has NNZ/N distinct terms, half drawn from a Zipf law over
// the vocabulary and half uniformly, each with a count of 1–4.
func benchmarkCorpus(b *testing.B) *engine.Corpus {
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(1, 7))
		zipf := rand.NewZipf(rng, 1.1, 2, uint64(benchM-1))
		perDoc := benchNNZ / benchN
		dt := &sparse.CSR{Rows: benchN, Cols: benchM, RowPtr: make([]int, benchN+1)}
		seen := map[int32]bool{}
		var terms []int32
		for j := 0; j < benchN; j++ {
			clear(seen)
			terms = terms[:0]
			for len(terms) < perDoc {
				var w int32
				if rng.IntN(2) == 0 {
					w = int32(zipf.Uint64())
				} else {
					w = int32(rng.IntN(benchM))
				}
				if !seen[w] {
					seen[w] = true
					terms = append(terms, w)
				}
			}
			slices.Sort(terms)
			for _, w := range terms {
				dt.ColIdx = append(dt.ColIdx, w)
				dt.Val = append(dt.Val, float64(1+rng.IntN(4)))
			}
			dt.RowPtr[j+1] = len(dt.ColIdx)
		}
		benchCorpus = corpusOf(b, dt.T())
	})
	return benchCorpus
}
