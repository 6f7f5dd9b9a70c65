package enginetest

import (
	"context"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/sparse"
)

// RefusesHugeK checks that meth, built for k topics by newMethod, refuses
// to fit an m×n corpus (one entry per document, so that building it costs
// little) whose factors need more than engine.Memory(), with one line
// saying what they need, before it allocates them: the test would die of
// an out-of-memory error otherwise. It is skipped where Memory is unknown
// or larger than need, the bytes the caller computes the family to hold at
// least.
func RefusesHugeK(t *testing.T, m, n, k int, need float64, newMethod func(k int) engine.Method) {
	t.Helper()
	if avail := engine.Memory(); avail == 0 || float64(avail) >= need {
		t.Skipf("memory %d bytes: not less than the %.0f the check needs to refuse", avail, need)
	}
	tr := make([]sparse.Triplet, n)
	for j := range tr {
		tr[j] = sparse.Triplet{Row: j % m, Col: j, Val: 1}
	}
	d, err := sparse.FromTriplets(m, n, tr)
	if err != nil {
		t.Fatal(err)
	}
	meth := newMethod(k)
	_, _, err = meth.Fit(context.Background(), testcorpus.CorpusOf(t, d), nil)
	if err == nil || !strings.Contains(err.Error(), "need at least") || strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: K = %d on %d×%d: %v; want one line saying what the factors need", meth.Name(), k, m, n, err)
	}
}
