package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRankTransformCheckArgsFirst: every argument of rank and transform is
// checked before the model is loaded (rev-cli #4). The run's saved model
// (model/u.mtx) is altered so that loading it would fail with another
// error; each command line must fail with its own, and write nothing: no
// run on standard output, no file, no temporary file.
func TestRankTransformCheckArgsFirst(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", filepath.Join(dir, "docs.jsonl"), "--out", t.TempDir())
	bad := filepath.Join(t.TempDir(), "run")
	if err := os.CopyFS(bad, os.DirFS(run)); err != nil {
		t.Fatal(err)
	}
	u := readFile(t, filepath.Join(bad, "model", "u.mtx"))
	if err := os.WriteFile(filepath.Join(bad, "model", "u.mtx"), []byte(strings.Replace(u, "\n0.", "\n1.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	qry, rel := filepath.Join(dir, "coll.qry"), filepath.Join(dir, "coll.rel")
	out := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"rank", bad, "--queries", qry, "--qrels", rel}, "rank: --qrels needs --output FILE"},
		{[]string{"rank", bad, "--queries", qry, "--output", out}, "rank: --output " + out + " is a directory, want a file"},
		{[]string{"rank", bad, "--queries", qry, "--output", filepath.Join(out, "no", "run.txt")}, "directory " + filepath.Join(out, "no") + " does not exist"},
		{[]string{"rank", bad, "--queries", qry, "--tag", "my run"}, `rank: --tag: run tag "my run" holds white space`},
		{[]string{"rank", bad, "--queries", qry, "--term", "tfidf"}, `rank: --term "tfidf": want one of bm25, lm`},
		{[]string{"rank", bad, "--queries", qry, "--qrels", rel, "--qrels-format", "xml", "--output", filepath.Join(out, "r")}, `--qrels-format "xml": want auto or trec, smart, cranfield, npl`},
		{[]string{"transform", bad, "--data", qry, "--output", out}, "transform: --output " + out + " is a directory, want a file"},
		{[]string{"transform", bad, "--data", qry, "--output", filepath.Join(out, "no", "v.tsv")}, "does not exist"},
	}
	for _, c := range cases {
		stdout, _, err := runTopicmf(context.Background(), append(c.args, "--quiet")...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.args, err, c.want)
		}
		if stdout != "" {
			t.Errorf("%q wrote to stdout:\n%s", c.args, stdout)
		}
	}
	if ents, _ := os.ReadDir(out); len(ents) > 0 {
		t.Errorf("files left behind in %s: %v", out, ents)
	}
	// The altered run itself is refused once the arguments are right.
	_, _, err := runTopicmf(context.Background(), "rank", bad, "--queries", qry, "--quiet")
	if err == nil || !strings.Contains(err.Error(), "u.mtx: SHA-256") {
		t.Errorf("rank of a run whose model/u.mtx was altered: err = %v, want the file's SHA-256 mismatch", err)
	}
}

