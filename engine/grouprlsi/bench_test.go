package grouprlsi

import (
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
	stop := engine.Stopping{MaxIter: 2, RelTol: -1}
	testcorpus.BenchGroupVsFlat(b, "grlsi", Options{Ks: 100, Kc: 40, Lambda1: 5, Lambda2: 0.1, Stopping: stop, Seed: 1, InnerTol: rlsi.DefaultInnerTol},
		"rlsi", rlsi.Options{K: 1100, Lambda1: 5, Lambda2: 0.1, Stopping: stop, Seed: 1, InnerTol: rlsi.DefaultInnerTol})
}
