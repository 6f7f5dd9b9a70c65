package groupnmf

import (
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
	stop := engine.Stopping{MaxIter: 2, RelTol: -1}
	testcorpus.BenchGroupVsFlat(b, "gnmf", Options{Ks: 100, Kc: 40, Stopping: stop, Seed: 1},
		"nmf", nmf.Options{K: 1100, Stopping: stop, Seed: 1})
}
