package ir

import (
	"bytes"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/fuzzcheck"
)

// checkTRECError asserts a run or qrels error: one line, "name:line: ...".
func checkTRECError(t *testing.T, err error) {
	t.Helper()
	fuzzcheck.OneLine(t, err)
	if !strings.HasPrefix(err.Error(), "in.txt:") || strings.HasPrefix(err.Error(), "in.txt:0:") {
		t.Fatalf("error does not start with the name and a 1-based line: %v", err)
	}
	fuzzcheck.HasPosition(t, err)
}

// FuzzReadRun reads arbitrary bytes as a TREC run. Scores are finite, no
// document is listed twice for a query, and WriteRun → ReadRun gives the
// same documents with the same score bits in rank order, and the same
// bytes on a second write. Seeds: testdata/fuzz/FuzzReadRun.
func FuzzReadRun(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		var run Run
		var err error
		fuzzcheck.Within(t, func() { run, err = ReadRun(bytes.NewReader(in), "in.txt") })
		if err != nil {
			checkTRECError(t, err)
			return
		}
		for q, docs := range run {
			seen := map[string]bool{}
			for _, d := range docs {
				if seen[d.DocID] || math.IsNaN(d.Score) || math.IsInf(d.Score, 0) {
					t.Fatalf("query %s: document %s repeated or score %v", q, d.DocID, d.Score)
				}
				seen[d.DocID] = true
			}
		}
		var b1, b2 bytes.Buffer
		if err := WriteRun(&b1, run, "fuzz"); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		again, err := ReadRun(bytes.NewReader(b1.Bytes()), "again")
		if err != nil {
			t.Fatalf("reading what was written: %v", err)
		}
		if len(again) != len(run) {
			t.Fatalf("round trip: %d queries, want %d", len(again), len(run))
		}
		for q, docs := range run {
			want, got := Rank(docs), again[q]
			if len(got) != len(want) {
				t.Fatalf("query %s: %d documents after the round trip, want %d", q, len(got), len(want))
			}
			for i := range want {
				if got[i].DocID != want[i].DocID || math.Float64bits(got[i].Score) != math.Float64bits(want[i].Score) {
					t.Fatalf("query %s rank %d: %+v, want %+v", q, i+1, got[i], want[i])
				}
			}
		}
		if WriteRun(&b2, again, "fuzz"); !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("second write differs")
		}
	})
}

// FuzzReadQrels reads arbitrary bytes as TREC qrels; WriteQrels →
// ReadQrels gives the same judgments. Seeds: testdata/fuzz/FuzzReadQrels.
func FuzzReadQrels(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		var q Qrels
		var err error
		fuzzcheck.Within(t, func() { q, err = ReadQrels(bytes.NewReader(in), "in.txt") })
		if err != nil {
			checkTRECError(t, err)
			return
		}
		var b bytes.Buffer
		if err := WriteQrels(&b, q); err != nil {
			t.Fatal(err)
		}
		again, err := ReadQrels(bytes.NewReader(b.Bytes()), "again")
		if err != nil {
			t.Fatalf("reading what was written: %v", err)
		}
		if !maps.EqualFunc(q, again, func(a, b map[string]int) bool { return maps.Equal(a, b) }) {
			t.Fatalf("round trip changed the qrels")
		}
	})
}
