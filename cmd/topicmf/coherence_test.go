package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/experiments/store"
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
	run, scores := printedDir(t, stdout, "wrote: "), printedDir(t, stdout, "scores: ")
	perTopic := readFile(t, filepath.Join(scores, workflow.TopicQualityFile))
	if lines := strings.Split(strings.TrimSpace(perTopic), "\n"); len(lines) != 4 || lines[0] != "topic,npmi,cv,words" {
		t.Fatalf("%s:\n%s", workflow.TopicQualityFile, perTopic)
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
	// The cached run prints the same line, and its scores are served
	// from the store too.
	again, _, err := runTopicmf(context.Background(), args...)
	if err != nil || !strings.Contains(again, "cached: "+run) || !strings.Contains(again, "NPMI ") || !strings.Contains(again, "scores: "+scores) {
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

// TestFitRescoresCachedRun: --coherence, --reference and --top are not in
// fit's run key. A second fit of the same model asking for other scores
// is served from the store ("cached: " the same run, nothing fitted) and
// prints and stores the scores asked for now, in a scoring run of its
// own; the fit run and the first scoring are left as they were (their
// manifests still verify, their bytes are unchanged). Before, each of
// these options made another run key, so the model was fitted again.
func TestFitRescoresCachedRun(t *testing.T) {
	dir := plantedFiles(t)
	out := t.TempDir()
	csvPath := filepath.Join(dir, "docs.csv")
	args := []string{"fit", "--model", fitModel(t), "-k", "3", "--data", csvPath, "--text-col", "body", "--label-col", "category", "--out", out, "--quiet"}
	first, errOut, err := runTopicmf(context.Background(), args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	run, scores := printedDir(t, first, "wrote: "), printedDir(t, first, "scores: ")
	before := map[string]string{}
	for _, d := range []string{run, scores} {
		for _, f := range []string{"done", "topics.txt", "metrics.csv", workflow.QualityFile} {
			if b, err := os.ReadFile(filepath.Join(d, f)); err == nil {
				before[filepath.Join(d, f)] = string(b)
			}
		}
	}

	rescore := append(append([]string{}, args...), "--coherence", "umass,uci", "--top", "5", "--reference", filepath.Join(dir, "docs.jsonl"))
	second, errOut, err := runTopicmf(context.Background(), rescore...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if got := printedDir(t, second, "cached: "); got != run {
		t.Fatalf("second fit served %s, want the first fit's run %s:\n%s", got, run, second)
	}
	if strings.Contains(second, "wrote: ") || strings.Contains(second, "converged") || strings.Contains(second, "NPMI") ||
		!strings.Contains(second, "): UMass ") || !strings.Contains(second, ", UCI ") {
		t.Fatalf("second fit, other scores of the cached run:\n%s", second)
	}
	rescored := printedDir(t, second, "scores: ")
	if rescored == scores {
		t.Fatalf("other scores written over the first scoring %s", scores)
	}
	if h := strings.SplitN(readFile(t, filepath.Join(rescored, workflow.TopicQualityFile)), "\n", 2)[0]; h != "topic,umass,uci,words" {
		t.Errorf("%s header %q", workflow.TopicQualityFile, h)
	}
	for _, l := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(rescored, "topics.txt"))), "\n") {
		if n := len(strings.Fields(l)) - 2; n != 5 {
			t.Errorf("rescored topics.txt line %q: %d terms, want 5", l, n)
		}
	}
	for path, b := range before {
		if readFile(t, path) != b {
			t.Errorf("%s changed by the rescoring", path)
		}
	}
	st, err := store.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{run, scores, rescored} {
		if err := st.CheckAll(filepath.Base(d)); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
	// The same scoring again is served from the store as well.
	third, _, err := runTopicmf(context.Background(), rescore...)
	if err != nil || printedDir(t, third, "cached: ") != run || printedDir(t, third, "scores: ") != rescored || !strings.Contains(third, "UMass ") {
		t.Errorf("third fit: %v\n%s", err, third)
	}
	if n := len(runEntries(t, out)); n != 3 {
		t.Errorf("%d run directories, want the fit and its two scorings", n)
	}
	// topicmf runs shows a scoring as the scores of its fit run.
	list, _, err := runTopicmf(context.Background(), "runs", "--results", out)
	if err != nil || strings.Count(list, "scores  run "+filepath.Base(run)[:idPrefix]) != 2 {
		t.Errorf("runs: %v\n%s", err, list)
	}
}
