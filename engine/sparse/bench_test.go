package sparse

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine/internal/cputime"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// Realistic benchmark size (the RLSI/GMF scale experiments run on corpora of
// this order): M terms × N documents with NNZ non-zeros, K topics.
const (
	benchM   = 30000
	benchN   = 20000
	benchNNZ = 1600000
	benchK   = 100
)

var (
	benchOnce sync.Once
	benchD    *CSR // M × N
	benchDT   *CSR // N × M
)

// benchCorpus returns a deterministic random term-document matrix of the
// benchmark size: every document has NNZ/N distinct terms drawn from a Zipf
// law over the vocabulary (as word frequencies are), with weights in (0, 1].
// (engine/synthetic has a fuller generator; this one keeps engine/sparse
// free of dependencies on datasets.)
func benchCorpus() (d, dt *CSR) {
	benchOnce.Do(func() { benchD, benchDT = randomCorpus(benchM, benchN, benchNNZ/benchN, 1) })
	return benchD, benchDT
}

// randomCorpus builds an m×n matrix whose columns have perDoc distinct
// Zipf-distributed rows each; it returns the matrix and its transpose.
func randomCorpus(m, n, perDoc int, seed uint64) (d, dt *CSR) {
	rng := rand.New(rand.NewPCG(seed, 7))
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(m-1))
	rowPtr := make([]int, n+1)
	colIdx := make([]int32, 0, n*perDoc)
	val := make([]float64, 0, n*perDoc)
	seen := make(map[int32]bool, perDoc)
	terms := make([]int32, 0, perDoc)
	for j := 0; j < n; j++ {
		clear(seen)
		terms = terms[:0]
		for len(terms) < min(perDoc, m) {
			// Mix Zipf draws with uniform ones so rare terms occur too.
			var t int32
			if rng.IntN(2) == 0 {
				t = int32(zipf.Uint64())
			} else {
				t = int32(rng.IntN(m))
			}
			if !seen[t] {
				seen[t] = true
				terms = append(terms, t)
			}
		}
		slices.Sort(terms)
		for _, t := range terms {
			colIdx = append(colIdx, t)
			val = append(val, 1-rng.Float64())
		}
		rowPtr[j+1] = len(colIdx)
	}
	dt = &CSR{Rows: n, Cols: m, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
	return dt.T(), dt
}

func benchMulDense(b *testing.B, a *CSR, k int) {
	x := matcmp.RandomDense(a.Cols, k, 2)
	dst := mat.NewDense(a.Rows, k, nil)
	p := parallel.Default()
	b.ResetTimer()
	cpu0 := cputime.Seconds()
	for i := 0; i < b.N; i++ {
		MulDense(p, dst, a, x)
	}
	flops := 2 * float64(a.NNZ()) * float64(k)
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	cputime.ReportPerOp(b, cpu0)
}

// BenchmarkMulDenseDV is D·V (M×N sparse times N×K): the numerator of the
// NMF U-update and the RLSI U-step.
func BenchmarkMulDenseDV(b *testing.B) {
	d, _ := benchCorpus()
	benchMulDense(b, d, benchK)
}

// BenchmarkMulDenseDTU is Dᵀ·U (N×M sparse times M×K), i.e. (UᵀD)ᵀ: the
// numerator of the NMF V-update, computed on the stored transpose.
func BenchmarkMulDenseDTU(b *testing.B) {
	_, dt := benchCorpus()
	benchMulDense(b, dt, benchK)
}
