package grouprlsi

import (
	"fmt"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/rlsi"
)

// BenchmarkIterationK1100 times one GRLSI iteration and one RLSI iteration
// at the same total K = 1100 (λ1 = 5, λ2 = 0.1) on testcorpus.GroupBenchConfig, and
// reports both (the second iteration of a 2-iteration fit: warm-started
// rows), the speedup RLSI/GRLSI and each fit's peak heap (largest sampled
// HeapAlloc above the level before the fit, garbage not yet collected
// included). λ1 = 5 gives sparse topics on these raw counts (GRLSI after
// two iterations: about 36% zeros in U0 and 83% in the U_p), as the paper's
// topics are; with λ1 = 0.05 (dense U) the RLSI iteration takes minutes
// here because every lasso row moves nearly all of its K coordinates.
//
//	go test ./engine/grouprlsi -run '^$' -bench IterationK1100 -benchtime=1x
func BenchmarkIterationK1100(b *testing.B) {
	c, err := testcorpus.GroupBench()
	if err != nil {
		b.Fatal(err)
	}
	stop := engine.Stopping{MaxIter: 2, RelTol: -1}
	g := Options{Ks: 100, Kc: 40, Lambda1: 5, Lambda2: 0.1, Stopping: stop, Seed: 1, InnerTol: rlsi.DefaultInnerTol}
	r := rlsi.Options{K: 1100, Lambda1: 5, Lambda2: 0.1, Stopping: stop, Seed: 1, InnerTol: rlsi.DefaultInnerTol}
	b.ResetTimer()
	var gs, rs float64
	var gp, rp uint64
	for i := 0; i < b.N; i++ {
		gs, gp = testcorpus.IterSeconds(b, g, c)
		rs, rp = testcorpus.IterSeconds(b, r, c)
	}
	b.ReportMetric(gs, "grlsi-s/iter")
	b.ReportMetric(rs, "rlsi-s/iter")
	b.ReportMetric(rs/gs, "speedup")
	b.ReportMetric(float64(gp)/(1<<20), "grlsi-peak-MiB")
	b.ReportMetric(float64(rp)/(1<<20), "rlsi-peak-MiB")
	fmt.Printf("corpus %d terms × %d documents, %d non-zeros, %d classes\n", c.Terms(), c.Docs(), c.D.NNZ(), c.Classes())
}
