package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments/workflow"
)

// exportFromRun makes a directory in the layout of topicmf-beam export
// from an RLSI fit run with absolute λs: the run's files and a
// factors.json whose λs are the run's (as used, since they are absolute).
func exportFromRun(t *testing.T, run string, lambda1, lambda2 float64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "factors")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"U.mtx", "V.mtx", "vocab.txt", "doc_ids.txt", "vectorizer.json", "counts.mtx"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(readFile(t, filepath.Join(run, f))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	terms := len(strings.Fields(readFile(t, filepath.Join(run, "vocab.txt"))))
	docs := len(strings.Fields(readFile(t, filepath.Join(run, "doc_ids.txt"))))
	writeManifest(t, dir, map[string]any{"format": workflow.ExportFormat, "model": "rlsi", "variant": "u1v2",
		"terms": terms, "documents": docs, "k": 3, "lambda1": lambda1, "lambda2": lambda2,
		"inner_sweeps": 100, "inner_tol": 1e-5, "iteration": 8,
		"vectorizer": "vectorizer.json", "counts": "counts.mtx", "gonum": "v0.17.0"})
	return dir
}

func writeManifest(t *testing.T, dir string, m map[string]any) {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "factors.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFactorsFoldInAsRun: transform and rank over exported factors
// (--factors, restored without a refit) write the same bytes as over the
// fit run they came from (its saved model loaded): the same fold-in,
// v_q = (UᵀU + λ2 I)⁻¹Uᵀq, from the same U and λ2.
func TestFactorsFoldInAsRun(t *testing.T) {
	data := plantedFiles(t)
	out := t.TempDir()
	run := fitRun(t, "--model", "rlsi", "--k", "3", "--iters", "8", "--lambda1", "0.05", "--lambda2", "0.5",
		"--param", "lambda-scale=absolute", "--data", filepath.Join(data, "coll.all"), "--out", out, "--quiet")
	fdir := exportFromRun(t, run, 0.05, 0.5)
	qry := filepath.Join(data, "coll.qry")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"transform", []string{"transform", "--data", qry, "--quiet"}},
		{"rank", []string{"rank", "--queries", qry, "--depth", "30", "--quiet"}},
	} {
		viaRun, _, err := runTopicmf(context.Background(), append(tc.args, run)...)
		if err != nil {
			t.Fatalf("%s RUN: %v", tc.name, err)
		}
		viaFactors, _, err := runTopicmf(context.Background(), append(tc.args, "--factors", fdir)...)
		if err != nil {
			t.Fatalf("%s --factors: %v", tc.name, err)
		}
		if viaFactors != viaRun || len(strings.Split(viaRun, "\n")) < 4 {
			t.Errorf("%s --factors wrote\n%s\nthe run gives\n%s", tc.name, viaFactors, viaRun)
		}
	}
}

// TestFactorsErrors: each damaged export is one line naming the file and
// what is wrong.
func TestFactorsErrors(t *testing.T) {
	data := plantedFiles(t)
	run := fitRun(t, "--model", "rlsi", "--k", "3", "--iters", "2", "--param", "lambda-scale=absolute",
		"--data", filepath.Join(data, "coll.all"), "--out", t.TempDir(), "--quiet")
	good := exportFromRun(t, run, 0.05, 1)
	var base map[string]any
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(good, "factors.json"))), &base); err != nil {
		t.Fatal(err)
	}
	with := func(key string, val any) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			m := map[string]any{}
			for k, v := range base {
				m[k] = v
			}
			if val == nil {
				delete(m, key)
			} else {
				m[key] = val
			}
			writeManifest(t, dir, m)
		}
	}
	write := func(name, body string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	remove := func(name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	vocab := strings.SplitAfter(readFile(t, filepath.Join(good, "vocab.txt")), "\n")
	qry := filepath.Join(data, "coll.qry")
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		cmd    string
		want   string
	}{
		{"no manifest", remove("factors.json"), "transform", "factors.json: missing: --factors wants a directory written by topicmf-beam export"},
		{"malformed", write("factors.json", `{"format": "topicmf-export/1",`), "transform", "factors.json: malformed at byte"},
		{"wrong type", with("k", "three"), "transform", `factors.json: "k" is a string, want a int`},
		{"format", with("format", "topicmf-factors/1"), "transform", `format "topicmf-factors/1", want "topicmf-export/1"`},
		{"model", with("model", "grouprlsi"), "rank", `model "grouprlsi": --factors reads RLSI factors only`},
		{"no vectorizer", with("vectorizer", nil), "transform", "names no vectorizer.json"},
		{"missing U", remove("U.mtx"), "transform", "U.mtx: missing"},
		{"K", with("k", 4), "transform", "U.mtx: 27×3, factors.json says terms × K = 27×4"},
		{"terms", with("terms", 7), "transform", "vocab.txt: 27 terms, factors.json says 7"},
		{"vocabulary", write("vocab.txt", strings.Join(vocab[1:], "")), "transform", "27 document frequencies for 26 terms"},
		{"documents", with("documents", 29), "rank", "doc_ids.txt: 30 documents, factors.json says 29"},
		{"no counts", with("counts", nil), "rank", "names no counts.mtx"},
		{"lambda2", with("lambda2", -1), "transform", "lambda2"},
		{"variant", with("variant", "u3v3"), "transform", "variant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "factors")
			if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
				t.Fatal(err)
			}
			tc.damage(t, dir)
			args := []string{tc.cmd, "--factors", dir, "--quiet"}
			if tc.cmd == "transform" {
				args = append(args, "--data", qry)
			} else {
				args = append(args, "--queries", qry)
			}
			_, _, err := runTopicmf(context.Background(), args...)
			if err == nil {
				t.Fatal("no error")
			}
			line := errorLine(err)
			if !strings.Contains(line, tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line with %q", line, tc.want)
			}
		})
	}
	if _, _, err := runTopicmf(context.Background(), "transform", run, "--factors", good, "--data", qry); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("RUN and --factors: err = %v", err)
	}
	if _, _, err := runTopicmf(context.Background(), "rank", "--queries", qry); err == nil || !strings.Contains(err.Error(), "or --factors DIR") {
		t.Errorf("neither RUN nor --factors: err = %v", err)
	}
}

// TestFittedArgsFirst: transform and rank check RUN / --factors before
// they read --data or --queries, so that a user who forgot RUN is told so
// rather than given an error about the documents.
func TestFittedArgsFirst(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-file.jsonl")
	checkCLIErrors(t, []cliError{
		{[]string{"transform", "--data", missing}, "give a RUN"},
		{[]string{"rank", "--queries", missing}, "give a RUN"},
		{[]string{"transform", "somerun", "--factors", t.TempDir(), "--data", missing}, "not both"},
		{[]string{"rank", "somerun", "--factors", t.TempDir(), "--queries", missing}, "not both"},
		// The RUN or --factors is found before any documents are read.
		{[]string{"transform", "no-such-run", "--out", t.TempDir(), "--data", missing}, "run no-such-run: runs: "},
		{[]string{"rank", "no-such-run", "--out", t.TempDir(), "--queries", missing}, "with --out)"},
		{[]string{"transform", "--factors", t.TempDir(), "--data", missing}, "factors.json: missing"},
		{[]string{"rank", "--factors", t.TempDir(), "--queries", missing}, "factors.json: missing"},
	})
}
