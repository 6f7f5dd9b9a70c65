package corpora

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

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
	first, err := Build(dir, src, opts, CacheOptions{Dir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached {
		t.Fatal("first build reported a cache hit in an empty cache")
	}
	second, err := Build(dir, src, opts, CacheOptions{Dir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	if !second.Cached {
		t.Fatal("second build missed the cache")
	}
	plain, err := Build(dir, src, opts, CacheOptions{})
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
	other, err := Build(dir, src, text.Bare(text.Options{StopList: text.StopSMART, MinDF: 2}), CacheOptions{Dir: cacheDir})
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
	_, err = Build(tmp, src, text.Bare(text.Options{}), CacheOptions{})
	if err == nil || !strings.Contains(err.Error(), "adi/adi.tar.gz") {
		t.Fatalf("err = %v, want one naming adi/adi.tar.gz", err)
	}
}

// copyADI copies the ADI archive into a fresh data directory.
func copyADI(t *testing.T, dir string) (dataDir, archive string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "adi", "adi.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	dataDir = t.TempDir()
	archive = filepath.Join(dataDir, "adi", "adi.tar.gz")
	if err := os.MkdirAll(filepath.Dir(archive), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(archive, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dataDir, archive
}

// TestCacheHitChecksInputs is failure 7 of issue 11: a cache hit is used
// only while the data files match what was verified. A damaged archive
// whose size or time changed, or a missing one, fails as it does without
// the cache; a same-size, same-time damage is caught under Verify.
func TestCacheHitChecksInputs(t *testing.T) {
	dir := dataDir(t)
	src, err := datasets.Lookup("adi")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		damage  func(archive string)
		verify  bool
		wantErr string // "" for a hit
	}{
		{"untouched", func(string) {}, false, ""},
		{"untouched, verify", func(string) {}, true, ""},
		{"touched only", func(p string) {
			later := time.Now().Add(time.Hour)
			os.Chtimes(p, later, later)
		}, false, ""},
		{"missing", func(p string) { os.Remove(p) }, false, "adi/adi.tar.gz: missing"},
		{"truncated", func(p string) { os.Truncate(p, 100) }, false, "adi/adi.tar.gz: size mismatch"},
		{"flipped byte, new time", func(p string) { flip(t, p, false) }, false, "adi/adi.tar.gz: checksum mismatch"},
		{"flipped byte, same time, verify", func(p string) { flip(t, p, true) }, true, "adi/adi.tar.gz: checksum mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, archive := copyADI(t, dir)
			cc := CacheOptions{Dir: t.TempDir(), Verify: tc.verify}
			if _, err := Build(data, src, text.Options{}, cc); err != nil {
				t.Fatal(err)
			}
			tc.damage(archive)
			res, err := Build(data, src, text.Options{}, cc)
			if tc.wantErr == "" {
				if err != nil || !res.Cached {
					t.Fatalf("want a cache hit, got %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// flip inverts one byte of p, keeping its modification time when keepTime.
func flip(t *testing.T, p string, keepTime bool) {
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	b[len(b)/2] ^= 0xff
	os.WriteFile(p, b, 0o644)
	mt := fi.ModTime().Add(time.Second)
	if keepTime {
		mt = fi.ModTime()
	}
	os.Chtimes(p, mt, mt)
}

// TestCorruptCacheFileIsReported: a damaged cache file (truncated, or
// one byte changed without a change of size: issue 23) gives a warning
// naming it, and the corpus is built again, identical. Every read checks
// the CRC-32C of the whole file (datasets/cache), so no damaged entry is
// served.
func TestCorruptCacheFileIsReported(t *testing.T) {
	dir := dataDir(t)
	src, err := datasets.Lookup("adi")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		damage func(path string) error
		reason string
	}{
		{"truncated", func(p string) error { return os.Truncate(p, 1000) }, "checksum mismatch"},
		{"one byte changed", func(p string) error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b[len(b)/2]++
			return os.WriteFile(p, b, 0o644)
		}, "checksum mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cc := CacheOptions{Dir: t.TempDir()}
			first, err := Build(dir, src, text.Options{}, cc)
			if err != nil {
				t.Fatal(err)
			}
			key, _ := Key(src, text.Options{DataDir: dir})
			path := filepath.Join(cc.Dir, key+".corpus")
			if err := tc.damage(path); err != nil {
				t.Fatal(err)
			}
			again, err := Build(dir, src, text.Options{}, cc)
			if err != nil {
				t.Fatal(err)
			}
			if again.Cached || len(again.Warnings) == 0 || !strings.Contains(again.Warnings[0], path+" is damaged ("+tc.reason) {
				t.Fatalf("cached=%v warnings %q", again.Cached, again.Warnings)
			}
			if !reflect.DeepEqual(again.Corpus.D, first.Corpus.D) {
				t.Fatal("rebuilt corpus differs")
			}
		})
	}
}

// TestCacheHitKeepsNotes: a corpus read back from the cache comes with the
// reader's and the pipeline's warnings of its build (issue 23: a run's
// notes.txt lost them when the corpus came from the cache).
func TestCacheHitKeepsNotes(t *testing.T) {
	dir := dataDir(t)
	src, err := datasets.Lookup("adi")
	if err != nil {
		t.Fatal(err)
	}
	opts := text.Bare(text.Options{StopList: text.StopSMART, MinDF: 2})
	cacheDir := t.TempDir()
	first, err := Build(dir, src, opts, CacheOptions{Dir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Build(dir, src, opts, CacheOptions{Dir: cacheDir})
	if err != nil || !second.Cached {
		t.Fatalf("second build: cached=%v, %v", second != nil && second.Cached, err)
	}
	if len(first.Warnings) == 0 || !strings.Contains(strings.Join(first.Warnings, "\n"), "vocabulary: ") {
		t.Fatalf("the first build has no vocabulary note: %q", first.Warnings)
	}
	if n := len(second.Warnings); n == 0 || !strings.HasPrefix(second.Warnings[n-1], "corpus of adi read from the cache ") {
		t.Fatalf("the cache hit does not say so: %q", second.Warnings)
	}
	if !reflect.DeepEqual(second.Warnings[:len(second.Warnings)-1], first.Warnings) {
		t.Errorf("cache hit notes:\n%s\nbuild notes:\n%s", strings.Join(second.Warnings, "\n"), strings.Join(first.Warnings, "\n"))
	}
}
