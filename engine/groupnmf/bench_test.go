package groupnmf

import (
	"fmt"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/nmf"
)

// BenchmarkIterationK1100 times one Group NMF iteration (Algorithm 5
// order) and one NMF iteration at the same total K = 1100 on testcorpus.GroupBenchConfig
// (the corpus of engine/grouprlsi's benchmark), and reports both, the
// speedup NMF/GNMF and each fit's peak heap.
//
//	go test ./engine/groupnmf -run '^$' -bench IterationK1100 -benchtime=1x
func BenchmarkIterationK1100(b *testing.B) {
	c, err := testcorpus.GroupBench()
	if err != nil {
		b.Fatal(err)
	}
	stop := engine.Stopping{MaxIter: 2, RelTol: -1}
	g := Options{Ks: 100, Kc: 40, Stopping: stop, Seed: 1}
	r := nmf.Options{K: 1100, Stopping: stop, Seed: 1}
	b.ResetTimer()
	var gs, rs float64
	var gp, rp uint64
	for i := 0; i < b.N; i++ {
		gs, gp = testcorpus.IterSeconds(b, g, c)
		rs, rp = testcorpus.IterSeconds(b, r, c)
	}
	b.ReportMetric(gs, "gnmf-s/iter")
	b.ReportMetric(rs, "nmf-s/iter")
	b.ReportMetric(rs/gs, "speedup")
	b.ReportMetric(float64(gp)/(1<<20), "gnmf-peak-MiB")
	b.ReportMetric(float64(rp)/(1<<20), "nmf-peak-MiB")
	fmt.Printf("corpus %d terms × %d documents, %d non-zeros, %d classes\n", c.Terms(), c.Docs(), c.D.NNZ(), c.Classes())
}