// TestRankIDsWithSpaces: a corpus whose document ids hold spaces (a folder
// whose class sub-folder has one) cannot be written as a TREC run; rank
// says so, naming the id, before the model is loaded, and writes nothing
// (rev-read #2). transform, whose output is tab-separated, serves it.
func TestRankIDsWithSpaces(t *testing.T) {
	dir := plantedFiles(t)
	folder := filepath.Join(dir, "folder")
	if err := os.Rename(filepath.Join(folder, "autos"), filepath.Join(folder, "my autos")); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	// fit warns, in one line, naming the first such id and the count.
	stdout, stderr, err := runTopicmf(context.Background(), "fit", "--model", "nmf", "--k", "3", "--data", folder, "--out", out, "--quiet")
	want := `topicmf fit: warning: 10 document ids hold white space or are empty (the first: "my autos/01.txt"): transform writes them, but rank cannot put them in a TREC run` + "\n"
	if err != nil || !strings.Contains(stderr, want) {
		t.Errorf("fit: %v; stderr %q lacks %q", err, stderr, want)
	}
	_, run, _ := strings.Cut(stdout, "wrote: ")
	run, _, _ = strings.Cut(run, "\n")
	runFile := filepath.Join(t.TempDir(), "run.txt")
	for _, output := range []string{"-", runFile} {
		stdout, stderr, err := runTopicmf(context.Background(), "rank", run, "--queries", filepath.Join(dir, "coll.qry"), "--output", output)
		if err == nil || !strings.Contains(err.Error(), `doc_ids.txt: line 11: document id "my autos/01.txt" holds white space`) {
			t.Errorf("--output %s: err = %v", output, err)
		}
		if stdout != "" || strings.Contains(stderr, "refitting") {
			t.Errorf("--output %s: stdout %q, stderr %q", output, stdout, stderr)
		}
	}
	if _, err := os.Stat(runFile); !os.IsNotExist(err) {
		t.Errorf("run file written: %v", err)
	}
	// A query id with a space is refused the same way.
	qcsv := filepath.Join(dir, "q.csv")
	if err := os.WriteFile(qcsv, []byte("id,text\nquery one,engine wheel\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runTopicmf(context.Background(), "rank", run, "--queries", qcsv, "--quiet")
	if err == nil || !strings.Contains(err.Error(), `q.csv: query 1: query id "query one" holds white space`) {
		t.Errorf("query id with a space: err = %v", err)
	}
	if _, stderr, err := runTopicmf(context.Background(), "transform", run, "--data", qcsv, "--quiet"); err != nil {
		t.Errorf("transform: %v\n%s", err, stderr)
	}
}

// TestRankQueryColumns: rank reads a CSV of queries by the columns named
// with --text-col and --id-col, as transform does (rev-cli #5).
func TestRankQueryColumns(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", filepath.Join(dir, "docs.jsonl"), "--out", t.TempDir())
	qcsv := filepath.Join(dir, "q.csv")
	var b strings.Builder
	b.WriteString("qid,body\n")
	for k := range plantedTopics {
		fmt.Fprintf(&b, "%d,%s\n", k+1, strings.Join(plantedTopics[k][:3], " "))
	}
	if err := os.WriteFile(qcsv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _, err := runTopicmf(context.Background(), "rank", run, "--queries", filepath.Join(dir, "coll.qry"), "--depth", "5", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := runTopicmf(context.Background(), "rank", run, "--queries", qcsv, "--text-col", "body", "--id-col", "qid", "--depth", "5", "--quiet")
	if err != nil || got != want {
		t.Errorf("CSV queries: err = %v, run\n%s\nwant (the SMART queries' run)\n%s", err, got, want)
	}
}

// TestSMARTQrels: rank and eval read SMART qrels ("qid docno 0 0", query
// ids zero-padded as in CACM's qrels.text) with --qrels-format smart
// (rev-cli #7); read as TREC qrels the same file is an error.
func TestSMARTQrels(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", filepath.Join(dir, "coll.all"), "--out", t.TempDir())
	var smart strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, "coll.rel"))), "\n") {
		f := strings.Fields(l) // qid 0 docno 1
		fmt.Fprintf(&smart, "0%s %s 0 0\n", f[0], f[2])
	}
	rel := filepath.Join(dir, "qrels.text")
	if err := os.WriteFile(rel, []byte(smart.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	trecRun := filepath.Join(dir, "run.txt")
	const mapOne = "map                   \tall\t1.0000"
	stdout, _, err := runTopicmf(context.Background(), "rank", run, "--queries", filepath.Join(dir, "coll.qry"),
		"--qrels", rel, "--qrels-format", "smart", "--output", trecRun, "--quiet")
	if err != nil || !strings.Contains(stdout, mapOne) {
		t.Errorf("rank: %v\n%s", err, stdout)
	}
	stdout, _, err = runTopicmf(context.Background(), "eval", "--qrels", rel, "--qrels-format", "smart", "--run", trecRun)
	if err != nil || !strings.Contains(stdout, mapOne) {
		t.Errorf("eval: %v\n%s", err, stdout)
	}
	_, _, err = runTopicmf(context.Background(), "eval", "--qrels", rel, "--run", trecRun)
	if err == nil || !strings.Contains(err.Error(), "qrels.text:4: query 02 document 0 already judged on line 1") {
		t.Errorf("SMART qrels read as TREC: err = %v", err)
	}
}

// TestTransformDamagedRun: a run whose files no longer match its manifest
// is reported as damaged, pointing to runs verify, before the model is loaded, and
// by id or by directory (rev-cli #13).
func TestTransformDamagedRun(t *testing.T) {
	dir := plantedFiles(t)
	res := t.TempDir()
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", filepath.Join(dir, "docs.jsonl"), "--out", res)
	u := readFile(t, filepath.Join(run, "U.mtx"))
	if err := os.WriteFile(filepath.Join(run, "U.mtx"), []byte(strings.Replace(u, "\n0.", "\n1.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	id := filepath.Base(run)[:idPrefix]
	want := "run " + id + " is damaged: its files no longer match its manifest (U.mtx); topicmf runs verify --results " + res + " " + id + " lists the differences"
	for _, arg := range []string{id, run} {
		_, _, err := runTopicmf(context.Background(), "transform", arg, "--out", res, "--data", filepath.Join(dir, "coll.qry"), "--quiet")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("transform %s: err = %v, want %q", arg, err, want)
		}
	}
}
