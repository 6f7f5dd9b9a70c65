package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoKnownTermWarned: transform of documents, and rank of queries, with
// no term of the run's vocabulary (unknown words, empty text) say so in
// one summary line naming the count and the first ids, instead of
// silently writing zero vectors or arbitrary rankings.
func TestNoKnownTermWarned(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", filepath.Join(dir, "docs.jsonl"), "--out", t.TempDir(), "--quiet")
	csv := filepath.Join(dir, "new.csv")
	if err := os.WriteFile(csv, []byte("id,text\nn1,engine wheel\nn2,zzzqx qqqzz\nn3,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := runTopicmf(context.Background(), "transform", run, "--data", csv, "--quiet")
	want := `topicmf transform: warning: 2 of 3 documents have no term of the run's vocabulary ("n2", "n3"): their topic vectors are all zero` + "\n"
	if err != nil || !strings.Contains(stderr, want) {
		t.Errorf("transform: %v; stderr %q lacks %q", err, stderr, want)
	}
	_, stderr, err = runTopicmf(context.Background(), "rank", run, "--queries", csv, "--quiet")
	want = `topicmf rank: warning: 2 of 3 queries have no term of the run's vocabulary ("n2", "n3"): every document scores 0 for them, so their rankings are arbitrary` + "\n"
	if err != nil || !strings.Contains(stderr, want) {
		t.Errorf("rank: %v; stderr %q lacks %q", err, stderr, want)
	}
	if strings.Count(stderr, "warning") != 1 {
		t.Errorf("rank: one warning line wanted:\n%s", stderr)
	}
}
