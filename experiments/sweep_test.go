package experiments

import (
	"testing"

	"github.com/topicmf/topicmf/experiments/retrieval"
)

func TestSweepMetricRoundTrip(t *testing.T) {
	for _, a := range retrieval.DefaultAlphas() {
		s := SweepMetric("bm25", a, "ndcg_cut_10")
		tm, got, m, ok := ParseSweepMetric(s)
		if !ok || tm != "bm25" || got != a || m != "ndcg_cut_10" {
			t.Fatalf("%q → %q %v %q %v", s, tm, got, m, ok)
		}
	}
	for _, bad := range []string{"", "bm25", "bm25@x/map", "bm25@0.1"} {
		if _, _, _, ok := ParseSweepMetric(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}
