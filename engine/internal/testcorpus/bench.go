package testcorpus

import (
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/benchdata"
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
		benchCorpus = CorpusOf(b, benchdata.ZipfCounts(BenchM, BenchN, BenchNNZ/BenchN).T())
	})
	return benchCorpus
}
