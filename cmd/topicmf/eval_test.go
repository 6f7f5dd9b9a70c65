package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func evalRun(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), &out, &errb, append([]string{"eval"}, args...))
	return out.String(), errb.String(), err
}

func TestEvalCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The ir_measures README example: MAP 0.75, nDCG 0.8155; Q9 is judged
	// but not run (counted as 0 with --complete).
	qrels := write("qrels", "Q0 0 D0 0\nQ0 0 D1 1\nQ1 0 D0 0\nQ1 0 D3 2\nQ9 0 D1 1\n")
	runf := write("run", "Q0 Q0 D0 1 1.2 r\nQ0 Q0 D1 2 1.0 r\nQ1 Q0 D3 1 3.6 r\nQ1 Q0 D0 2 2.4 r\n")

	out, stderr, err := evalRun(t, "--qrels", qrels, "--run", runf, "--cutoffs", "1")
	if err != nil {
		t.Fatal(err)
	}
	want := "num_q                 \tall\t2\n" +
		"map                   \tall\t0.7500\n" +
		"P_1                   \tall\t0.5000\n" +
		"ndcg_cut_1            \tall\t0.5000\n" +
		"ndcg                  \tall\t0.8155\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(stderr, "query Q9: judged but not in the run") {
		t.Errorf("stderr %q lacks the warning about Q9", stderr)
	}

	out, _, err = evalRun(t, "--qrels", qrels, "--run", runf, "--complete", "--per-query", "--cutoffs", "5", "--gains", "1:1,2:2")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"map                   \tQ0\t0.5000\n",
		"P_5                   \tQ1\t0.2000\n",
		"ndcg                  \tQ9\t0.0000\n",
		"num_q                 \tall\t3\n",
		"map                   \tall\t0.5000\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("--complete -q output lacks %q:\n%s", line, out)
		}
	}
	if i, j := strings.Index(out, "\tQ9\t"), strings.Index(out, "\tall\t"); i < 0 || j < i {
		t.Errorf("per-query lines should come before the summary:\n%s", out)
	}

	bad := write("badrun", "Q0 Q0 D0 1 x r\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--qrels", qrels}, "both --qrels and --run"},
		{[]string{"--qrels", qrels, "--run", bad}, "badrun:1: score \"x\""},
		{[]string{"--qrels", qrels, "--run", runf, "--gains", "1=2"}, "--gains"},
		{[]string{"--qrels", qrels, "--run", runf, "--cutoffs", "5,a"}, "--cutoffs"},
		{[]string{"--qrels", filepath.Join(dir, "missing"), "--run", runf}, "missing"},
	} {
		if _, _, err := evalRun(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestEvalRunAlone: eval --run RUN without --coherence scores the run's
// topics (the help's default "all"), and RUN may be a run id or id prefix
// under --out, as transform and rank take it; a TREC run file alone asks
// for --qrels.
func TestEvalRunAlone(t *testing.T) {
	dir := plantedFiles(t)
	out := t.TempDir()
	docs := filepath.Join(dir, "docs.jsonl")
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", docs, "--out", out, "--quiet")
	prefix := filepath.Base(run)[:8]
	want, errOut, err := evalRun(t, "--run", run, "--reference", docs)
	if err != nil || !strings.Contains(want, "mean: ") {
		t.Fatalf("eval --run DIR --reference: %v\n%s%s", err, want, errOut)
	}
	got, errOut, err := evalRun(t, "--run", prefix, "--out", out, "--reference", docs)
	if err != nil || got != want {
		t.Errorf("eval --run PREFIX: %v\n%s\nwant:\n%s%s", err, got, want, errOut)
	}
	// A fit on a user's file keeps no path to it: scoring against the
	// training documents asks for --reference (and so was attempted).
	if _, _, err := evalRun(t, "--run", prefix, "--out", out); err == nil || !strings.Contains(err.Error(), "give --reference PATH") {
		t.Errorf("eval --run PREFIX alone: %v, want the coherence path's error", err)
	}
	trec := filepath.Join(t.TempDir(), "run.trec")
	os.WriteFile(trec, []byte("1 Q0 d1 1 1.0 r\n"), 0o644)
	if _, _, err := evalRun(t, "--run", trec); err == nil || !strings.Contains(err.Error(), "is a TREC run file: give --qrels FILE") {
		t.Errorf("eval --run TRECFILE alone: %v", err)
	}
}
