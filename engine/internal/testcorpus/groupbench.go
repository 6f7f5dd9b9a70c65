package testcorpus

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/benchdata"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// GroupBenchConfig is the corpus of the GMF efficiency benchmarks: 25 classes
// with the class sizes of GMF Table 5's Wikipedia row (synthetic
// "wikipedia-like": CV 1.78, largest class 8.8× the mean), planted with
// (Ks, Kc) = (100, 40) as in GMF §7.1's largest Wikipedia setting, so
// K = 100 + 25·40 = 1100. Sized so that an RLSI iteration at K = 1100
// takes seconds on one core.
func GroupBenchConfig() synthetic.Config {
	return synthetic.Config{Name: "bench-wikipedia-like", M: 2000, N: 4000, P: 25, Ks: 100, Kc: 40,
		Length:  synthetic.LengthSpec{Dist: synthetic.LengthLogNormal, Mean: 100, Sigma: 0.5},
		Classes: synthetic.ClassSpec{Kind: synthetic.ClassWikipedia}, Seed: 1}
}

// GroupBench is the corpus of GroupBenchConfig, generated once per test
// binary.
var GroupBench = sync.OnceValues(func() (*engine.Corpus, error) {
	c, _, err := synthetic.Generate(GroupBenchConfig())
	return c, err
})

// IterSeconds fits meth for two iterations and returns the wall time of
// the second (steady state: warm-started lasso rows), and the heap peak.
func IterSeconds(b *testing.B, meth engine.Method, c *engine.Corpus) (float64, uint64) {
	b.Helper()
	rec := engine.NewRecorder()
	var err error
	peak := benchdata.PeakHeap(func() { _, _, err = meth.Fit(context.Background(), c, rec) })
	if err != nil {
		b.Fatal(err)
	}
	its := rec.Iterations()
	return its[len(its)-1].Seconds, peak
}

// BenchGroupVsFlat times one iteration of the group model g and one of the
// flat model f at the same total K on GroupBench (IterSeconds, b.N times),
// and reports both as "<gname>-s/iter" and "<fname>-s/iter", the speedup
// f/g and each fit's peak heap ("<name>-peak-MiB").
func BenchGroupVsFlat(b *testing.B, gname string, g engine.Method, fname string, f engine.Method) {
	c, err := GroupBench()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var gs, fs float64
	var gp, fp uint64
	for i := 0; i < b.N; i++ {
		gs, gp = IterSeconds(b, g, c)
		fs, fp = IterSeconds(b, f, c)
	}
	b.ReportMetric(gs, gname+"-s/iter")
	b.ReportMetric(fs, fname+"-s/iter")
	b.ReportMetric(fs/gs, "speedup")
	b.ReportMetric(float64(gp)/(1<<20), gname+"-peak-MiB")
	b.ReportMetric(float64(fp)/(1<<20), fname+"-peak-MiB")
	fmt.Printf("corpus %d terms × %d documents, %d non-zeros, %d classes\n", c.Terms(), c.Docs(), c.D.NNZ(), c.Classes())
}
