package rlsi

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/datasets/synthetic"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
)

// Benchmarks on the engine's benchmark matrix (datasets/synthetic.Benchmark:
// 30,000 terms × 20,000 documents, about 1.6M non-zeros, raw counts), at
// K = 50, 100, 200, with the default λ1 = 0.5, λ2 = 1.0 and inner settings.
// Each benchmark first runs two full iterations (not timed) so that U has
// the sparsity of a fit in progress, then times:
//
//	BenchmarkIteration: UpdateU + UpdateV + objective (one step of Alg. 1)
//	BenchmarkUpdateU:   R = DVᵀ and the lasso rows (Alg. 2), from the same
//	                    warm start at every op
//	BenchmarkUpdateV:   UᵀU, Φ = UᵀD, Σ by Cholesky, V = ΦΣ (Alg. 3)
//
// Reported metrics: GFLOP/s counts the flops actually done (the kernels
// skip zeros of U only in Gram and MulSmall, which are counted in full;
// coordinate descent counts 4K flops per sweep of a row plus 2K per moved
// coordinate, see lassoCD); dense-GFLOP/s counts coordinate descent as the
// textbook rule of Algorithm 2 (2K² flops per sweep of a row), i.e. the
// rate an implementation without the incremental gradient would need to
// match this time. sweeps/row and U-zeros describe the work.
//
//	go test ./engine/rlsi -run '^$' -bench . -benchtime 3x

var bench struct {
	once sync.Once
	c    *engine.Corpus
	err  error
}

func benchCorpus(b *testing.B) *engine.Corpus {
	b.Helper()
	bench.once.Do(func() { bench.c, _, bench.err = synthetic.Generate(synthetic.Benchmark()) })
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.c
}

// warmSolver returns a solver for the benchmark corpus after two complete
// iterations.
func warmSolver(b *testing.B, k int) *solver {
	b.Helper()
	c := benchCorpus(b)
	set, err := Options{K: k}.resolve(c.Terms(), c.Docs())
	if err != nil {
		b.Fatal(err)
	}
	s := newSolver(set, c.D, c.DT)
	s.initV(engine.NewRand(0).NormFloat64)
	for range 2 {
		if f := s.step(context.Background()); f != nil {
			b.Fatal(f)
		}
	}
	return s
}

// step runs one full iteration and accepts it.
func (s *solver) step(ctx context.Context) *failure {
	if f := s.updateU(ctx); f != nil {
		return f
	}
	if f := s.updateV(ctx); f != nil {
		return f
	}
	s.objectiveTerms()
	s.accept()
	return nil
}

// flopsU returns the flops of the last UpdateU: actual and textbook-CD.
func (s *solver) flopsU() (actual, textbook float64) {
	k := float64(s.set.k)
	r := 2 * float64(s.d.NNZ()) * k
	w := s.workU
	return r + 4*k*float64(w.sweeps) + 2*k*float64(w.axpys), r + 2*k*k*float64(w.sweeps)
}

// flopsV returns the flops of an ℓ2 UpdateV.
func (s *solver) flopsV() float64 {
	k := float64(s.set.k)
	return float64(s.m)*k*(k+1) + 2*float64(s.d.NNZ())*k + k*k*k + 2*float64(s.n)*k*k
}

var benchKs = []int{50, 100, 200}

func BenchmarkUpdateU(b *testing.B) {
	for _, k := range benchKs {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			s := warmSolver(b, k)
			b.ResetTimer()
			for b.Loop() {
				if f := s.updateU(context.Background()); f != nil {
					b.Fatal(f)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			act, tb := s.flopsU()
			b.ReportMetric(act/sec/1e9, "GFLOP/s")
			b.ReportMetric(tb/sec/1e9, "dense-GFLOP/s")
			b.ReportMetric(float64(s.workU.sweeps)/float64(s.m), "sweeps/row")
			b.ReportMetric(dense.ZeroFraction(s.set.pool, s.uNext), "U-zeros")
		})
	}
}

func BenchmarkUpdateV(b *testing.B) {
	for _, k := range benchKs {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			s := warmSolver(b, k)
			if f := s.updateU(context.Background()); f != nil {
				b.Fatal(f)
			}
			b.ResetTimer()
			for b.Loop() {
				if f := s.updateV(context.Background()); f != nil {
					b.Fatal(f)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(s.flopsV()/sec/1e9, "GFLOP/s")
		})
	}
}

func BenchmarkIteration(b *testing.B) {
	for _, k := range benchKs {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			s := warmSolver(b, k)
			var act, tb float64
			b.ResetTimer()
			for b.Loop() {
				if f := s.step(context.Background()); f != nil {
					b.Fatal(f)
				}
				a, t := s.flopsU()
				act += a + s.flopsV()
				tb += t + s.flopsV()
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(act/sec/1e9, "GFLOP/s")
			b.ReportMetric(tb/sec/1e9, "dense-GFLOP/s")
			b.ReportMetric(float64(s.workU.sweeps)/float64(s.m), "sweeps/row")
			b.ReportMetric(dense.ZeroFraction(s.set.pool, s.u), "U-zeros")
		})
	}
}
