package realdata

import (
	"context"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/internal/realdata"
)

// collection reads the registered collection name from $TOPICMF_DATA
// through its reader and returns it with the data directory, or skips the
// test naming what is missing ($TOPICMF_DATA unset, or a file of the
// collection absent).
func collection(tb testing.TB, name string) (*datasets.Collection, string) {
	tb.Helper()
	src, err := datasets.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	var need []string
	for _, f := range src.Files {
		need = append(need, f.Path)
	}
	dir := realdata.Dir(tb, need...)
	col, err := src.Read(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return col, dir
}

// load reads the registered collection name (see collection) through the
// default text pipeline (zero text.Options: tf-idf, no pruning — the STTM
// files are already preprocessed).
func load(tb testing.TB, name string) *engine.Corpus {
	tb.Helper()
	col, _ := collection(tb, name)
	c, _, err := text.Build(col, text.Bare(text.Options{}))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// itersFor is the iteration count of a real-data fit: full, or short
// with -short.
func itersFor(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// fitRecorded fits m on c with a recorder and returns the model, its
// status and the records; an error fails the test.
func fitRecorded(tb testing.TB, m engine.Method, c *engine.Corpus) (engine.Model, engine.Status, []engine.Iteration) {
	tb.Helper()
	rec := engine.NewRecorder()
	model, st, err := m.Fit(context.Background(), c, rec)
	if err != nil {
		tb.Fatalf("%s with %+v: %v", m.Name(), m, err) // the options say which variant failed
	}
	return model, st, rec.Iterations()
}

// fitToLimit is fitRecorded for a fit that must run to its iteration
// limit: the test fails unless the status is IterationLimit after iters
// iterations, with one record each.
func fitToLimit(tb testing.TB, m engine.Method, c *engine.Corpus, iters int) (engine.Model, []engine.Iteration) {
	tb.Helper()
	model, st, its := fitRecorded(tb, m, c)
	if st.Reason != engine.IterationLimit || st.Iterations != iters || len(its) != iters {
		tb.Fatalf("%s with %+v: status %v, %d records; want the iteration limit after %d", m.Name(), m, st, len(its), iters)
	}
	return model, its
}

// med reads MED (MEDLINE 1033) through the registered reader and the text
// pipeline (SMART stop list, terms in at least 2 documents, the given
// weighting; "" is the pipeline's default), or skips the test when
// $TOPICMF_DATA or the collection is absent.
func med(tb testing.TB, weighting string) *engine.Corpus {
	tb.Helper()
	col, dir := collection(tb, "med")
	c, _, err := text.Build(col, text.Bare(text.Options{StopList: "smart", MinDF: 2, Weighting: weighting, DataDir: dir}))
	if err != nil {
		tb.Fatal(err)
	}
	if c.Docs() != 1033 {
		tb.Fatalf("MED: %d documents, want 1033 (SOURCE.md)", c.Docs())
	}
	return c
}
