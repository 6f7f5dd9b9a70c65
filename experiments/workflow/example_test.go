package workflow_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/experiments/workflow"
)

// The workflow of "topicmf fit", then "topicmf rank", from Go: a CSV of
// one's own notes through the text pipeline, an NMF fit written as a run,
// the run read back, and the notes ranked for a query by the topic score
// combined with BM25.
func Example() {
	ctx := context.Background()
	results, err := os.MkdirTemp("", "workflow-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(results)

	// NMF at K = 2 with the defaults of every front end; the default text
	// pipeline, keeping terms of one document too (the notes are few).
	m, err := workflow.NewMethod("nmf", catalog.Params{"k": "2"})
	if err != nil {
		log.Fatal(err)
	}
	pipeline, err := workflow.TextOptions("nmf", map[string]string{"min-df": "1"})
	if err != nil {
		log.Fatal(err)
	}
	src, err := workflow.Resolve(workflow.Input{Data: filepath.Join("testdata", "example", "notes.csv"), Text: pipeline})
	if err != nil {
		log.Fatal(err)
	}
	st, err := store.Open(results)
	if err != nil {
		log.Fatal(err)
	}
	fitted, err := workflow.FitRun(ctx, st, m, src, workflow.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	// The top 4 terms of each topic: a scoring of the run, stored beside
	// it (asking for other scores does not fit again).
	scores, err := workflow.ScoreRun(ctx, st, fitted.Run, src, workflow.ScoreOptions{Top: 4})
	if err != nil {
		log.Fatal(err)
	}
	topics, err := os.ReadFile(filepath.Join(scores.Dir, "topics.txt"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(topics))

	// Read the run back and rank its notes for a query.
	run, err := workflow.OpenRun(fitted.Dir, "")
	if err != nil {
		log.Fatal(err)
	}
	ranked, err := run.Ranker().Rank(ctx, []string{"q1"}, []string{"which planets does the telescope show"},
		workflow.RankOptions{Alpha: 0.5, Term: workflow.TermBM25, Depth: 3})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range ranked["q1"] {
		fmt.Println(d.DocID)
	}
	// Output:
	// topic 0: planets telescope night shows
	// topic 1: garlic pasta sauce season
	// s5
	// s1
	// s3
}
