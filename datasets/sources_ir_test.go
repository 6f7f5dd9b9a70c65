package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// irTruncatedCopy copies dataDir/rel into a fresh temporary data directory,
// keeping only its first keep bytes (keep < 0 counts from the end), and
// returns that directory and the copy's path.
func irTruncatedCopy(t *testing.T, dataDir, rel string, keep int) (dir, path string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	if keep < 0 {
		keep += len(b)
	}
	dir = t.TempDir()
	return dir, writeFile(t, dir, rel, b[:keep])
}

// irCopyFile copies srcDir/rel to dstDir/rel.
func irCopyFile(t *testing.T, srcDir, dstDir, rel string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(srcDir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dstDir, rel, b)
}

// irLevels counts judgments per level.
func irLevels(c *Collection) map[int]int {
	m := map[int]int{}
	for _, j := range c.Qrels {
		m[j.Level]++
	}
	return m
}

// irJudgedQueries counts the distinct queries with a judgment.
func irJudgedQueries(c *Collection) int {
	m := map[string]bool{}
	for _, j := range c.Qrels {
		m[j.QueryID] = true
	}
	return len(m)
}

// TestIRSourcesRegistry checks the IR entries of the registry: the
// expected names, each reader giving a Collection of that name, and every
// file's size and SHA-256 matching the staged bytes.
func TestIRSourcesRegistry(t *testing.T) {
	want := []string{"cranfield", "med", "cisi", "adi", "npl", "npl-glasgow", "semeval2016", "semeval2016-all", "trec-qc"}
	srcs := irSources()
	if len(srcs) != len(want) {
		t.Fatalf("irSources has %d entries, want %d", len(srcs), len(want))
	}
	for i, s := range srcs {
		if s.Name != want[i] {
			t.Errorf("irSources()[%d].Name = %q, want %q", i, s.Name, want[i])
		}
		if _, err := Lookup(s.Name); err != nil {
			t.Error(err)
		}
	}
	dir := realdata.Dir(t, "cranfield/cran.tar.gz")
	for _, s := range srcs {
		absent := false
		for _, f := range s.Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Path))
			b, err := os.ReadFile(p)
			if errors.Is(err, os.ErrNotExist) {
				t.Logf("%s: %s absent, source not checked", s.Name, p)
				absent = true
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			if int64(len(b)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
				t.Errorf("%s: %s: staged file has %d bytes, sha256 %x; registry says %d, %s", s.Name, f.Path, len(b), sum, f.Size, f.SHA256)
			}
		}
		if absent {
			continue
		}
		c, err := s.Read(dir)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		if c.Name != s.Name {
			t.Errorf("source %s read a Collection named %q", s.Name, c.Name)
		}
		for lv := range irLevels(c) {
			if _, ok := c.Gains[lv]; !ok {
				t.Errorf("%s: level %d has no gain", s.Name, lv)
			}
		}
		if len(c.Qrels) > 0 && c.GainNote == "" {
			t.Errorf("%s: judgments without a GainNote", s.Name)
		}
	}
}

// TestIRMissingFiles checks that every reader names the missing file.
func TestIRMissingFiles(t *testing.T) {
	empty := t.TempDir()
	for _, s := range irSources() {
		_, err := s.Read(empty)
		if err == nil {
			t.Errorf("%s: reading an empty directory gave no error", s.Name)
			continue
		}
		named := false
		for _, f := range s.Files {
			if strings.Contains(err.Error(), filepath.Join(empty, filepath.FromSlash(f.Path))) {
				named = true
			}
		}
		if !named || !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: error %q does not name a missing file of the source", s.Name, err)
		}
	}
}

// TestIRLineScannerStopsAtReadError checks that a failing reader ends the
// scan without yielding the partial last line, and that Err reports it.
func TestIRLineScannerStopsAtReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("a\r\nb\npart"), iotestErrReader{io.ErrUnexpectedEOF})
	sc := newIRLineScanner(r)
	var got []string
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if len(got) > 2 || (len(got) > 0 && got[0] != "a") {
		t.Errorf("lines %q, want at most the complete lines \"a\", \"b\"", got)
	}
	if err := sc.Err(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Err() = %v, want io.ErrUnexpectedEOF", err)
	}

	sc = newIRLineScanner(strings.NewReader("x\r\n\ny"))
	got = nil
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if strings.Join(got, "|") != "x||y" || sc.Err() != nil || sc.n != 3 {
		t.Errorf("lines %q (n=%d, err %v), want x, \"\", y", got, sc.n, sc.Err())
	}
}

type iotestErrReader struct{ err error }

func (e iotestErrReader) Read([]byte) (int, error) { return 0, e.err }
