package grouprlsi

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/topicmf/topicmf/datasets/synthetic"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rlsi"
)

// benchConfig is the corpus of the GMF efficiency benchmarks: 25 classes
// with the class sizes of GMF Table 5's Wikipedia row (synthetic
// "wikipedia-like": CV 1.78, largest class 8.8× the mean), planted with
// (Ks, Kc) = (100, 40) as in GMF §7.1's largest Wikipedia setting, so
// K = 100 + 25·40 = 1100. Sized so that an RLSI iteration at K = 1100
// takes seconds on one core.
func benchConfig() synthetic.Config {
	return synthetic.Config{Name: "bench-wikipedia-like", M: 2000, N: 4000, P: 25, Ks: 100, Kc: 40,
		Length:  synthetic.LengthSpec{Dist: synthetic.LengthLogNormal, Mean: 100, Sigma: 0.5},
		Classes: synthetic.ClassSpec{Kind: synthetic.ClassWikipedia}, Seed: 1}
}

var benchCorpus = sync.OnceValues(func() (*engine.Corpus, error) {
	c, _, err := synthetic.Generate(benchConfig())
	return c, err
})

// peakHeap runs f while sampling the live heap every 5 ms and returns the
// largest HeapAlloc seen above the level before f (after a GC), in bytes.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	peak := base
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		var s runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				runtime.ReadMemStats(&s)
				peak = max(peak, s.HeapAlloc)
			}
		}
	}()
	f()
	close(stop)
	<-done
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapAlloc)
	return peak - base
}

// iterSeconds fits meth for two iterations and returns the wall time of
// the second (steady state: warm-started lasso rows), and the heap peak.
func iterSeconds(b *testing.B, meth engine.Method, c *engine.Corpus) (float64, uint64) {
	b.Helper()
	rec := engine.NewRecorder()
	var err error
	peak := peakHeap(func() { _, _, err = meth.Fit(context.Background(), c, rec) })
	if err != nil {
		b.Fatal(err)
	}
	its := rec.Iterations()
	return its[len(its)-1].Seconds, peak
}

// BenchmarkIterationK1100 times one GRLSI iteration and one RLSI iteration
// at the same total K = 1100 (λ1 = 5, λ2 = 0.1) on benchConfig, and
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
	c, err := benchCorpus()
	if err != nil {
		b.Fatal(err)
	}
	stop := engine.Stopping{MaxIter: 2, RelTol: -1}
	g := Options{Ks: 100, Kc: 40, Lambda1: 5, Lambda2: 0.1, Stopping: stop, Seed: 1}
	r := rlsi.Options{K: 1100, Lambda1: 5, Lambda2: 0.1, Stopping: stop, Seed: 1}
	b.ResetTimer()
	var gs, rs float64
	var gp, rp uint64
	for i := 0; i < b.N; i++ {
		gs, gp = iterSeconds(b, g, c)
		rs, rp = iterSeconds(b, r, c)
	}
	b.ReportMetric(gs, "grlsi-s/iter")
	b.ReportMetric(rs, "rlsi-s/iter")
	b.ReportMetric(rs/gs, "speedup")
	b.ReportMetric(float64(gp)/(1<<20), "grlsi-peak-MiB")
	b.ReportMetric(float64(rp)/(1<<20), "rlsi-peak-MiB")
	fmt.Printf("corpus %d terms × %d documents, %d non-zeros, %d classes\n", c.Terms(), c.Docs(), c.D.NNZ(), c.Classes())
}
