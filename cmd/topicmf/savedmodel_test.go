package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments/workflow"
)

// TestRunWithoutSavedModel: a run written before models were saved (no
// model/model.json) is refused by transform and rank in one line that gives
// the command fitting it again, and nothing is refitted or written.
func TestRunWithoutSavedModel(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "nmf", "--k", "3", "--iters", "5", "--data", filepath.Join(dir, "docs.jsonl"), "--out", t.TempDir(), "--quiet")
	old := filepath.Join(t.TempDir(), "run")
	if err := os.CopyFS(old, os.DirFS(run)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(old, "model")); err != nil {
		t.Fatal(err)
	}
	want := old + ": no saved model (the run was written by an earlier topicmf); fit it again: topicmf fit --model nmf --data docs.jsonl --param iters=5 --param k=3 --seed 1"
	for _, args := range [][]string{
		{"transform", old, "--data", filepath.Join(dir, "docs.jsonl")},
		{"rank", old, "--queries", filepath.Join(dir, "coll.qry")},
	} {
		stdout, _, err := runTopicmf(context.Background(), append(args, "--quiet")...)
		if err == nil || err.Error() != args[0]+": "+want {
			t.Errorf("%s: err = %v\nwant %s: %s", args[0], err, args[0], want)
		}
		if stdout != "" {
			t.Errorf("%s wrote %q", args[0], stdout)
		}
	}
	// A run in a store other than ./results: the command names its --out.
	// The model/ folder is dropped from the manifest too, as a run of an
	// earlier topicmf never had it.
	done, err := os.ReadFile(filepath.Join(run, "done"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(done), "\n") {
		if !strings.Contains(l, " model/") {
			kept = append(kept, l)
		}
	}
	if err := os.RemoveAll(filepath.Join(run, "model")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "done"), []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(run))
	_, _, err = runTopicmf(context.Background(), "transform", run, "--data", filepath.Join(dir, "docs.jsonl"), "--quiet")
	if want := "--seed 1 --out " + root; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("transform of a run under %s: err = %v, want it to end in %q", root, err, want)
	}
}

// TestTransformLoadsSavedModel: fit writes the saved model into the run
// (model/model.json and its matrices), and transform's vectors of the
// training documents are the run's V, read from the saved model without a
// refit: for RLSI, whose fold-in of a training document is its row of Vᵀ.
func TestTransformLoadsSavedModel(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "rlsi", "--k", "3", "--iters", "5", "--data", filepath.Join(dir, "docs.jsonl"), "--out", t.TempDir(), "--quiet")
	for _, f := range []string{"model.json", "u.mtx", "v.mtx"} {
		if _, err := os.Stat(filepath.Join(run, "model", f)); err != nil {
			t.Fatalf("the fit run has no saved model: %v", err)
		}
	}
	stdout, stderr, err := runTopicmf(context.Background(), "transform", run, "--data", filepath.Join(dir, "docs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr, "iteration") {
		t.Errorf("transform refitted: %s", stderr)
	}
	v, err := workflow.ReadDense(filepath.Join(run, "V.mtx")) // K×N
	if err != nil {
		t.Fatal(err)
	}
	ids, err := workflow.ReadLines(filepath.Join(run, "doc_ids.txt"), "document id")
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for j, id := range ids {
		col[id] = j
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")[1:]
	if len(lines) != len(ids) {
		t.Fatalf("transform wrote %d documents, the run has %d", len(lines), len(ids))
	}
	for _, line := range lines {
		f := strings.Split(line, "\t")
		j, ok := col[f[0]]
		if !ok {
			t.Fatalf("transform wrote document %q, not in the run", f[0])
		}
		for k, x := range f[1:] {
			if want := strconv.FormatFloat(v.At(k, j), 'g', -1, 64); x != want {
				t.Fatalf("document %s, topic %d: transform %s, V.mtx %s", f[0], k, x, want)
			}
		}
	}
}
