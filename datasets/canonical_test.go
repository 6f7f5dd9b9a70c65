package datasets

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// withForm registers a canonical form for the test's duration.
func withForm(t *testing.T, staged File, c CanonicalForm) {
	t.Helper()
	canonicalForms[staged.SHA256] = c
	t.Cleanup(func() { delete(canonicalForms, staged.SHA256) })
}

// TestFetchGzipCanonical: the staged file is a gzip of what the URL serves;
// Fetch compresses the download and Verify accepts the result.
func TestFetchGzipCanonical(t *testing.T) {
	content := bytes.Repeat([]byte("short text line\n"), 3000)
	staged := gzipBytes(t, content, gzip.NoCompression) // stands in for gzip -9 -n
	f := fileFor("st/x.txt.gz", staged)
	plain := fileFor("", content)
	withForm(t, f, CanonicalForm{Gzip: true, SHA256: plain.SHA256, Size: plain.Size})
	wrong := append([]byte(nil), content...)
	wrong[7] = '!'
	srv := serve(t, map[string][]byte{"/x.txt": content, "/staged.gz": staged, "/wrong.txt": wrong}, nil)

	dir := t.TempDir()
	f.URL = srv.URL + "/x.txt"
	res, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()})
	if err != nil || res[0].Action != FetchDownloaded {
		t.Fatalf("%+v, %v", res, err)
	}
	if e := entries(t, dir); len(e) != 1 {
		t.Errorf("files: %v", e)
	}
	st := VerifyFile(dir, f)
	if !st.OK() || !st.Canonical || !strings.Contains(st.String(), "canonical form") {
		t.Fatalf("verify after fetch: %v (canonical %v)", st, st.Canonical)
	}
	r, err := OpenMaybeGzip(filepath.Join(dir, "st", "x.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	got.ReadFrom(r)
	r.Close()
	if !bytes.Equal(got.Bytes(), content) {
		t.Fatal("decompressed download differs from the served content")
	}
	// Present in canonical form: not downloaded again.
	if res, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()}); err != nil || res[0].Action != FetchPresent {
		t.Errorf("second fetch: %+v, %v", res, err)
	}

	// A damaged compressed file fails verification with the staged digest.
	p := filepath.Join(dir, "st", "x.txt.gz")
	b, _ := os.ReadFile(p)
	b[len(b)/2] ^= 0xff
	os.WriteFile(p, b, 0o644)
	if st := VerifyFile(dir, f); st.OK() || !strings.HasPrefix(st.String(), "st/x.txt.gz: size mismatch") {
		t.Errorf("damaged file: %v", st)
	}

	// The URL serving the staged bytes themselves is accepted too.
	dir2 := t.TempDir()
	f2 := f
	f2.URL = srv.URL + "/staged.gz"
	if _, err := FetchFiles(context.Background(), dir2, []File{f2}, FetchOptions{Client: srv.Client()}); err != nil {
		t.Fatal(err)
	}
	if st := VerifyFile(dir2, f2); !st.OK() || st.Canonical {
		t.Errorf("staged bytes: %v (canonical %v)", st, st.Canonical)
	}

	// Wrong content: an error naming both accepted digests, nothing left.
	dir3 := t.TempDir()
	f3 := f
	f3.URL = srv.URL + "/wrong.txt"
	_, err = FetchFiles(context.Background(), dir3, []File{f3}, FetchOptions{Client: srv.Client()})
	if err == nil || !strings.Contains(err.Error(), f.SHA256) || !strings.Contains(err.Error(), plain.SHA256) || !strings.Contains(err.Error(), f3.URL) {
		t.Fatalf("wrong content: err = %v", err)
	}
	wantNoFiles(t, dir3)
}

// TestFetchAlternateArchive: a canonical archive with other bytes than the
// staged rebuild is accepted as is.
func TestFetchAlternateArchive(t *testing.T) {
	staged, canonical := payload(4000), payload(4100)
	f := fileFor("ng/a.tar.gz", staged)
	c := fileFor("", canonical)
	withForm(t, f, CanonicalForm{SHA256: c.SHA256}) // size unknown
	srv := serve(t, map[string][]byte{"/a": canonical}, nil)
	f.URL = srv.URL + "/a"
	dir := t.TempDir()
	if _, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "ng", "a.tar.gz"))
	if !bytes.Equal(got, canonical) {
		t.Error("stored bytes are not the canonical download")
	}
	if st := VerifyFile(dir, f); !st.OK() || !st.Canonical {
		t.Errorf("verify: %v", st)
	}
}

// TestCanonicalFormsReal checks every canonical form against the staged
// files listed in SHA256SUMS: each key is a listed digest, a gzip form
// belongs to a .gz file, and its digest and size are those of the
// decompressed staged file.
func TestCanonicalFormsReal(t *testing.T) {
	dir := realdata.Dir(t, "SHA256SUMS")
	sumsFile := filepath.Join(dir, "SHA256SUMS")
	byDigest := map[string]string{}
	for p, sum := range readSums(t, sumsFile) {
		byDigest[sum] = p
	}
	for key, c := range canonicalForms {
		p, ok := byDigest[key]
		if !ok {
			t.Errorf("canonical form for sha256 %s: no file of %s has that digest", key, sumsFile)
			continue
		}
		if !hexDigest.MatchString(c.SHA256) || c.Note == "" {
			t.Errorf("%s: malformed canonical form %+v", p, c)
		}
		if c.Gzip && !strings.HasSuffix(p, ".gz") {
			t.Errorf("%s: a gzip form for a file not named .gz", p)
		}
		if !c.Gzip {
			continue
		}
		if match, err := matchesCanonical(filepath.Join(dir, filepath.FromSlash(p)), c); err != nil || !match {
			t.Errorf("%s: decompressed staged file does not have sha256 %s and %d bytes (err %v)", p, c.SHA256, c.Size, err)
		}
	}
}
