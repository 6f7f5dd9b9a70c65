package notebook

import (
	"context"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/workflow"
)

// TestDefaultsSameBits is issue 24's "same defaults everywhere" for the
// notebook API: for every family, Fit(c, NAME, nil) gives bit for bit the
// factors of the library with its default options (the family's
// Defaults(), with the front-end defaults the catalog declares), on the
// corpus on which cmd/topicmf's TestDefaultsSameBits holds "topicmf fit"
// to the same library fit.
func TestDefaultsSameBits(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: fits every family twice")
	}
	dir := filepath.Join("..", "experiments", "workflow", "testdata", "defaults")
	src, err := workflow.Resolve(workflow.Input{MTX: workflow.MTX{Path: filepath.Join(dir, "counts.mtx"), Labels: filepath.Join(dir, "labels.txt")}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := src.Build()
	if err != nil {
		t.Fatal(err)
	}
	c := &Corpus{Corpus: &experiments.Corpus{Corpus: b.Corpus}}
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
			f, err := Fit(c, fam.Name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(f.Model.TermTopics(), want.TermTopics()) || !mat.Equal(f.Model.DocTopics(), want.DocTopics()) {
				t.Errorf("notebook.Fit(c, %q, nil) and the library with default options give different factors", fam.Name)
			}
		})
	}
}
