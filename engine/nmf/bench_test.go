package nmf

import (
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/cputime"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
)

// BenchmarkIteration times one full multiplicative-update iteration (V
// update, U update, loss, sparsity) on the engine's benchmark corpus
// (testcorpus.BenchmarkCorpus: 30,000 terms × 20,000 documents, 1.6M
// non-zeros) at K = 100, excluding initialization.
// Flops per iteration: 4·NNZ·K (two sparse products) + (M+N)·K·(K+1) (the
// Grams of V and U, symmetric) + 4·(M+N)·K² (two tall × K×K products).
func BenchmarkIteration(b *testing.B) {
	c := testcorpus.BenchmarkCorpus(b)
	o, err := Options{K: testcorpus.BenchK, Seed: 1, Stopping: engine.Stopping{MaxIter: b.N, RelTol: -1}}.resolved(c.Terms(), c.Docs())
	if err != nil {
		b.Fatal(err)
	}
	u, v, err := initFactors(c.D, c.DT, o)
	if err != nil {
		b.Fatal(err)
	}
	s := newSolver(o, c.D, c.DT, u, v)
	b.ResetTimer()
	cpu0 := cputime.Seconds()
	st := s.run(b.Context(), nil)
	b.StopTimer()
	if st.Iterations != b.N {
		b.Fatalf("ran %v", st)
	}
	mn, k := float64(c.Terms()+c.Docs()), float64(testcorpus.BenchK)
	flops := 4*float64(c.D.NNZ())*k + mn*k*(k+1) + 4*mn*k*k
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	cputime.ReportPerOp(b, cpu0)
}
