package corpora

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/internal/realdata"
)

func dataDir(t *testing.T) string {
	t.Helper()
	return realdata.Dir(t, "adi/adi.tar.gz")
}

// TestBuildCachesCorpus builds ADI twice through the cache: the second
// build is a hit and bit-identical to the first and to an uncached build.
func TestBuildCachesCorpus(t *testing.T) {
	dir := dataDir(t)
	src, err := datasets.Lookup("adi")
	if err != nil {
		t.Fatal(err)
	}
	opts := text.Bare(text.Options{StopList: text.StopSMART})
	cacheDir := t.TempDir()
	first, err := Build(dir, src, opts, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached {
		t.Fatal("first build reported a cache hit in an empty cache")
	}
	second, err := Build(dir, src, opts, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if !second.Cached {
		t.Fatal("second build missed the cache")
	}
	plain, err := Build(dir, src, opts, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*Result{second, plain} {
		if !reflect.DeepEqual(got.Corpus.D, first.Corpus.D) || !reflect.DeepEqual(got.Corpus.Vocab, first.Corpus.Vocab) ||
			!reflect.DeepEqual(got.Corpus.DocIDs, first.Corpus.DocIDs) {
			t.Fatal("cached or uncached corpus differs from the first build")
		}
	}
	// Other options are another key.
	other, err := Build(dir, src, text.Bare(text.Options{StopList: text.StopSMART, MinDF: 2}), cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if other.Cached || other.Corpus.Terms() >= first.Corpus.Terms() {
		t.Fatalf("min-df 2 build: cached=%v, %d terms (all-terms build has %d)", other.Cached, other.Corpus.Terms(), first.Corpus.Terms())
	}
}

// TestBuildRefusesDamagedFile copies ADI, flips one byte and expects an
// error naming the file instead of a corpus.
func TestBuildRefusesDamagedFile(t *testing.T) {
	dir := dataDir(t)
	src, err := datasets.Lookup("adi")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	b, err := os.ReadFile(filepath.Join(dir, "adi", "adi.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.MkdirAll(filepath.Join(tmp, "adi"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "adi", "adi.tar.gz"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Build(tmp, src, text.Bare(text.Options{}), "")
	if err == nil || !strings.Contains(err.Error(), "adi/adi.tar.gz") {
		t.Fatalf("err = %v, want one naming adi/adi.tar.gz", err)
	}
}
