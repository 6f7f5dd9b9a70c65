package onlinelda

import (
	"context"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/cputime"
	"github.com/topicmf/topicmf/engine/synthetic"
)

var (
	benchOnce   sync.Once
	benchCorpus *engine.Corpus
)

// BenchmarkPass times one pass of online VB (solver.step: E-steps,
// reductions and M-steps of every minibatch, no bound) over the benchmark
// matrix of bench/side-by-side.sh (engine/synthetic.Benchmark(): 30,000
// terms × 20,000 documents) with its settings: K = 100, minibatches of
// 2,000, scikit-learn's other defaults. Every timed pass starts from the
// same λ (a fresh solver), so the passes do equal work. cpu-ms/op is the
// CPU time of a pass (all threads).
func BenchmarkPass(b *testing.B) {
	benchOnce.Do(func() {
		c, _, err := synthetic.Generate(synthetic.Benchmark())
		if err != nil {
			b.Fatal(err)
		}
		benchCorpus = c
	})
	set, err := Options{K: 100, BatchSize: 2000, MeanChangeTol: DefaultMeanChangeTol}.resolve(benchCorpus.Terms(), benchCorpus.Docs())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := 0.0
	for range b.N {
		b.StopTimer()
		s := newSolver(set, benchCorpus.DT)
		c0 := cputime.Seconds()
		b.StartTimer()
		if err := s.step(context.Background(), 1); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Seconds() - c0
	}
	b.ReportMetric(1000*cpu/float64(b.N), "cpu-ms/op")
}
