package testcorpus

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Benchmark size of the foundation (engine/sparse benchmarks): M terms × N
// documents with about NNZ non-zeros, K topics.
const (
	BenchM   = 30000
	BenchN   = 20000
	BenchNNZ = 1600000
	BenchK   = 100
)

var (
	benchOnce   sync.Once
	benchCorpus *engine.Corpus
)

// BenchmarkCorpus is a deterministic count matrix of the benchmark size:
// every document has NNZ/N distinct terms, half drawn from a Zipf law over
// the vocabulary and half uniformly, each with a count of 1–4.
func BenchmarkCorpus(b *testing.B) *engine.Corpus {
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(1, 7))
		zipf := rand.NewZipf(rng, 1.1, 2, uint64(BenchM-1))
		perDoc := BenchNNZ / BenchN
		dt := &sparse.CSR{Rows: BenchN, Cols: BenchM, RowPtr: make([]int, BenchN+1)}
		seen := map[int32]bool{}
		var terms []int32
		for j := 0; j < BenchN; j++ {
			clear(seen)
			terms = terms[:0]
			for len(terms) < perDoc {
				var w int32
				if rng.IntN(2) == 0 {
					w = int32(zipf.Uint64())
				} else {
					w = int32(rng.IntN(BenchM))
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
		benchCorpus = CorpusOf(b, dt.T())
	})
	return benchCorpus
}
