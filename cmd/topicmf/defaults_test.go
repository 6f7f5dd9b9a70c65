package main

import (
	"context"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/workflow"
)

// defaultsCorpus is the one corpus of the same-defaults tests (see its
// README): the command line's here, the notebook API's in package
// notebook.
var defaultsCorpus = filepath.Join("..", "..", "experiments", "workflow", "testdata", "defaults")

// TestDefaultsSameBits is issue 24's "same defaults everywhere" for the
// command line: for every family, "topicmf fit --model NAME" with no
// parameter gives bit for bit the factors of the library with its default
// options (the family's Defaults(), which carry the declared seed, with
// the front-end defaults the catalog declares: only RLSI has some). The
// notebook API is held to the same library fit by notebook's
// TestDefaultsSameBits.
func TestDefaultsSameBits(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: fits every family three times")
	}
	mtx, labels := filepath.Join(defaultsCorpus, "counts.mtx"), filepath.Join(defaultsCorpus, "labels.txt")
	src, err := workflow.Resolve(workflow.Input{MTX: workflow.MTX{Path: mtx, Labels: labels}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := src.Build()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for _, fam := range catalog.Families() {
		t.Run(fam.Name, func(t *testing.T) {
			lib, err := fam.New(fam.FrontEnd.Params)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := lib.Fit(context.Background(), b.Corpus, engine.NewRecorder())
			if err != nil {
				t.Fatal(err)
			}
			dir := fitRun(t, "--model", fam.Name, "--mtx", mtx, "--labels", labels, "--out", out, "--quiet")
			u, err := workflow.ReadDense(filepath.Join(dir, "U.mtx"))
			if err != nil {
				t.Fatal(err)
			}
			v, err := workflow.ReadDense(filepath.Join(dir, "V.mtx"))
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(u, want.TermTopics()) || !mat.Equal(v.T(), want.DocTopics()) {
				t.Errorf("topicmf fit --model %s and the library with default options give different factors", fam.Name)
			}
		})
	}
}
