package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputNotAnInput: transform's and rank's --output refuse, in one
// line and before writing, a path that is the same file as one of the
// command's inputs (also through a symbolic link), a file inside the run
// the model is read from, or a file inside a store's runs/ folder; every
// input keeps its bytes.
func TestOutputNotAnInput(t *testing.T) {
	dir := plantedFiles(t)
	docs := filepath.Join(dir, "docs.jsonl")
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", docs, "--out", t.TempDir())
	qry := filepath.Join(dir, "coll.qry")
	qrels := filepath.Join(dir, "coll.rel")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(docs, link); err != nil {
		t.Fatal(err)
	}
	before := map[string]string{}
	for _, p := range []string{docs, qry, qrels, filepath.Join(run, "V.mtx")} {
		before[p] = readFile(t, p)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"transform", run, "--data", docs, "--output", docs}, "is the --data file"},
		{[]string{"transform", run, "--data", docs, "--output", link}, "is the --data file"},
		{[]string{"transform", run, "--data", docs, "--output", filepath.Join(run, "V.mtx")}, "lies in the run"},
		{[]string{"transform", run, "--data", docs, "--output", filepath.Join(run, "new.tsv")}, "lies in the run"},
		{[]string{"transform", run, "--data", docs, "--output", filepath.Join(filepath.Dir(run), "x.tsv")}, "lies in the runs folder"},
		{[]string{"transform", run, "--data", filepath.Join(dir, "folder"), "--output", filepath.Join(dir, "folder", "x.tsv")}, "lies in the folder --data"},
		{[]string{"rank", run, "--queries", qry, "--qrels", qrels, "--output", qrels}, "is the --qrels file"},
		{[]string{"rank", run, "--queries", qry, "--output", qry}, "is the --queries file"},
	}
	for _, c := range cases {
		_, _, err := runTopicmf(context.Background(), append(c.args, "--quiet")...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: err = %v, want one line with %q", c.args, err, c.want)
		}
	}
	for p, b := range before {
		if readFile(t, p) != b {
			t.Errorf("%s was changed", p)
		}
	}
	if _, err := os.Stat(filepath.Join(run, "new.tsv")); err == nil {
		t.Errorf("a file was written into the run")
	}
}
