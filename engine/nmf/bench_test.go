package nmf

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Realistic benchmark size: 30,000 terms × 20,000 documents, 1.6M
// non-zeros, K = 100. (engine/synthetic.Benchmark describes a corpus of
// this scale; the engine's tests generate their own so that engine
// packages do not depend on datasets.)
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

// benchmarkCorpus: every document has NNZ/N distinct terms, half drawn from
// a Zipf law over the vocabulary and half uniformly, weights in (0, 1].
func benchmarkCorpus(b *testing.B) *engine.Corpus {
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(1, 7))
		zipf := rand.NewZipf(rng, 1.1, 2, benchM-1)
		per := benchNNZ / benchN
		rowPtr := make([]int, benchN+1)
		colIdx := make([]int32, 0, benchNNZ)
		val := make([]float64, 0, benchNNZ)
		seen := map[int32]bool{}
		var terms []int32
		for j := 0; j < benchN; j++ {
			clear(seen)
			terms = terms[:0]
			for len(terms) < per {
				t := int32(rng.IntN(benchM))
				if rng.IntN(2) == 0 {
					t = int32(zipf.Uint64())
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
		dt := &sparse.CSR{Rows: benchN, Cols: benchM, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
		vocab := make([]string, benchM)
		for i := range vocab {
			vocab[i] = fmt.Sprint(i)
		}
		c, err := engine.NewCorpus("bench", vocab, dt.T(), nil, nil, nil)
		if err != nil {
			panic(err)
		}
		benchCorpus = c
	})
	return benchCorpus
}

// BenchmarkIteration times one full multiplicative-update iteration (V
// update, U update, loss, sparsity) at K = 100, excluding initialization.
// Flops per iteration: 4·NNZ·K (two sparse products) + (M+N)·K·(K+1) (the
// Grams of V and U, symmetric) + 4·(M+N)·K² (two tall × K×K products).
func BenchmarkIteration(b *testing.B) {
	c := benchmarkCorpus(b)
	o, err := Options{K: benchK, Seed: 1, Stopping: engine.Stopping{MaxIter: b.N, RelTol: -1}}.resolved(c.Terms(), c.Docs())
	if err != nil {
		b.Fatal(err)
	}
	u, v, err := initFactors(c, o)
	if err != nil {
		b.Fatal(err)
	}
	s := newSolver(o, c, u, v)
	b.ResetTimer()
	cpu0 := cpuSeconds()
	st := s.run(b.Context(), nil)
	b.StopTimer()
	if st.Iterations != b.N {
		b.Fatalf("ran %v", st)
	}
	mn, k := float64(benchM+benchN), float64(benchK)
	flops := 4*float64(c.D.NNZ())*k + mn*k*(k+1) + 4*mn*k*k
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
}
