package datasets

import (
	"bufio"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

var hexDigest = regexp.MustCompile(`^[0-9a-f]{64}$`)

// TestRegistryTables checks that every registered source is well formed:
// unique names, a reader, clean relative paths, lower-case SHA-256 digests,
// positive sizes, absolute http(s) URLs, and that a path shared by several
// sources carries the same digest and size everywhere.
func TestRegistryTables(t *testing.T) {
	names := map[string]bool{}
	type entry struct {
		src string
		f   File
	}
	byPath := map[string]entry{}
	for _, s := range Sources() {
		if s.Name == "" || names[s.Name] {
			t.Errorf("source name %q empty or repeated", s.Name)
		}
		names[s.Name] = true
		if s.Description == "" || s.Read == nil || len(s.Files) == 0 {
			t.Errorf("source %s: needs a description, a reader and at least one file", s.Name)
		}
		for _, f := range s.Files {
			if _, err := LocalPath("/data", f); err != nil {
				t.Errorf("source %s: %v", s.Name, err)
			}
			if !hexDigest.MatchString(f.SHA256) {
				t.Errorf("source %s: %s: digest %q is not 64 lower-case hex digits", s.Name, f.Path, f.SHA256)
			}
			if f.Size <= 0 {
				t.Errorf("source %s: %s: size %d", s.Name, f.Path, f.Size)
			}
			if f.URL != "" {
				u, err := url.Parse(f.URL)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					t.Errorf("source %s: %s: URL %q is not an absolute http(s) URL", s.Name, f.Path, f.URL)
				}
			} else if f.Member != "" {
				t.Errorf("source %s: %s: Member without URL", s.Name, f.Path)
			}
			if prev, ok := byPath[f.Path]; ok && (prev.f.SHA256 != f.SHA256 || prev.f.Size != f.Size) {
				t.Errorf("%s is registered by %s and %s with different digests or sizes", f.Path, prev.src, s.Name)
			}
			byPath[f.Path] = entry{s.Name, f}
		}
	}
	if _, err := Lookup("stopwords"); err != nil {
		t.Error(err)
	}
	if _, err := Lookup("no-such-set"); err == nil || !strings.Contains(err.Error(), "stopwords") {
		t.Errorf("Lookup of an unknown name: err = %v, want one listing the known names", err)
	}
}

// readSums parses a sha256sum file ("<hex>  ./<path>") into path -> digest.
func readSums(t *testing.T, name string) map[string]string {
	t.Helper()
	fh, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(fh)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 || !hexDigest.MatchString(fields[0]) {
			t.Fatalf("%s:%d: want \"<sha256>  <path>\", got %q", name, line, sc.Text())
		}
		sums[strings.TrimPrefix(strings.TrimPrefix(fields[1], "*"), "./")] = fields[0]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sums
}

// TestRegistryCoversSHA256SUMS checks that every file listed in the data
// directory's SHA256SUMS belongs to some registered source with the same
// digest, and that every registered file is listed there.
func TestRegistryCoversSHA256SUMS(t *testing.T) {
	dir := realdata.Dir(t, "SHA256SUMS")
	sumsFile := filepath.Join(dir, "SHA256SUMS")
	sums := readSums(t, sumsFile)
	registered := map[string]string{}
	for _, s := range Sources() {
		for _, f := range s.Files {
			registered[f.Path] = s.Name
			want, ok := sums[f.Path]
			if !ok {
				t.Errorf("source %s: %s is not listed in %s", s.Name, f.Path, sumsFile)
			} else if f.SHA256 != want {
				t.Errorf("source %s: %s: digest %s, SHA256SUMS says %s", s.Name, f.Path, f.SHA256, want)
			}
		}
	}
	var uncovered []string
	for p := range sums {
		if _, ok := registered[p]; !ok {
			uncovered = append(uncovered, p)
		}
	}
	sort.Strings(uncovered)
	if len(uncovered) == 0 {
		return
	}
	msg := "files of SHA256SUMS covered by no source:\n\t" + strings.Join(uncovered, "\n\t")
	if len(irSources())+len(textSources()) == 0 {
		t.Skip("the collection tables (sources_ir.go, sources_text.go) are still empty; " + msg)
	}
	t.Error(msg)
}
