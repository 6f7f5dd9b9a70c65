package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunsListAndVerify: runs lists a finished and a failed fit with their
// model, data and K, filters them, and runs verify finds the run whose
// U.mtx was deleted (issue 10 item 6, issue 11 deliverable 5).
func TestRunsListAndVerify(t *testing.T) {
	model := fitModel(t)
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 9)
	overflow := writeOverflowMatrix(t, dir)
	res := filepath.Join(dir, "res")
	ctx := context.Background()
	if _, _, err := runTopicmf(ctx, "fit", "--model", model, "--mtx", mtx, "--vocab", vocab, "--k", "3", "--iters", "10", "--out", res); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runTopicmf(ctx, "fit", "--model", "nmfe", "--mtx", overflow, "--k", "2", "--out", res); err == nil {
		t.Fatal("nmfe on an overflowing matrix succeeded")
	}
	out, _, err := runTopicmf(ctx, "runs", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("runs:\n%s", out)
	}
	var nmfLine string
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		switch f[1] {
		case model:
			nmfLine = l
			if f[2] != "(mtx)" || f[3] != "3" || f[4] != "finished" {
				t.Errorf("fit line %q", l)
			}
		case "nmfe":
			if f[3] != "2" || f[4] != "failed" {
				t.Errorf("failed fit line %q", l)
			}
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	if out, _, _ := runTopicmf(ctx, "runs", "--results", res, "--status", "failed"); strings.Count(out, "\n") != 2 || !strings.Contains(out, "nmfe") {
		t.Errorf("--status failed:\n%s", out)
	}
	if out, _, _ := runTopicmf(ctx, "runs", "--results", res, "--model", "lda"); !strings.HasPrefix(out, "no runs match") {
		t.Errorf("--model lda:\n%s", out)
	}
	if out, _, err := runTopicmf(ctx, "runs", "verify", "--results", res); err != nil || !strings.Contains(out, "1 runs verified") {
		t.Fatalf("verify intact: %q %v", out, err)
	}
	fields := strings.Fields(nmfLine)
	runDir := fields[len(fields)-1] // the date has a space
	if err := os.Remove(filepath.Join(runDir, "U.mtx")); err != nil {
		t.Fatal(err)
	}
	prefix := strings.Fields(nmfLine)[0]
	out, _, err = runTopicmf(ctx, "runs", "verify", "--results", res, prefix[:6])
	if err == nil || !strings.Contains(out, "U.mtx: missing") || !strings.Contains(err.Error(), "1 of 1 runs") {
		t.Fatalf("verify damaged: %q %v", out, err)
	}
	if out, _, _ := runTopicmf(ctx, "runs", "--results", res, "--status", "damaged"); !strings.Contains(out, prefix) {
		t.Errorf("--status damaged:\n%s", out)
	}
	if _, _, err := runTopicmf(ctx, "runs", "verify", "--results", res, "ffff"); err == nil || !strings.Contains(err.Error(), `no run "ffff"`) {
		t.Errorf("unknown prefix: %v", err)
	}
	if _, _, err := runTopicmf(ctx, "runs", "--results", filepath.Join(dir, "nope")); err == nil || !strings.Contains(err.Error(), "holds no runs/") {
		t.Errorf("missing store: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nope")); err == nil {
		t.Error("runs created a results root")
	}
}

// TestWriteTableWraps: a row wider than the width puts its path on the
// next line; width 0 never wraps.
func TestWriteTableWraps(t *testing.T) {
	head := []string{"ID", "M", "PATH"}
	rows := [][]string{{"abc", "nmf", "/a/very/long/path"}}
	var b strings.Builder
	writeTable(&b, head, rows, 14)
	if want := "ID   M    PATH\nabc  nmf\n    /a/very/long/path\n"; b.String() != want {
		t.Errorf("width 14:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	writeTable(&b, head, rows, 0)
	if want := "ID   M    PATH\nabc  nmf  /a/very/long/path\n"; b.String() != want {
		t.Errorf("width 0:\n%q\nwant\n%q", b.String(), want)
	}
}

// TestRunsKAndStatus: the K column shows every group number of topics
// given (gnmfnc's kp too) and, for a fit that took its family's default,
// the K of its U.mtx; an unknown --status is an error listing the states
// (rev-cli #13).
func TestRunsKAndStatus(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 30, 20)
	labels := filepath.Join(dir, "labels.txt")
	if err := os.WriteFile(labels, []byte(strings.Repeat("a\nb\n", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "res")
	ctx := context.Background()
	for _, args := range [][]string{
		{"--model", "nmf", "--iters", "5"},
		{"--model", "gnmfnc", "--labels", labels, "--param", "ks=1", "--param", "kp=1", "--param", "iters=5"},
	} {
		if _, _, err := runTopicmf(ctx, append([]string{"fit", "--mtx", mtx, "--vocab", vocab, "--out", res, "--quiet"}, args...)...); err != nil {
			t.Fatalf("fit %q: %v", args, err)
		}
	}
	out, _, err := runTopicmf(ctx, "runs", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	k := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Fields(l)
		k[f[1]] = f[3]
	}
	if k["nmf"] != "10" || k["gnmfnc"] != "ks=1,kp=1" {
		t.Errorf("K column %v, want nmf 10 (its default) and gnmfnc ks=1,kp=1:\n%s", k, out)
	}
	_, _, err = runTopicmf(ctx, "runs", "--results", res, "--status", "done")
	if err == nil || err.Error() != `runs: --status "done": want one of finished, failed, damaged, unfinished` {
		t.Errorf("--status done: %v", err)
	}
}
