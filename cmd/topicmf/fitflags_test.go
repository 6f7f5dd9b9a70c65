package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitPipelineFlagValues: a value of a text-pipeline flag outside its
// range is refused naming the flag and the range, 0 included where
// text.Options would read 0 as the default (it is not the default on the
// command line, and its literal meaning keeps no term); nothing is written.
func TestFitPipelineFlagValues(t *testing.T) {
	data := filepath.Join(plantedFiles(t), "docs.csv")
	out := filepath.Join(t.TempDir(), "results")
	fit := func(flag, value string) []string {
		return []string{"fit", "--model", "nmf", "--k", "3", "--data", data, "--text-col", "body", "--out", out, "--" + flag, value}
	}
	checkCLIErrors(t, []cliError{
		{fit("min-df", "0"), "--min-df = 0, want ≥ 1 (1 keeps every term)"},
		{fit("min-df", "-5"), "--min-df = -5, want ≥ 1"},
		{fit("max-df", "0"), "--max-df = 0, want a fraction in (0, 1]"},
		{fit("max-df", "-0.5"), "--max-df = -0.5, want a fraction in (0, 1]"},
		{fit("max-df", "1.5"), "--max-df = 1.5"},
		{fit("max-token-len", "0"), "--max-token-len = 0, want ≥ 2 (the shortest token kept), or -1 for no limit"},
		{fit("max-token-len", "-3"), "--max-token-len = -3"},
		{fit("max-vocab", "-1"), "--max-vocab = -1, want ≥ 0"},
		{fit("weighting", "bm25"), `--weighting "bm25": unknown weighting`},
		{fit("norm", "l1"), `--norm "l1": unknown norm`},
		{fit("strip", "signature"), `--strip "signature": unknown part`},
		{fit("stop", "klingon"), "--stop klingon"},
	})
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused fits created %s", out)
	}
	// The limits themselves are accepted.
	fitRun(t, "--model", "nmf", "--k", "3", "--iters", "5", "--data", data, "--text-col", "body", "--out", out, "--quiet",
		"--min-df", "1", "--max-df", "1", "--max-token-len", "-1")
}

// TestFitFlagsThatDoNotApply: a flag that does not apply to the input is an
// error naming it, not silently ignored.
func TestFitFlagsThatDoNotApply(t *testing.T) {
	dir := plantedFiles(t)
	mtx, _ := writeTestMatrix(t, t.TempDir(), 10, 8)
	out := filepath.Join(t.TempDir(), "results")
	base := []string{"fit", "--model", "nmf", "--k", "3", "--out", out}
	with := func(args ...string) []string { return append(append([]string{}, base...), args...) }
	checkCLIErrors(t, []cliError{
		{with("--mtx", mtx, "--stem"), "--stem applies to --data, not to --mtx"},
		{with("--mtx", mtx, "--min-df", "1"), "--min-df applies to --data, not to --mtx"},
		{with("--mtx", mtx, "--weighting", "tf"), "--weighting applies to --data, not to --mtx"},
		{with("--mtx", mtx, "--text-col", "body"), "--text-col applies to --data, not to --mtx"},
		{with("--mtx", mtx, "--split", "train"), "--split applies to --data, not to --mtx"},
		{with("--data", filepath.Join(dir, "docs.jsonl"), "--text-col", "body"), "--text-col applies to a CSV or TSV file, not to a jsonl input"},
		{with("--data", filepath.Join(dir, "docs.jsonl"), "--id-col", "key"), "--id-col applies to a CSV or TSV file"},
		{with("--data", filepath.Join(dir, "folder"), "--label-col", "c"), "--label-col applies to a CSV or TSV file, not to a dir input"},
		{with("--data", filepath.Join(dir, "docs.csv"), "--text-col", "body", "--corpus-cache", "none"), "--corpus-cache applies to a registered data set"},
	})
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused fits created %s", out)
	}
}

// TestFitOutNotInsideARun: --out naming a finished run, a folder inside
// one, or a store's runs/ folder is refused before anything is written;
// the store stays intact.
func TestFitOutNotInsideARun(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 10)
	out := filepath.Join(dir, "results")
	run := fitRun(t, "--model", "nmf", "--k", "3", "--iters", "5", "--mtx", mtx, "--vocab", vocab, "--out", out, "--quiet")
	before := readFile(t, filepath.Join(run, "done"))
	other := []string{"fit", "--model", "nmf", "--k", "2", "--iters", "5", "--mtx", mtx, "--out"}
	checkCLIErrors(t, []cliError{
		{append(other, run), "is a finished run, not a results root"},
		{append(other, filepath.Join(run, "sub")), "lies in a finished run"},
		{append(other, filepath.Join(out, "runs")), "is the runs folder of the results root " + out},
		{append(other, filepath.Join(out, "runs", "x")), "lies in the runs folder of the results root " + out},
	})
	ents, err := os.ReadDir(run)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			t.Errorf("refused fits wrote %s into the run", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(out, "runs", "runs")); !os.IsNotExist(err) {
		t.Errorf("a refused fit made a store inside runs/")
	}
	if readFile(t, filepath.Join(run, "done")) != before {
		t.Error("done changed")
	}
	if n := len(runEntries(t, out)); n != 1 {
		t.Errorf("%d runs, want the one", n)
	}
	// A results root holding runs is fine (the same fit is a cache hit).
	if stdout, _, err := runTopicmf(context.Background(), "fit", "--model", "nmf", "--k", "3", "--iters", "5", "--mtx", mtx, "--vocab", vocab, "--out", out, "--quiet"); err != nil || strings.TrimSpace(stdout) != "cached: "+run {
		t.Errorf("same fit: %q %v, want cached: %s", stdout, err, run)
	}
}
