package realdata

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine/symmetric"
)

// Density of the document cosine matrix A on the STTM sets (default text
// pipeline), measured with go test -run TestRealDocDensity -v and pinned
// to 1e-4; quoted in the package doc.
func TestRealDocDensity(t *testing.T) {
	want := map[string]float64{"sttm-tweet": 0.0586, "sttm-searchsnippets": 0.1230, "sttm-stackoverflow": 0.0590, "sttm-biomedical": 0.0714}
	for _, name := range []string{"sttm-tweet", "sttm-searchsnippets", "sttm-stackoverflow", "sttm-biomedical"} {
		c := load(t, name)
		a := symmetric.Cosine(nil, c.DT, symmetric.StorageAuto)
		t.Logf("%s: N=%d density %.4f, %d stored entries, %.0f MB, dense storage %v", name, c.Docs(), a.Density(), a.NNZ(), float64(a.Bytes())/1e6, a.IsDense())
		if math.Abs(a.Density()-want[name]) > 1e-4 || a.IsDense() {
			t.Errorf("%s: density %.4f, want %.4f (sparse)", name, a.Density(), want[name])
		}
	}
}
