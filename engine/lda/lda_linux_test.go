package lda

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/sparse"
)

// TestTokensWithinMemory: under a data-segment limit (ulimit -d) of 2 GiB
// above what the test uses, a fit of one token more than the limit holds
// at 8 bytes each, and a document of as many to fold in, are refused
// naming the limit; three documents of fewer each are accepted, though
// they hold three times the limit in all.
func TestTokensWithinMemory(t *testing.T) {
	limit := vmData(t) + 2<<30
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_DATA, &old); err != nil || old.Cur <= limit {
		t.Skipf("RLIMIT_DATA %d, %v: already at most %d", old.Cur, err, limit)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: limit, Max: old.Max}); err != nil {
		t.Skip(err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &old); err != nil {
			t.Fatal(err)
		}
	}()
	if mem := engine.Memory(); mem != limit {
		t.Skipf("a limit of %d bytes lower than ulimit -d applies", mem)
	}
	over := float64(limit/bytesPerToken + 1)
	if over > MaxTokens {
		t.Skipf("a limit of %d bytes holds more than MaxTokens", limit)
	}
	gib := func(b float64) string { return fmt.Sprintf("%.3g GiB", b/(1<<30)) }
	tail := fmt.Sprintf(", more than the %d bytes (%s) of the data-segment limit (ulimit -d)", limit, gib(float64(limit)))

	d, _ := sparse.FromTriplets(2, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: over - 1}, {Row: 1, Col: 1, Val: 1}})
	need := bytesPerToken*over + 16*(2+2)*2
	want := fmt.Sprintf("lda: D has %.0f tokens: its sampler needs at least %.0f bytes (%s) for its tokens (8 bytes each), counts and estimates (16 bytes × (M + N)·K)%s",
		over, need, gib(need), tail)
	if _, _, err := (Options{K: 2, Iters: 2}).Fit(context.Background(), testcorpus.CorpusOf(t, d), nil); err == nil || err.Error() != want {
		t.Errorf("Fit: %v, want %q", err, want)
	}

	pc := testcorpus.Planted(t, 10, 10, 8, 2, 10)
	model, _, err := Options{K: 2, Iters: 3}.Fit(context.Background(), pc.C, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := sparse.FromTriplets(2, 10, []sparse.Triplet{{Row: 0, Col: 1, Val: 3}, {Row: 1, Col: 2, Val: over - 5}, {Row: 1, Col: 7, Val: 5}})
	want = fmt.Sprintf("lda: FoldIn: document 1 of X has %.0f tokens: its sampler needs at least %.0f bytes (%s) for them (8 bytes each)%s",
		over, bytesPerToken*over, gib(bytesPerToken*over), tail)
	if th, err := model.FoldIn(context.Background(), x); err == nil || err.Error() != want {
		t.Errorf("FoldIn: %v, %v; want %q", th, err, want)
	}
	x, _ = sparse.FromTriplets(3, 10, []sparse.Triplet{{Row: 0, Col: 1, Val: over - 1}, {Row: 1, Col: 2, Val: over - 1}, {Row: 2, Col: 2, Val: over - 1}})
	if err := checkDocuments(x, false); err != nil {
		t.Errorf("three documents within the limit each: %v", err)
	}
}

// vmData is the process's data segment (VmData of /proc/self/status), what
// RLIMIT_DATA bounds.
func vmData(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmData:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmData in /proc/self/status")
	return 0
}
