package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// fileFor returns a registry entry for content at rel.
func fileFor(rel string, content []byte) File {
	sum := sha256.Sum256(content)
	return File{Path: rel, URL: "http://example.invalid/" + rel, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(content))}
}

// writeFile writes content at dir/rel, creating parent directories, and
// returns its path.
func writeFile(t *testing.T, dir, rel string, content []byte) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVerifyFile(t *testing.T) {
	dir := t.TempDir()
	content := []byte("the quick brown fox\n")
	// sha256 of the 20 bytes above, from `printf 'the quick brown fox\n' | sha256sum`.
	const wantSum = "6e459fed18ddb06d57c8e9f0d000c302c7e01389926db6e89884bfbe91a2a5df"
	ok := fileFor("a/ok.txt", content)
	writeFile(t, dir, "a/ok.txt", content)
	writeFile(t, dir, "a/short.txt", content[:5])
	flipped := append([]byte(nil), content...)
	flipped[3] ^= 0x20
	writeFile(t, dir, "a/flipped.txt", flipped)
	writeFile(t, dir, "empty", nil)
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}

	with := func(p string) File { f := ok; f.Path = p; return f }
	tests := []struct {
		f      File
		want   Status
		strHas []string
	}{
		{ok, StatusOK, []string{"a/ok.txt: ok"}},
		{with("a/missing.txt"), StatusMissing, []string{"a/missing.txt: missing"}},
		{with("a/short.txt"), StatusSizeMismatch, []string{"a/short.txt", "expected 20 bytes, found 5"}},
		{with("a/flipped.txt"), StatusChecksumMismatch, []string{"a/flipped.txt", "expected sha256 " + ok.SHA256, "actual "}},
		{with("adir"), StatusUnreadable, []string{"adir", "not a regular file"}},
		{with("../escape"), StatusUnreadable, []string{"../escape", "clean relative path"}},
		{with("/abs"), StatusUnreadable, []string{"/abs"}},
		{with("a//b"), StatusUnreadable, []string{"a//b"}},
		{with(""), StatusUnreadable, []string{"clean relative path"}},
		{fileFor("empty", nil), StatusOK, []string{"empty: ok"}},
	}
	for _, tc := range tests {
		st := VerifyFile(dir, tc.f)
		if st.Status != tc.want {
			t.Errorf("%s: status %v, want %v (%v)", tc.f.Path, st.Status, tc.want, st)
		}
		if st.OK() != (tc.want == StatusOK) {
			t.Errorf("%s: OK() = %v", tc.f.Path, st.OK())
		}
		for _, s := range tc.strHas {
			if !strings.Contains(st.String(), s) {
				t.Errorf("%s: %q does not contain %q", tc.f.Path, st.String(), s)
			}
		}
		if strings.Contains(st.String(), "\n") {
			t.Errorf("%s: status line has a newline: %q", tc.f.Path, st.String())
		}
	}
	if ok.SHA256 != wantSum {
		t.Fatalf("sha256 = %s, want %s", ok.SHA256, wantSum)
	}
	if st := VerifyFile(dir, ok); st.SHA256 != wantSum || st.Size != 20 {
		t.Errorf("actual digest/size = %s/%d, want %s/20", st.SHA256, st.Size, wantSum)
	}
	// The checksum mismatch reports the actual digest of the flipped bytes.
	sum := sha256.Sum256(flipped)
	if st := VerifyFile(dir, with("a/flipped.txt")); st.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("actual digest %s, want %x", st.SHA256, sum)
	}
	// Upper-case digests in a table are accepted.
	up := ok
	up.SHA256 = strings.ToUpper(up.SHA256)
	if st := VerifyFile(dir, up); !st.OK() {
		t.Errorf("upper-case digest: %v", st)
	}
}

func TestVerifyAllDistinct(t *testing.T) {
	dir := t.TempDir()
	a := fileFor("s/a", []byte("aaa"))
	b := fileFor("s/b", []byte("bbbb"))
	writeFile(t, dir, "s/a", []byte("aaa"))
	wrongB := b
	wrongB.SHA256 = strings.Repeat("0", 64)
	srcs := []Source{
		{Name: "one", Files: []File{a, b}},
		{Name: "two", Files: []File{b, a}},
		{Name: "three", Files: []File{wrongB}},
		{Name: "empty"},
	}
	if got := DistinctFiles(srcs); len(got) != 3 || got[0].Path != "s/a" || got[1].Path != "s/b" || got[2].SHA256 != wrongB.SHA256 {
		t.Fatalf("DistinctFiles = %+v, want a, b, b(wrong digest)", got)
	}
	st := VerifyAll(dir, srcs)
	if len(st) != 3 || !st[0].OK() || st[1].Status != StatusMissing || st[2].Status != StatusMissing {
		t.Fatalf("VerifyAll = %v", st)
	}
	if got := VerifyAll(dir, nil); len(got) != 0 {
		t.Fatalf("VerifyAll(nil) = %v", got)
	}
	if got := Verify(dir, srcs[0]); len(got) != 2 {
		t.Fatalf("Verify(one) = %v", got)
	}
}

// TestVerifyRealData checks every registered file in the shared data
// directory against its size and SHA-256.
func TestVerifyRealData(t *testing.T) {
	dir := realdata.Dir(t)
	files := DistinctFiles(Sources())
	if len(files) == 0 {
		t.Skip("no source registers any file yet")
	}
	for _, st := range VerifyFiles(dir, files) {
		if !st.OK() {
			t.Errorf("%v", st)
		}
	}
}
