package rlsi

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/cputime"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// Benchmarks on the engine's benchmark matrix (engine/synthetic.Benchmark:
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
// Reported metrics: GFLOP/s counts the flops done: 2·nnz(D)·K per sparse
// product, K³ for Σ, M·K(K+1) and 2·N·K² for the Gram and ΦΣ products
// (counted in full although they skip zeros of U), and for coordinate
// descent 4 flops per coordinate visited plus 2K per moved coordinate (see
// solve.Lasso). The textbook rule of Algorithm 2 would cost 2K² flops per row
// and sweep, against 4K + 2K·(moves) here: axpys/row (moves plus the
// non-zeros of the warm start) over K·sweeps/row is the fraction of the
// textbook work left. U-zeros is the fraction of zeros in U. cpu-ms/op is
// the process's CPU time per op (getrusage), steadier than the wall time on
// a shared machine.
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
	set, err := Options{K: k, Lambda1: DefaultLambda1, Lambda2: DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}.resolve(c.Terms(), c.Docs())
	if err != nil {
		b.Fatal(err)
	}
	s := newSolver(set, c.D, c.DT)
	s.initV(engine.NewRand(0).NormFloat64)
	for range 2 {
		if f := s.iterate(context.Background()); f != nil {
			b.Fatal(f)
		}
	}
	return s
}

// iterate runs one full iteration as the driver does and accepts it.
func (s *solver) iterate(ctx context.Context) error {
	if err := s.step(ctx, 0); err != nil {
		return err
	}
	s.objective()
	s.accept()
	return nil
}

// flopsU returns the flops of the last UpdateU: R = DVᵀ and the lasso.
func (s *solver) flopsU() float64 {
	return 2*float64(s.d.NNZ())*float64(s.set.k) + s.workU.Flops()
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
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if f := s.updateU(context.Background()); f != nil {
					b.Fatal(f)
				}
			}
			cputime.ReportPerOp(b, cpu0)
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(s.flopsU()/sec/1e9, "GFLOP/s")
			reportCD(b, s.workU, s.m)
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
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if f := s.updateV(context.Background()); f != nil {
					b.Fatal(f)
				}
			}
			cputime.ReportPerOp(b, cpu0)
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(s.flopsV()/sec/1e9, "GFLOP/s")
		})
	}
}

func BenchmarkIteration(b *testing.B) {
	for _, k := range benchKs {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			s := warmSolver(b, k)
			var flops float64
			b.ResetTimer()
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if f := s.iterate(context.Background()); f != nil {
					b.Fatal(f)
				}
				flops += s.flopsU() + s.flopsV()
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(flops/sec/1e9, "GFLOP/s")
			cputime.ReportPerOp(b, cpu0)
			reportCD(b, s.workU, s.m)
			b.ReportMetric(dense.ZeroFraction(s.set.pool, s.u), "U-zeros")
		})
	}
}

// reportCD reports the coordinate-descent work per row.
func reportCD(b *testing.B, w solve.Work, rows int) {
	b.ReportMetric(float64(w.Sweeps)/float64(rows), "sweeps/row")
	b.ReportMetric(float64(w.Axpys)/float64(rows), "axpys/row")
}
