package datasets

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// The synthetic archives and files the readers' tests are built from.

// textMember is one file of a synthetic archive.
type textMember struct {
	name string
	body string
}

// tarBytes returns a tar archive of members, as regular files in the given
// order; with dirs, each member's parent directories that are not yet in
// the archive come first, as directory entries.
func tarBytes(t *testing.T, dirs bool, members ...textMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	seen := map[string]bool{}
	for _, m := range members {
		for d := filepath.Dir(m.name); dirs && d != "." && !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			if err := tw.WriteHeader(&tar.Header{Name: d + "/", Typeflag: tar.TypeDir, Mode: 0o755}); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(m.body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(m.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// tarGz returns a .tar.gz of members (tarBytes without directory entries).
func tarGz(t *testing.T, members ...textMember) []byte {
	t.Helper()
	return gzipBytes(t, tarBytes(t, false, members...), gzip.DefaultCompression)
}

// zipBytes returns a .zip holding members, in the given order.
func zipBytes(t *testing.T, members ...textMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.Create(m.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(m.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gzipBytes compresses b at the given level.
func gzipBytes(t *testing.T, b []byte, level int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gzipText compresses s at the default level.
func gzipText(t *testing.T, s string) []byte {
	t.Helper()
	return gzipBytes(t, []byte(s), gzip.DefaultCompression)
}

// writeBytes writes b to path, creating its directory, and returns b.
func writeBytes(t *testing.T, path string, b []byte) []byte {
	t.Helper()
	writeFile(t, filepath.Dir(path), filepath.Base(path), b)
	return b
}

// readReal reads a collection with read from the tests' data directory,
// skipping the test when a file it needs (need, below that directory) is
// missing (internal/realdata); a reading error fails the test.
func readReal(t *testing.T, read func(dataDir string) (*Collection, error), need ...string) *Collection {
	t.Helper()
	c, err := read(realdata.Dir(t, need...))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wantErr fails unless err is non-nil and its message contains every part.
func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}
