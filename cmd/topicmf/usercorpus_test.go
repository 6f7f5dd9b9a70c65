package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// plantedTopics are three disjoint vocabularies; document i is about topic
// i mod 3 and draws 25 of its words.
var plantedTopics = [][]string{
	strings.Fields("rocket orbit launch moon nasa shuttle satellite planet"),
	strings.Fields("engine wheel brake car driver speed tire fuel"),
	strings.Fields("bread cheese wine cook recipe oven sugar flour"),
}

var plantedNames = []string{"space", "autos", "food"}

func plantedText(r *rand.Rand, topic int) string {
	words := make([]string, 25)
	for i := range words {
		words[i] = plantedTopics[topic][r.IntN(len(plantedTopics[topic]))]
	}
	return strings.Join(words, " ")
}

// plantedFiles writes the same 30 documents as a folder of text files, a
// CSV, a JSONL file and a SMART collection with queries and TREC qrels.
func plantedFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 5))
	var csv, jsonl, smart, qrels strings.Builder
	csv.WriteString("id,category,body\n")
	for i := 1; i <= 30; i++ {
		k := i % 3
		text := plantedText(r, k)
		p := filepath.Join(dir, "folder", plantedNames[k], fmt.Sprintf("%02d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&csv, "d%d,%s,\"%s\"\n", i, plantedNames[k], text)
		b, _ := json.Marshal(map[string]any{"id": i, "text": text, "label": plantedNames[k]})
		jsonl.Write(append(b, '\n'))
		fmt.Fprintf(&smart, ".I %d\n.T\n%s notes\n.W\n%s\n", i, plantedNames[k], text)
		fmt.Fprintf(&qrels, "%d 0 %d 1\n", k+1, i)
	}
	var queries strings.Builder
	for k := range plantedTopics {
		fmt.Fprintf(&queries, ".I %d\n.W\n%s\n", k+1, strings.Join(plantedTopics[k][:3], " "))
	}
	for name, body := range map[string]string{"docs.csv": csv.String(), "docs.jsonl": jsonl.String(),
		"coll.all": smart.String(), "coll.qry": queries.String(), "coll.rel": qrels.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fitRun fits and returns the run directory printed by fit.
func fitRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := runTopicmf(context.Background(), append([]string{"fit"}, args...)...)
	if err != nil {
		t.Fatalf("fit %v: %v\n%s", args, err, errOut)
	}
	for _, l := range strings.Split(out, "\n") {
		if dir, ok := strings.CutPrefix(l, "wrote: "); ok {
			return dir
		}
	}
	t.Fatalf("fit %v printed no run directory:\n%s", args, out)
	return ""
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// topicsSeparate checks that every planted vocabulary is the top-8 terms of
// exactly one topic: NMF with K = 3 recovers disjoint planted topics.
func topicsSeparate(t *testing.T, topics string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(topics), "\n")
	if len(lines) != 3 {
		t.Fatalf("topics.txt:\n%s", topics)
	}
	found := make([]int, 3)
	for _, l := range lines {
		_, terms, _ := strings.Cut(l, ": ")
		words := strings.Fields(terms)
		for k, voc := range plantedTopics {
			if len(words) >= 8 && sameSet(words[:8], voc) {
				found[k]++
			}
		}
	}
	if !slices.Equal(found, []int{1, 1, 1}) {
		t.Errorf("planted topics not recovered one each (%v):\n%s", found, topics)
	}
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// TestFitUserCorpora fits NMF (K = 3) on the same documents as a folder of
// text files, a CSV and a JSONL file: each run recovers the planted topics
// and names V's documents in doc_ids.txt.
func TestFitUserCorpora(t *testing.T) {
	dir := plantedFiles(t)
	out := t.TempDir()
	for _, tc := range []struct {
		data  string
		extra []string
		first string // first line of doc_ids.txt
	}{
		{"folder", nil, "autos/01.txt"},
		{"docs.csv", []string{"--text-col", "body", "--label-col", "category"}, "d1"},
		{"docs.jsonl", nil, "1"},
	} {
		run := fitRun(t, append([]string{"--model", "nmf", "--k", "3", "--data", filepath.Join(dir, tc.data), "--out", out}, tc.extra...)...)
		topicsSeparate(t, readFile(t, filepath.Join(run, "topics.txt")))
		ids := strings.Fields(readFile(t, filepath.Join(run, "doc_ids.txt")))
		if len(ids) != 30 || ids[0] != tc.first {
			t.Errorf("%s: doc_ids.txt has %d ids starting %q, want 30 starting %q", tc.data, len(ids), ids[:1], tc.first)
		}
		for _, f := range []string{"vectorizer.json", "counts.mtx", "labels.txt", "V.mtx"} {
			if _, err := os.Stat(filepath.Join(run, f)); err != nil {
				t.Errorf("%s: %v", tc.data, err)
			}
		}
	}
}

// TestFitUserCorpusErrors: a bad record is one line naming the file and
// line, and nothing is written.
func TestFitUserCorpusErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"id":1,"text":"fine words here"}`+"\n"+`{"id":2,"text":"`+strings.Repeat("long ", 600)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	_, _, err := runTopicmf(context.Background(), "fit", "--model", "nmf", "--k", "2", "--data", bad, "--out", out)
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl: line 2") || len(err.Error())-len(dir) > 200 {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("results written for a bad collection: %v", err)
	}
	_, _, err = runTopicmf(context.Background(), "fit", "--model", "nmf", "--data", "no-such-set-or-file", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "no-such-set-or-file") {
		t.Errorf("unknown data: err = %v", err)
	}
	csv := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(csv, []byte("id,text,split\n1,alpha beta,train\n2,beta gamma,train\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runTopicmf(context.Background(), "fit", "--model", "nmf", "--k", "1", "--data", csv, "--split", "test", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "splits: train") {
		t.Errorf("absent split: err = %v", err)
	}
}

// TestSMARTRoundTrip fits a new SMART collection, folds its queries in
// (transform), ranks its documents for them (rank) and evaluates the run
// (eval): every query's relevant documents are its topic's ten, so a
// topic-aware ranking gets MAP 1.
func TestSMARTRoundTrip(t *testing.T) {
	dir := plantedFiles(t)
	out := t.TempDir()
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", filepath.Join(dir, "coll.all"), "--out", out)
	topicsSeparate(t, readFile(t, filepath.Join(run, "topics.txt")))

	vecs := filepath.Join(out, "queries.tsv")
	if _, errOut, err := runTopicmf(context.Background(), "transform", run, "--data", filepath.Join(dir, "coll.qry"), "--output", vecs); err != nil {
		t.Fatalf("transform: %v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(readFile(t, vecs)), "\n")
	if len(lines) != 4 || lines[0] != "id\ttopic0\ttopic1\ttopic2" {
		t.Fatalf("transform wrote:\n%s", strings.Join(lines, "\n"))
	}
	// Each query loads on one topic, a different one per query.
	var argmax []int
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		best, bv := -1, -1.0
		for k, s := range f[1:] {
			var v float64
			fmt.Sscan(s, &v)
			if v > bv {
				best, bv = k, v
			}
		}
		argmax = append(argmax, best)
	}
	a := slices.Clone(argmax)
	slices.Sort(a)
	if !slices.Equal(a, []int{0, 1, 2}) {
		t.Errorf("queries' main topics %v, want one each", argmax)
	}

	trecRun := filepath.Join(out, "run.txt")
	stdout, errOut, err := runTopicmf(context.Background(), "rank", run, "--queries", filepath.Join(dir, "coll.qry"),
		"--qrels", filepath.Join(dir, "coll.rel"), "--output", trecRun, "--alpha", "0.5")
	if err != nil {
		t.Fatalf("rank: %v\n%s", err, errOut)
	}
	if !strings.Contains(stdout, "map                   \tall\t1.0000") {
		t.Errorf("rank's evaluation:\n%s", stdout)
	}
	first := strings.Fields(strings.SplitN(readFile(t, trecRun), "\n", 2)[0])
	if len(first) != 6 || first[1] != "Q0" || first[3] != "1" || first[5] != "topicmf" {
		t.Errorf("run line %q", first)
	}
	evalOut, _, err := runTopicmf(context.Background(), "eval", "--qrels", filepath.Join(dir, "coll.rel"), "--run", trecRun)
	if err != nil || !strings.Contains(evalOut, "map                   \tall\t1.0000") {
		t.Errorf("eval: %v\n%s", err, evalOut)
	}
	// The topic score alone ranks the same way here; α outside [0, 1] is refused.
	if _, _, err := runTopicmf(context.Background(), "rank", run, "--queries", filepath.Join(dir, "coll.qry"), "--alpha", "2"); err == nil {
		t.Error("alpha 2 accepted")
	}
}

// TestGroupModelOnLabelledCSV fits Group RLSI (one shared topic, one per
// class) on a labelled CSV: the class-specific topics are the classes'.
func TestGroupModelOnLabelledCSV(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "grouprlsi", "--param", "ks=0", "--param", "kc=1", "--param", "lambda1=0.001",
		"--data", filepath.Join(dir, "docs.csv"), "--text-col", "body", "--label-col", "category", "--out", t.TempDir())
	labels := strings.Fields(readFile(t, filepath.Join(run, "labels.txt")))
	if len(labels) != 30 || labels[0] != "autos" {
		t.Errorf("labels.txt: %d labels starting %q", len(labels), labels[:1])
	}
	topics := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(run, "topics.txt"))), "\n")
	if len(topics) != 3 {
		t.Fatalf("topics.txt:\n%s", strings.Join(topics, "\n"))
	}
	// Classes sorted: autos, food, space; topic p is class p's.
	for p, k := range []int{1, 2, 0} {
		_, terms, _ := strings.Cut(topics[p], ": ")
		w := strings.Fields(terms)
		if len(w) < 3 || !slices.Contains(plantedTopics[k], w[0]) {
			t.Errorf("topic %d (class %s) = %q, want %s words", p, []string{"autos", "food", "space"}[p], terms, plantedNames[k])
		}
	}
}
