package gnmfnc

import (
	"fmt"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/groupnmf"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
)

// BenchmarkIteration times one GNMFNC iteration (the steady-state second
// iteration, objective included) against one Group NMF iteration at the
// same (Ks, Kp) on testcorpus.GroupBenchConfig (Wikipedia-like class sizes,
// 25 categories), at the paper's (20, 8) and at GMF's (100, 40). Each
// method is a sub-benchmark reporting the least s/iter of b.N fits (the
// machine is shared) and the fit's heap peak. The terms of Eq. 3 are
// switched on in turn so each one's cost shows: "loss" has a and the σ's
// at 0 (the λ-weighted loss only), "shrink" adds σ1 = σ2 = σ3 = 1, "full"
// adds R with a = 100; R costs full − shrink and the shrinkage
// shrink − loss.
//
//	go test ./engine/gnmfnc -run '^$' -bench Iteration -benchtime=3x
func BenchmarkIteration(b *testing.B) {
	c, err := testcorpus.GroupBench()
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("corpus %d terms × %d documents, %d non-zeros, %d classes", c.Terms(), c.Docs(), c.D.NNZ(), c.Classes())
	stop := engine.Stopping{MaxIter: 2, RelTol: -1}
	for _, k := range []struct{ ks, kp int }{{20, 8}, {100, 40}} {
		loss := Options{Ks: k.ks, Kp: k.kp, Stopping: stop, Seed: 1}
		shrink := loss
		shrink.Sigma1, shrink.Sigma2, shrink.Sigma3 = 1, 1, 1
		full := shrink
		full.A = 100
		for _, m := range []struct {
			name string
			meth engine.Method
		}{
			{"groupnmf", groupnmf.Options{Ks: k.ks, Kc: k.kp, Stopping: stop, Seed: 1}},
			{"gnmfnc-loss", loss},
			{"gnmfnc-shrink", shrink},
			{"gnmfnc-full", full},
		} {
			b.Run(fmt.Sprintf("Ks%dKp%d/%s", k.ks, k.kp, m.name), func(b *testing.B) {
				best, peak := math.Inf(1), uint64(0)
				for i := 0; i < b.N; i++ {
					x, p := testcorpus.IterSeconds(b, m.meth, c)
					best, peak = min(best, x), max(peak, p)
				}
				b.ReportMetric(best, "s/iter")
				b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
			})
		}
	}
}
