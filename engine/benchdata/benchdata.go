// Package benchdata holds what the speed and memory measurements of the
// module share: the deterministic sparse count matrix of the benchmarks
// and a sampler of the Go heap's peak while a function runs.
package benchdata

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/topicmf/topicmf/engine/sparse"
)

// ZipfCounts returns an n × m document-term count matrix (documents as
// rows) in which every document has perDoc distinct terms, half drawn from
// a Zipf law (s = 1.1, v = 2) over the vocabulary and half uniformly, each
// with a count of 1–4. The same arguments give the same matrix (PCG seeded
// with 1, 7). perDoc must not exceed m.
func ZipfCounts(m, n, perDoc int) *sparse.CSR {
	rng := rand.New(rand.NewPCG(1, 7))
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(m-1))
	dt := &sparse.CSR{Rows: n, Cols: m, RowPtr: make([]int, n+1),
		ColIdx: make([]int32, 0, n*perDoc), Val: make([]float64, 0, n*perDoc)}
	seen := make([]bool, m)
	terms := make([]int32, 0, perDoc)
	for j := 0; j < n; j++ {
		terms = terms[:0]
		for len(terms) < perDoc {
			var w int32
			if rng.IntN(2) == 0 {
				w = int32(zipf.Uint64())
			} else {
				w = int32(rng.IntN(m))
			}
			if !seen[w] {
				seen[w] = true
				terms = append(terms, w)
			}
		}
		slices.Sort(terms)
		for _, w := range terms {
			seen[w] = false
			dt.ColIdx = append(dt.ColIdx, w)
			dt.Val = append(dt.Val, float64(1+rng.IntN(4)))
		}
		dt.RowPtr[j+1] = len(dt.ColIdx)
	}
	return dt
}

// PeakHeap runs f while sampling runtime.MemStats.HeapAlloc every 5 ms and
// returns the largest value seen above the level before f (after a GC), in
// bytes. Allocations of other goroutines running meanwhile are counted too.
func PeakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	stop, done := make(chan struct{}), make(chan struct{})
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
	return max(peak, ms.HeapAlloc) - base
}
