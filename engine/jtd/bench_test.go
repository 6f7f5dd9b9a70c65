package jtd

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/topicmf/topicmf/engine/factortest"
)

// BenchmarkALMIteration times one outer ALM iteration (E, N, five inner
// SNMF iterations, Eq. 12, multiplier) at the paper's size, m = 3,000 terms ×
// n = 2,000 documents with k = 50 (§5, Fig. 5's larger m), and with 10× the
// documents, and reports the live heap after the fit (the solver holds ten
// n×m dense matrices: 8·10·n·m bytes, 480 MB at 10×).
//
//	go test ./engine/jtd -run '^$' -bench ALMIteration -benchtime 1x
func BenchmarkALMIteration(b *testing.B) {
	for _, size := range []struct{ m, n int }{{3000, 2000}, {3000, 20000}} {
		b.Run(fmt.Sprintf("m=%d/n=%d/k=50", size.m, size.n), func(b *testing.B) {
			c := factortest.Corpus(b, size.m, size.n, 50, 1)
			// One warm-up iteration is the initialization; time b.N more.
			o := Options{K: 50, Seed: 1, MaxIter: b.N, InitIters: 1, ResidualTol: 0}
			b.ResetTimer()
			m, st, err := o.Fit(context.Background(), c, nil)
			b.StopTimer()
			if err != nil || st.Iterations != b.N {
				b.Fatalf("%v %v", st, err)
			}
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-live")
			runtime.KeepAlive(m)
		})
	}
}
