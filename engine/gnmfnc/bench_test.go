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
// 25 categories), at the paper's (20, 8) and at GMF's (100, 40). The cost
// of the terms is shown by switching them off: "loss-s/iter" has a and the
// σ's Off (the λ-weighted loss only), "shrink-s/iter" adds σ1 = σ2 = σ3 = 1,
// "full-s/iter" adds R with a = 100; so R costs full − shrink and the
// shrinkage shrink − loss.
//
//	go test ./engine/gnmfnc -run '^$' -bench Iteration -benchtime=3x
func BenchmarkIteration(b *testing.B) {
	c, err := testcorpus.GroupBench()
	if err != nil {
		b.Fatal(err)
	}
	stop := engine.Stopping{MaxIter: 2, RelTol: -1}
	for _, k := range []struct{ ks, kp int }{{20, 8}, {100, 40}} {
		b.Run(fmt.Sprintf("Ks%dKp%d", k.ks, k.kp), func(b *testing.B) {
			loss := Options{Ks: k.ks, Kp: k.kp, Stopping: stop, Seed: 1}
			shrink := loss
			shrink.Sigma1, shrink.Sigma2, shrink.Sigma3 = 1, 1, 1
			full := shrink
			full.A = 100
			g := groupnmf.Options{Ks: k.ks, Kc: k.kp, Stopping: stop, Seed: 1}
			// The least of b.N runs of each (the machine is shared).
			ls, ss, fs, gs := math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
			var fp, gp uint64
			for i := 0; i < b.N; i++ {
				x, _ := testcorpus.IterSeconds(b, loss, c)
				ls = min(ls, x)
				x, _ = testcorpus.IterSeconds(b, shrink, c)
				ss = min(ss, x)
				x, fp = testcorpus.IterSeconds(b, full, c)
				fs = min(fs, x)
				x, gp = testcorpus.IterSeconds(b, g, c)
				gs = min(gs, x)
			}
			b.ReportMetric(gs, "groupnmf-s/iter")
			b.ReportMetric(ls, "loss-s/iter")
			b.ReportMetric(ss, "shrink-s/iter")
			b.ReportMetric(fs, "full-s/iter")
			b.ReportMetric(fs/gs, "full/groupnmf")
			b.ReportMetric(float64(fp)/(1<<20), "gnmfnc-peak-MiB")
			b.ReportMetric(float64(gp)/(1<<20), "groupnmf-peak-MiB")
		})
	}
	fmt.Printf("corpus %d terms × %d documents, %d non-zeros, %d classes\n", c.Terms(), c.Docs(), c.D.NNZ(), c.Classes())
}
