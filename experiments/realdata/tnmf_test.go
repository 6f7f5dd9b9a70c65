package realdata

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/symmetric"
	"github.com/topicmf/topicmf/engine/tnmf"
	"gonum.org/v1/gonum/mat"
)

// sttmSets are the short-text collections the benchmarks build S from.
var sttmSets = []string{"sttm-tweet", "sttm-searchsnippets", "sttm-stackoverflow", "sttm-biomedical"}

// Densities of the term correlation S (PPMI cosines) and of the
// document-vector correlation (Figure 3) on the STTM sets, through the
// default text pipeline; measured values (go test -run TestRealDensity -v)
// pinned to 1e-4. The paper reports 0.8835 vs 0.0415 on its Tweets.
func TestRealDensity(t *testing.T) {
	want := map[string][2]float64{ // S, document-vector
		"sttm-tweet":          {0.1721, 0.0044},
		"sttm-searchsnippets": {0.9482, 0.0341},
		"sttm-stackoverflow":  {0.9332, 0.0416},
		"sttm-biomedical":     {0.9617, 0.0384},
	}
	for _, name := range sttmSets {
		c := load(t, name)
		corr, err := tnmf.TermCorrelation(nil, c.D, c.DT, tnmf.PerDocument, symmetric.StorageAuto)
		if err != nil {
			t.Fatal(err)
		}
		dv := tnmf.DocumentVectorCorrelation(nil, c.D, symmetric.StorageSparse)
		t.Logf("%s: M=%d N=%d co-occurrence density %.4f, PPMI %.4f, S %.4f (dense storage %v, %.0f MB), document-vector %.4f",
			name, c.Terms(), c.Docs(), corr.CoOccurrence.Density(), corr.PPMI.Density(), corr.S.Density(), corr.S.IsDense(),
			float64(corr.S.Bytes())/1e6, dv.Density())
		w := want[name]
		if math.Abs(corr.S.Density()-w[0]) > 1e-4 || math.Abs(dv.Density()-w[1]) > 1e-4 {
			t.Errorf("%s: densities S %.4f, document-vector %.4f; want %.4f, %.4f", name, corr.S.Density(), dv.Density(), w[0], w[1])
		}
	}
}

// The literal Eq. 4.5 iteration alternates in scale on real data while
// Rescale decreases L; logged for the package doc (StackOverflow, K = 20).
func TestRealScaleCycle(t *testing.T) {
	if testing.Short() {
		t.Skip("real-data fit")
	}
	c := load(t, "sttm-stackoverflow")
	for _, rescale := range []bool{false, true} {
		_, st, its := fitRecorded(t, tnmf.Options{K: 20, Rescale: rescale, Stopping: engine.Stopping{MaxIter: 30, RelTol: -1}, InnerTol: tnmf.DefaultInnerTol}, c)
		rises := 0
		for i := 1; i < len(its); i++ {
			if its[i].Objective > its[i-1].Objective {
				rises++
			}
		}
		t.Logf("rescale=%v: %v; L rose in %d of %d iterations; L(1..4) = %.4g %.4g %.4g %.4g, L(29, 30) = %.4g %.4g",
			rescale, st, rises, len(its)-1, its[0].Objective, its[1].Objective, its[2].Objective, its[3].Objective, its[28].Objective, its[29].Objective)
		if rescale && rises > 0 || !rescale && rises == 0 {
			t.Errorf("rescale=%v: %d rises", rescale, rises)
		}
	}
}

// Benchmarks on the real STTM sets (TOPICMF_DATA; skipped when absent):
//
//	go test ./experiments/realdata -run '^$' -bench 'BuildS|IterationU|Infer' -benchtime 3x
//
// Each reports M, N and the density of S.

// BenchmarkBuildS builds S (co-occurrence, PPMI, cosine) from D.
func BenchmarkBuildS(b *testing.B) {
	for _, name := range sttmSets {
		b.Run(name, func(b *testing.B) {
			c := load(b, name)
			var corr *tnmf.Correlation
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if corr, err = tnmf.TermCorrelation(nil, c.D, c.DT, tnmf.PerDocument, symmetric.StorageAuto); err != nil {
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
				c := load(b, name)
				corr, err := tnmf.TermCorrelation(nil, c.D, c.DT, tnmf.PerDocument, symmetric.StorageAuto)
				if err != nil {
					b.Fatal(err)
				}
				s, m := corr.S, c.Terms()
				u := uniformU(m, k)
				su, g := mat.NewDense(m, k, nil), mat.NewDense(k, k, nil)
				s.MulDense(nil, su, u)
				dense.Gram(nil, g, u)
				un := mat.NewDense(m, k, nil)
				normS2 := s.FrobeniusSq(nil)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := tnmf.Step(nil, un, su, g); err != nil {
						b.Fatal(err)
					}
					s.MulDense(nil, su, un)
					dense.Gram(nil, g, un)
					_ = symmetric.Objective(nil, normS2, un, su, g)
				}
				b.ReportMetric(float64(m), "M")
				b.ReportMetric(s.Density(), "density")
			})
		}
	}
}

// BenchmarkInfer is TNMF_E and TNMF_I inference of all documents at K = 20
// (U from 10 iterations): one op is the fold-in of the training documents.
func BenchmarkInfer(b *testing.B) {
	for _, name := range sttmSets {
		c := load(b, name)
		for _, inf := range []tnmf.Inference{tnmf.InferE, tnmf.InferI} {
			m, _, err := tnmf.Options{K: 20, Inference: inf, Stopping: engine.Stopping{MaxIter: 10, RelTol: engine.DefaultRelTol}, InnerTol: tnmf.DefaultInnerTol}.Fit(context.Background(), c, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/"+inf.String(), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := m.FoldIn(context.Background(), c.DT); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(c.Docs()), "N")
			})
		}
	}
}

// uniformU is an m×k matrix of Uniform[0, 1) entries (seed 1): a start for
// timing the Eq. 4.5 step, whose cost does not depend on the values.
func uniformU(m, k int) *mat.Dense {
	r := engine.NewRand(1)
	u := mat.NewDense(m, k, nil)
	raw := u.RawMatrix()
	for i := range raw.Data {
		raw.Data[i] = r.Float64()
	}
	return u
}
