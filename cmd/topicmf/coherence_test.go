package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/experiments/workflow"
)

// TestFitPrintsAndStoresQuality fits NMF on the planted CSV and checks that
// fit prints the mean NPMI, C_V and TD@25, stores them per topic, that the
// stored values are those of the run's U against the training texts, and
// that eval --run --coherence scores the run again.
func TestFitPrintsAndStoresQuality(t *testing.T) {
	dir := plantedFiles(t)
	out := t.TempDir()
	csvPath := filepath.Join(dir, "docs.csv")
	args := []string{"fit", "--model", fitModel(t), "-k", "3", "--data", csvPath, "--text-col", "body", "--label-col", "category", "--out", out, "--quiet"}
	stdout, errOut, err := runTopicmf(context.Background(), args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(stdout, "topic quality (mean over topics, top 10 words; per topic in topic-quality.csv): NPMI ") ||
		!strings.Contains(stdout, ", C_V ") || !strings.Contains(stdout, ", TD@25 ") {
		t.Fatalf("fit printed no topic quality:\n%s", stdout)
	}
	var run string
	for _, l := range strings.Split(stdout, "\n") {
		if d, ok := strings.CutPrefix(l, "wrote: "); ok {
			run = d
		}
	}
	perTopic := readFile(t, filepath.Join(run, qualityTopicsFile))
	if lines := strings.Split(strings.TrimSpace(perTopic), "\n"); len(lines) != 4 || lines[0] != "topic,npmi,cv,words" {
		t.Fatalf("%s:\n%s", qualityTopicsFile, perTopic)
	}
	// The stored values are those of the run's U on the training texts.
	col, err := datasets.ReadUser(csvPath, datasets.UserOptions{Format: datasets.FormatCSV, TextCol: "body", LabelCol: "category"})
	if err != nil {
		t.Fatal(err)
	}
	vec, err := workflow.ReadVectorizer(run, "")
	if err != nil {
		t.Fatal(err)
	}
	docIDs, err := workflow.ReadLines(filepath.Join(run, "doc_ids.txt"), "id")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := quality.Reference(col, docIDs, vec)
	if err != nil {
		t.Fatal(err)
	}
	U, err := sparse.ReadDenseMMFile(filepath.Join(run, "U.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := quality.Evaluate(U, ref, quality.Options{Measures: quality.DefaultMeasures})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := rep.WriteTopics(&want); err != nil {
		t.Fatal(err)
	}
	if perTopic != want.String() {
		t.Errorf("stored per-topic quality:\n%s\nrecomputed:\n%s", perTopic, want.String())
	}
	// The cached run prints the same line.
	again, _, err := runTopicmf(context.Background(), args...)
	if err != nil || !strings.Contains(again, "cached: ") || !strings.Contains(again, "NPMI ") {
		t.Errorf("cached fit: %v\n%s", err, again)
	}
	// eval --run RUN --coherence scores it, against another collection of
	// the same texts (the JSONL file; a fit on a user's file keeps no path
	// to it).
	evalOut, errOut, err := runTopicmf(context.Background(), "eval", "--run", run, "--coherence", "umass,npmi", "--reference", filepath.Join(dir, "docs.jsonl"))
	if err != nil {
		t.Fatalf("eval --coherence: %v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(evalOut), "\n")
	if len(lines) != 5 || lines[0] != "topic\tUMass\tNPMI\twords" || !strings.HasPrefix(lines[4], "mean: UMass ") {
		t.Errorf("eval --coherence printed:\n%s", evalOut)
	}
	if got, want := lines[4], "mean: "+rep.Summary(); !strings.Contains(want, strings.Split(got, ", ")[1]) {
		t.Errorf("eval's mean NPMI %q differs from fit's %q (same texts)", got, want)
	}
	mtx, vocab := writeTestMatrix(t, t.TempDir(), 30, 20)
	checkCLIErrors(t, []cliError{
		{[]string{"fit", "--model", "nmf", "-k", "2", "--mtx", mtx, "--vocab", vocab, "--out", out, "--coherence", "npmi"}, "--coherence and --reference need a fit through the text pipeline (--data), not --mtx"},
		{append(append([]string{}, args...), "--coherence", "npmi,bogus"), `--coherence: unknown coherence measure "bogus"`},
		{[]string{"eval", "--run", run, "--coherence", "npmi"}, "give --reference PATH"},
		{[]string{"eval", "--run", run, "--coherence", "npmi", "--qrels", csvPath}, "give --run RUN and no --qrels"},
	})
}
