package datasets

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// writeTextTarGz writes a .tar.gz holding members (with their parent
// directories as directory entries) and returns its bytes.
func writeTextTarGz(t *testing.T, path string, members []textMember) []byte {
	t.Helper()
	return writeBytes(t, path, gzipBytes(t, tarBytes(t, true, members...), gzip.DefaultCompression))
}

// writeTextZip writes a .zip holding members and returns its bytes.
func writeTextZip(t *testing.T, path string, members []textMember) []byte {
	t.Helper()
	return writeBytes(t, path, zipBytes(t, members...))
}

// truncatedCopy writes the first n bytes of src to a file in a temp
// directory, under the same base name, and returns its path.
func truncatedCopy(t *testing.T, src string, n int64) string {
	t.Helper()
	_, path := irTruncatedCopy(t, filepath.Dir(src), filepath.Base(src), int(n))
	return path
}

// TestTextSourcesRegistry checks the registry entries: names, readers,
// pinned URLs, and (with the data) that every staged file has the
// recorded size and SHA-256.
func TestTextSourcesRegistry(t *testing.T) {
	want := []string{"20newsgroups", "movie-review", "reuters-r8", "reuters21578",
		"stc2-biomedical", "stc2-searchsnippets", "stc2-stackoverflow",
		"sttm-biomedical", "sttm-searchsnippets", "sttm-stackoverflow", "sttm-tweet"}
	got := map[string]Source{}
	for _, s := range textSources() {
		if _, dup := got[s.Name]; dup {
			t.Errorf("source %s listed twice", s.Name)
		}
		got[s.Name] = s
		if s.Read == nil || s.Description == "" || len(s.Files) == 0 {
			t.Errorf("source %s: missing Read, Description or Files", s.Name)
		}
		for _, f := range s.Files {
			if !strings.HasPrefix(f.URL, "http") || len(f.SHA256) != 64 || f.Size <= 0 || strings.HasPrefix(f.Path, "/") {
				t.Errorf("source %s: incomplete file entry %+v", s.Name, f)
			}
			// GitHub addresses are pinned to a commit: host/owner/repo/<40 hex>/path.
			if rest, ok := strings.CutPrefix(f.URL, "https://raw.githubusercontent.com/"); ok {
				parts := strings.Split(rest, "/")
				if len(parts) < 4 || len(parts[2]) != 40 || strings.Trim(parts[2], "0123456789abcdef") != "" {
					t.Errorf("source %s: %s is not pinned to a commit", s.Name, f.URL)
				}
			}
		}
	}
	for _, n := range want {
		if _, ok := got[n]; !ok {
			t.Errorf("source %s missing from textSources", n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("textSources has %d entries, want %d", len(got), len(want))
	}
	// Tweet's label file differs in case from the other STTM sets.
	if f := got["sttm-tweet"].Files[1]; f.Path != "short_text_sttm/Tweet_LABEL.txt.gz" ||
		!strings.HasSuffix(f.URL, "/5573ed45095c162591f5d82e58e60bb8fd93ed08/dataset/Tweet_LABEL.txt") {
		t.Errorf("sttm-tweet labels entry %+v", f)
	}

	dir := realdata.Dir(t)
	checked := map[string]bool{}
	for _, s := range textSources() {
		for _, f := range s.Files {
			if checked[f.Path] {
				continue
			}
			checked[f.Path] = true
			p := dataFilePath(dir, f.Path)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Logf("%s absent, not checked: %v", f.Path, err)
				continue
			}
			sum := sha256.Sum256(b)
			if int64(len(b)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
				t.Errorf("%s: size %d sha256 %x, registry says %d %s", f.Path, len(b), sum, f.Size, f.SHA256)
			}
		}
	}
}

func TestUTF8OrLatin1(t *testing.T) {
	for _, c := range []struct {
		in     []byte
		want   string
		latin1 bool
	}{
		{nil, "", false},
		{[]byte("a"), "a", false},
		{[]byte("caf\xc3\xa9"), "café", false},
		{[]byte("caf\xe9"), "café", true},
		{[]byte("M\xfcller \xa3"), "Müller £", true},
	} {
		got, l1 := utf8OrLatin1(c.in)
		if got != c.want || l1 != c.latin1 {
			t.Errorf("utf8OrLatin1(%q) = %q, %v; want %q, %v", c.in, got, l1, c.want, c.latin1)
		}
	}
}
