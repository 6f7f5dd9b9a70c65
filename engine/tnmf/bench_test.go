package tnmf

import (
	"context"
	"strconv"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"gonum.org/v1/gonum/mat"
)

// Benchmarks on the real STTM sets (TOPICMF_DATA; skipped when absent):
//
//	go test ./engine/tnmf -run '^$' -bench . -benchtime 3x
//
// Each reports M, N and the density of S.

// BenchmarkBuildS builds S (co-occurrence, PPMI, cosine) from D.
func BenchmarkBuildS(b *testing.B) {
	for _, name := range sttmSets {
		b.Run(name, func(b *testing.B) {
			c := testcorpus.Load(b, name)
			var corr *Correlation
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if corr, err = TermCorrelation(nil, c.D, c.DT, PerDocument, StorageAuto); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(c.Terms()), "M")
			b.ReportMetric(corr.S.Density(), "density")
		})
	}
}

// BenchmarkIterationU is one iteration of Algorithm 1 at K = 20 and 100:
// the Eq. 4.5 step, S·U for the next step and L(U).
func BenchmarkIterationU(b *testing.B) {
	for _, name := range sttmSets {
		for _, k := range []int{20, 100} {
			b.Run(name+"/K="+strconv.Itoa(k), func(b *testing.B) {
				c := testcorpus.Load(b, name)
				corr, err := TermCorrelation(nil, c.D, c.DT, PerDocument, StorageAuto)
				if err != nil {
					b.Fatal(err)
				}
				s, m := corr.S, c.Terms()
				set := settings{k: k}
				u := initU(set, s, matrixSum(nil, s))
				su, g := mat.NewDense(m, k, nil), mat.NewDense(k, k, nil)
				s.MulDense(nil, su, u)
				dense.Gram(nil, g, u)
				un := mat.NewDense(m, k, nil)
				normS2 := s.FrobeniusSq(nil)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := Step(nil, un, su, g); err != nil {
						b.Fatal(err)
					}
					s.MulDense(nil, su, un)
					dense.Gram(nil, g, un)
					_ = Objective(nil, normS2, un, su, g)
				}
				b.ReportMetric(float64(m), "M")
				b.ReportMetric(s.Density(), "density")
			})
		}
	}
}

// BenchmarkInfer is TNMF_E and TNMF_I inference of all documents at K = 20
// (U from 10 iterations).
func BenchmarkInfer(b *testing.B) {
	for _, name := range sttmSets {
		c := testcorpus.Load(b, name)
		fit, _, err := Options{K: 20, Stopping: engine.Stopping{MaxIter: 10, RelTol: engine.DefaultRelTol}, InnerTol: DefaultInnerTol}.Fit(context.Background(), c, nil)
		if err != nil {
			b.Fatal(err)
		}
		m := fit.(*Model)
		for _, inf := range []Inference{InferE, InferI} {
			b.Run(name+"/"+inf.String(), func(b *testing.B) {
				mm := *m
				mm.set.inference = inf
				for i := 0; i < b.N; i++ {
					if _, err := mm.infer(context.Background(), c.DT); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(c.Docs()), "N")
			})
		}
	}
}
