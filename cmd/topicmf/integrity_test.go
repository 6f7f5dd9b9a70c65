package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments/store"
)

// flipDigit changes, in the file at path, the first match of old to new
// (of the same length), so that only the content changes, not the size.
func flipDigit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != len(new) || !strings.Contains(string(b), old) {
		t.Fatalf("%s holds no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunRecomputesTamperedMetrics is the experiment-store tampering case
// of issue 23: one digit of a stored job's metrics.csv is changed (same
// size). The rerun names the damaged file in one warning line (also under
// --quiet), computes that job again (1 computed, the rest cached), and the
// table shows the true value, not the tampered one. At ca07e62 the job was
// served as cached and the table showed the tampered number.
func TestRunRecomputesTamperedMetrics(t *testing.T) {
	want := referenceScores(t)
	res := t.TempDir()
	ctx := context.Background()
	if _, _, err := runTopicmf(ctx, "run", "clitest/slow", "--results", res); err != nil {
		t.Fatal(err)
	}
	// The job k=7, replicate 1 stored score 71 (10k + replicate).
	metrics, err := filepath.Glob(filepath.Join(res, "runs", "*", "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var tampered string
	for _, m := range metrics {
		if b, _ := os.ReadFile(m); strings.Contains(string(b), "score,71\n") {
			tampered = m
		}
	}
	if tampered == "" {
		t.Fatal("no stored job holds score 71")
	}
	flipDigit(t, tampered, "score,71\n", "score,91\n")
	stdout, stderr, err := runTopicmf(ctx, "run", "clitest/slow", "--results", res, "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	warn := regexp.MustCompile(`(?m)^topicmf run: warning: clitest/slow \[toy k=7 rep 1\]: the stored run is damaged, it does not match its manifest \(metrics\.csv: content changed \(sha256 [0-9a-f]{12}…, manifest says [0-9a-f]{12}…\)\); computed again$`)
	if !warn.MatchString(stderr) {
		t.Errorf("stderr does not name the damaged job and file:\n%s", stderr)
	}
	if !strings.Contains(stdout, "(1 computed, 23 cached)") {
		t.Errorf("stdout: %s", stdout)
	}
	got, err := os.ReadFile(filepath.Join(res, "clitest", "slow", "scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("scores.csv after the rerun:\n%s\nwant (uninterrupted run):\n%s", got, want)
	}
	if b, _ := os.ReadFile(tampered); !strings.Contains(string(b), "score,71\n") {
		t.Errorf("the recomputed job holds %q", b)
	}
}

// TestFitRecomputesDamagedFactor (issue 23): one digit of a fit's V.mtx
// is changed. runs lists the run as damaged, transform refuses it, and fit
// computes it again with a warning naming V.mtx instead of printing
// "cached:" (at ca07e62 it was served as cached and listed as finished).
func TestFitRecomputesDamagedFactor(t *testing.T) {
	model := fitModel(t)
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 9)
	res := filepath.Join(dir, "res")
	ctx := context.Background()
	args := []string{"fit", "--model", model, "--mtx", mtx, "--vocab", vocab, "--k", "3", "--iters", "10", "--out", res, "--quiet"}
	out, _, err := runTopicmf(ctx, args...)
	if err != nil {
		t.Fatal(err)
	}
	runs, _ := filepath.Glob(filepath.Join(res, "runs", "*", "V.mtx"))
	if len(runs) != 1 {
		t.Fatalf("V.mtx files: %v (fit printed %q)", runs, out)
	}
	v := runs[0]
	b, _ := os.ReadFile(v)
	m := regexp.MustCompile(`\n0\.(\d)`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("V.mtx has no entry 0.d:\n%s", b)
	}
	other := "1"
	if m[1] == "1" {
		other = "2"
	}
	flipDigit(t, v, m[0], "\n0."+other)

	list, _, err := runTopicmf(ctx, "runs", "--results", res)
	if err != nil || !strings.Contains(list, " damaged ") {
		t.Errorf("runs after the change: %v\n%s", err, list)
	}
	out, stderr, err := runTopicmf(ctx, args...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(out, "cached:") || !strings.Contains(stderr, "did not match its manifest (V.mtx: content changed") || !strings.Contains(stderr, "computed again") {
		t.Fatalf("fit of a damaged run: stdout %q, stderr %q", out, stderr)
	}
	id := filepath.Base(filepath.Dir(v))
	if err := store.CheckRun(filepath.Dir(v), id, true); err != nil {
		t.Errorf("after the refit: %v", err)
	}
	if out, _, err := runTopicmf(ctx, args...); err != nil || !strings.HasPrefix(out, "cached:") {
		t.Errorf("third fit: %q %v", out, err)
	}
}

// TestRunsVerifyUnfinished (issue 23): runs verify of a store whose only
// run directory has no done marker said "0 runs verified" and exited 0;
// it names the run as not finished and fails, and a store with nothing to
// verify fails saying so.
func TestRunsVerifyUnfinished(t *testing.T) {
	res := t.TempDir()
	ctx := context.Background()
	if err := os.MkdirAll(filepath.Join(res, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runTopicmf(ctx, "runs", "verify", "--results", res); err == nil || !strings.Contains(err.Error(), "nothing to verify") {
		t.Errorf("empty store: err = %v", err)
	}
	id := strings.Repeat("ab", 32)
	if err := os.MkdirAll(filepath.Join(res, "runs", id), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(res, "runs", id, "config.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{}, {id[:8]}} {
		out, _, err := runTopicmf(ctx, append([]string{"runs", "verify", "--results", res}, args...)...)
		if err == nil || !strings.Contains(out, "not finished (no done marker)") || !strings.Contains(err.Error(), "1 of 1 runs") {
			t.Errorf("runs verify %v of an unfinished run: %q, err = %v", args, out, err)
		}
	}
}

// TestEvalRefusesDamagedLargeFactor: a factor file larger than the store's
// FactorHashThreshold is size-checked when a run is found and hashed when
// it is read. eval --labels (V.mtx) and eval --run --coherence (U.mtx) read
// the factors through the run's manifest, so one changed digit is refused
// in one line instead of being scored.
func TestEvalRefusesDamagedLargeFactor(t *testing.T) {
	model := fitModel(t)
	dir := t.TempDir()
	const n = 6000 // V is 20×6000: about 2.6 MB of Matrix Market text
	mtx, vocab := writeTestMatrix(t, dir, 30, n)
	res := filepath.Join(dir, "res")
	ctx := context.Background()
	if _, _, err := runTopicmf(ctx, "fit", "--model", model, "--mtx", mtx, "--vocab", vocab, "--k", "20", "--iters", "2", "--out", res, "--quiet"); err != nil {
		t.Fatal(err)
	}
	runs, _ := filepath.Glob(filepath.Join(res, "runs", "*", "V.mtx"))
	if len(runs) != 1 {
		t.Fatalf("V.mtx files: %v", runs)
	}
	v := runs[0]
	if fi, err := os.Stat(v); err != nil || fi.Size() <= store.FactorHashThreshold {
		t.Fatalf("V.mtx must exceed FactorHashThreshold for this test: %v %v", fi.Size(), err)
	}
	labels := filepath.Join(dir, "labels.txt")
	if err := os.WriteFile(labels, []byte(strings.Repeat("a\nb\nc\n", n/3)), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Dir(v)
	if _, _, err := runTopicmf(ctx, "eval", "--labels", labels, "--run", run); err != nil {
		t.Fatalf("eval --labels of the intact run: %v", err)
	}
	b, _ := os.ReadFile(v)
	m := regexp.MustCompile(`\n0\.(\d)`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("V.mtx has no entry 0.d")
	}
	other := "1"
	if m[1] == "1" {
		other = "2"
	}
	flipDigit(t, v, m[0], "\n0."+other)
	_, _, err := runTopicmf(ctx, "eval", "--labels", labels, "--run", run)
	if err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Errorf("eval --labels of the damaged run: err = %v, want the run named damaged", err)
	}
}
