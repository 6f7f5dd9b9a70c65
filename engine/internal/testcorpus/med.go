package testcorpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
)

// MED reads MED (MEDLINE 1033) through the registered reader and the
// text pipeline (SMART stop list, terms in at least 2 documents, the given
// weighting), or skips the test when $TOPICMF_DATA or the collection is
// absent.
func MED(t testing.TB, weighting string) *engine.Corpus {
	t.Helper()
	dir := os.Getenv("TOPICMF_DATA")
	if dir == "" {
		t.Skip("TOPICMF_DATA is not set: need the MED collection (medline/med.tar.gz)")
	}
	src, err := datasets.Lookup("med")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range src.Files {
		if _, err := os.Stat(filepath.Join(dir, f.Path)); err != nil {
			t.Skipf("MED collection absent: %v", err)
		}
	}
	col, err := src.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := text.Build(col, text.Options{StopList: "smart", MinDF: 2, Weighting: weighting, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if c.Docs() != 1033 {
		t.Fatalf("MED: %d documents, want 1033 (SOURCE.md)", c.Docs())
	}
	return c
}
