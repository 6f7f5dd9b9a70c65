package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/internal/realdata"
)

// runCmd runs the CLI in-process.
func runCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), &out, &errb, args)
	return out.String(), errb.String(), err
}

// realDataDir is $TOPICMF_DATA, or skips.
func realDataDir(t *testing.T) string {
	t.Helper()
	return realdata.Dir(t)
}

func srcBytes(s datasets.Source) int64 {
	var n int64
	for _, f := range s.Files {
		n += f.Size
	}
	return n
}

// smallestSource is the registered source with the fewest bytes among
// those keep accepts (ties by name), or skips.
func smallestSource(t *testing.T, keep func(datasets.Source) bool) datasets.Source {
	t.Helper()
	var cands []datasets.Source
	for _, s := range datasets.Sources() {
		if len(s.Files) > 0 && keep(s) {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		t.Skip("no registered data set fits this test yet (the sources tables are being filled in)")
	}
	sort.SliceStable(cands, func(a, b int) bool { return srcBytes(cands[a]) < srcBytes(cands[b]) })
	return cands[0]
}

// copySource copies the real files of src from the data directory into a
// fresh temporary data directory.
func copySource(t *testing.T, real string, src datasets.Source) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range src.Files {
		from := filepath.Join(real, filepath.FromSlash(f.Path))
		to := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		in, err := os.Open(from)
		if err != nil {
			t.Skipf("%s is absent from %s: %v", f.Path, real, err)
		}
		out, err := os.Create(to)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, in); err != nil {
			t.Fatal(err)
		}
		in.Close()
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func TestDataList(t *testing.T) {
	out, _, err := runCmd(t, "data", "list")
	if err != nil {
		t.Fatal(err)
	}
	srcs := datasets.Sources()
	// A line per source (then its description's continuation lines,
	// indented) under the header, within the width.
	var rows []string
	header := false
	for _, l := range nonEmptyLines(out) {
		if n := utf8.RuneCountInString(l); n > defaultWidth {
			t.Errorf("line of %d runes: %q", n, l)
		}
		switch {
		case strings.HasPrefix(l, "NAME "):
			header = true
		case header && !strings.HasPrefix(l, " "):
			rows = append(rows, l)
		}
	}
	if len(rows) != len(srcs) {
		t.Fatalf("list: %d rows for %d sources:\n%s", len(rows), len(srcs), out)
	}
	for i, s := range srcs {
		f := strings.Fields(rows[i])
		if len(f) < 2 || f[0] != s.Name || f[1] != "yes" && f[1] != "no" && f[1] != "changed" && !strings.Contains(f[1], "/") {
			t.Errorf("line %q, want name %s and whether it is present", rows[i], s.Name)
		}
	}

	out, _, err = runCmd(t, "data", "list", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got []listJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	if len(got) != len(srcs) {
		t.Fatalf("list --json: %d entries, want %d", len(got), len(srcs))
	}
	for i, s := range srcs {
		if got[i].Name != s.Name || len(got[i].Files) != len(s.Files) || got[i].Bytes != srcBytes(s) {
			t.Errorf("entry %d = %s with %d files, %d bytes; want %s, %d, %d", i, got[i].Name, len(got[i].Files), got[i].Bytes, s.Name, len(s.Files), srcBytes(s))
		}
		for j, f := range s.Files {
			if g := got[i].Files[j]; g.Path != f.Path || g.SHA256 != f.SHA256 || g.Size != f.Size || g.URL != f.URL {
				t.Errorf("%s file %d: %+v, want %+v", s.Name, j, g, f)
			}
		}
	}
}

// TestDataVerifyReal: every registered file in the shared data directory
// verifies, through --data and through TOPICMF_DATA.
func TestDataVerifyReal(t *testing.T) {
	dir := realDataDir(t)
	files := datasets.DistinctFiles(datasets.Sources())
	out, _, err := runCmd(t, "data", "verify", "--data", dir)
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	want := fmt.Sprintf("all %d files of %d data sets verified in %s", len(files), len(datasets.Sources()), dir)
	if !strings.HasPrefix(out, want) || len(nonEmptyLines(out)) != 1 {
		t.Errorf("verify printed %q, want one line starting %q", out, want)
	}
	t.Setenv(datasets.EnvDataDir, dir)
	if out, _, err := runCmd(t, "data", "verify", "stopwords"); err != nil || !strings.HasPrefix(out, "all 4 files of 1 data sets verified") {
		t.Errorf("verify stopwords via TOPICMF_DATA: %v\n%s", err, out)
	}
}

// TestDataVerifyCorrupt copies one registered source's files, flips one
// byte of one file and checks that verify names exactly that file.
func TestDataVerifyCorrupt(t *testing.T) {
	real := realDataDir(t)
	src := smallestSource(t, func(s datasets.Source) bool { return s.Name != "stopwords" })
	dir := copySource(t, real, src)
	if out, _, err := runCmd(t, "data", "verify", "--data", dir, src.Name); err != nil {
		t.Fatalf("verify of an intact copy of %s: %v\n%s", src.Name, err, out)
	}

	bad := src.Files[len(src.Files)-1]
	p := filepath.Join(dir, filepath.FromSlash(bad.Path))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x01
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "data", "verify", "--data", dir, src.Name)
	if err == nil {
		t.Fatalf("verify passed with a flipped byte in %s:\n%s", bad.Path, out)
	}
	lines := nonEmptyLines(out)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], bad.Path+": checksum mismatch") ||
		!strings.Contains(lines[0], bad.SHA256) || !strings.Contains(lines[0], src.Name) {
		t.Errorf("verify printed %q, want one line naming %s, its expected digest and data set %s", out, bad.Path, src.Name)
	}
	if want := fmt.Sprintf("1 of %d files failed verification in %s", len(src.Files), dir); err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}

	// Verifying everything in this directory: the flipped file plus every
	// file of the other sources (missing) fail, one line each.
	all := datasets.DistinctFiles(datasets.Sources())
	out, _, err = runCmd(t, "data", "verify", "--data", dir)
	if err == nil || len(nonEmptyLines(out)) != len(all)-len(src.Files)+1 {
		t.Errorf("verify all: %v; %d lines, want %d", err, len(nonEmptyLines(out)), len(all)-len(src.Files)+1)
	}
}

func TestDataVerifyErrors(t *testing.T) {
	_, _, err := runCmd(t, "data", "verify", "--data", t.TempDir(), "no-such-set")
	if err == nil || !strings.Contains(err.Error(), "no-such-set") || !strings.Contains(err.Error(), "stopwords") {
		t.Errorf("unknown name: err = %v, want one naming it and listing the known sets", err)
	}
	missing := filepath.Join(t.TempDir(), "absent")
	_, _, err = runCmd(t, "data", "verify", "--data", missing)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("absent data directory: err = %v, want one naming %s", err, missing)
	}
	t.Setenv(datasets.EnvDataDir, missing)
	_, _, err = runCmd(t, "data", "stats", "stopwords")
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "TOPICMF_DATA") {
		t.Errorf("absent TOPICMF_DATA: err = %v", err)
	}
	if _, _, err := runCmd(t, "data", "stats"); err == nil {
		t.Error("stats without a name: no error")
	}
}

// TestDataFetchMirror fetches from an HTTP mirror of the shared data
// directory into a fresh one.
func TestDataFetchMirror(t *testing.T) {
	real := realDataDir(t)
	other := smallestSource(t, func(s datasets.Source) bool { return s.Name != "stopwords" })
	srv := httptest.NewServer(http.FileServer(http.Dir(real)))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "new", "data")
	names := []string{"stopwords", other.Name}
	n := len(datasets.DistinctFiles([]datasets.Source{mustLookup(t, "stopwords"), other}))

	args := append([]string{"data", "fetch", "--data", dir, "--mirror", srv.URL}, names...)
	out, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatalf("fetch: %v\n%s", err, out)
	}
	if got := strings.Count(out, ": downloaded "); got != n {
		t.Errorf("fetch downloaded %d files, want %d:\n%s", got, n, out)
	}
	if out, _, err := runCmd(t, append([]string{"data", "verify", "--data", dir}, names...)...); err != nil {
		t.Fatalf("verify after fetch: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, args...)
	if err != nil || strings.Count(out, "already present") != n || !strings.Contains(out, "(0 downloaded)") {
		t.Errorf("second fetch: %v\n%s", err, out)
	}

	// A local directory works as a mirror too.
	dir2 := t.TempDir()
	if out, _, err := runCmd(t, "data", "fetch", "--data", dir2, "--mirror", real, "stopwords"); err != nil {
		t.Fatalf("fetch from a local mirror: %v\n%s", err, out)
	}

	// A mirror without the files: one line per file naming it, non-zero exit.
	empty := httptest.NewServer(http.NotFoundHandler())
	defer empty.Close()
	dir3 := t.TempDir()
	out, _, err = runCmd(t, "data", "fetch", "--data", dir3, "--mirror", empty.URL, "stopwords")
	if err == nil || !strings.Contains(err.Error(), "4 of 4 files could not be fetched") {
		t.Fatalf("fetch from an empty mirror: err = %v", err)
	}
	for _, f := range mustLookup(t, "stopwords").Files {
		if !strings.Contains(out, f.Path+": GET ") || !strings.Contains(out, "404") {
			t.Errorf("output does not report %s with its 404:\n%s", f.Path, out)
		}
	}
	if e, _ := os.ReadDir(filepath.Join(dir3, "stopwords")); len(e) != 0 {
		t.Errorf("failed fetch left files: %v", e)
	}
}

func mustLookup(t *testing.T, name string) datasets.Source {
	t.Helper()
	s, err := datasets.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDataStatsTruncatedReal truncates a real archive of a registered
// source and checks that stats fails with one line naming it.
func TestDataStatsTruncatedReal(t *testing.T) {
	real := realDataDir(t)
	isArchive := func(p string) bool {
		return strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".zip") || strings.HasSuffix(p, ".gz")
	}
	src := smallestSource(t, func(s datasets.Source) bool {
		for _, f := range s.Files {
			if isArchive(f.Path) {
				return s.Name != "stopwords"
			}
		}
		return false
	})
	dir := copySource(t, real, src)
	var arc datasets.File
	for _, f := range src.Files {
		if isArchive(f.Path) {
			arc = f
			break
		}
	}
	if err := os.Truncate(filepath.Join(dir, filepath.FromSlash(arc.Path)), arc.Size/2); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "data", "stats", "--data", dir, src.Name)
	if err == nil {
		t.Fatalf("stats on a truncated %s succeeded:\n%s", arc.Path, out)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, path0(arc.Path)) || !strings.Contains(msg, "data set "+src.Name) {
		t.Errorf("error %q: want one line naming data set %s and %s", msg, src.Name, arc.Path)
	}
	if strings.Contains(msg, "reader failed unexpectedly") {
		t.Errorf("the reader panicked on a truncated archive: %s", msg)
	}
	t.Logf("truncated %s: %s", arc.Path, msg)
}

// path0 is the last element of a registry path.
func path0(p string) string { return p[strings.LastIndex(p, "/")+1:] }

// withSources replaces the registry for one test.
func withSources(t *testing.T, srcs ...datasets.Source) {
	t.Helper()
	old := dataSources
	dataSources = func() []datasets.Source { return srcs }
	t.Cleanup(func() { dataSources = old })
}

// TestDataStatsBrokenReaders runs stats on fake sources: a truncated
// archive, a reader that panics, and a missing file.
func TestDataStatsBrokenReaders(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	body := bytes.Repeat([]byte("word "), 20000)
	tw.WriteHeader(&tar.Header{Name: "docs.txt", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
	tw.Write(body)
	tw.Close()
	gz.Close()
	whole := buf.Bytes()
	if err := os.MkdirAll(filepath.Join(dir, "fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	arcPath := filepath.Join(dir, "fake", "docs.tar.gz")
	if err := os.WriteFile(arcPath, whole[:len(whole)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	file := datasets.File{Path: "fake/docs.tar.gz", SHA256: strings.Repeat("0", 64), Size: int64(len(whole))}
	readTar := func(d string) (*datasets.Collection, error) {
		c := &datasets.Collection{Name: "fake"}
		err := datasets.EachTarGzMember(filepath.Join(d, "fake", "docs.tar.gz"), func(name string, r io.Reader) error {
			b, err := io.ReadAll(r)
			c.Docs = append(c.Docs, datasets.Document{ID: name, Text: string(b)})
			return err
		})
		return c, err
	}
	withSources(t,
		datasets.Source{Name: "fake", Description: "truncated", Files: []datasets.File{file}, Read: readTar},
		datasets.Source{Name: "panics", Description: "buggy reader", Files: []datasets.File{file},
			Read: func(string) (*datasets.Collection, error) { var c *datasets.Collection; _ = c.Docs[0]; return c, nil }},
		datasets.Source{Name: "absent", Description: "missing file", Files: []datasets.File{{Path: "absent/x.gz", SHA256: file.SHA256, Size: 1}}, Read: readTar},
	)
	tests := []struct {
		name string
		has  []string
	}{
		{"fake", []string{"data set fake", "docs.tar.gz", "truncated", "size mismatch"}},
		{"panics", []string{"data set panics", "reader failed unexpectedly"}},
		{"absent", []string{"absent/x.gz is missing from " + dir, "topicmf data fetch absent"}},
	}
	for _, tc := range tests {
		_, _, err := runCmd(t, "data", "stats", "--data", dir, tc.name)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error is not one line: %q", tc.name, err)
		}
		for _, s := range tc.has {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, s)
			}
		}
	}
}

// TestDataStats checks the counts stats prints against SOURCE.md.
func TestDataStats(t *testing.T) {
	real := realDataDir(t)
	out, _, err := runCmd(t, "data", "stats", "--data", real, "stopwords", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var s statsJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if s.Name != "stopwords" || s.Docs != 4 || s.Queries != 0 || s.JudgedPairs != 0 || len(s.Warnings) == 0 {
		t.Errorf("stopwords stats: %+v", s)
	}
	// Vocabulary of the four lists under the bare pipeline (lower-case
	// runs of letters/digits, >= 2 runes, numbers dropped, nothing pruned),
	// computed independently in python3: SMART lines 9-579, CACM, NLTK
	// english and Terrier, re.findall(r"[^\W_]+", w.lower()) filtered by
	// len >= 2 and not isdigit() gives 916 distinct terms, 1846 tokens.
	if s.Vocabulary == nil || *s.Vocabulary != 916 || s.Tokens != 1846 || s.IndexedDocs != 4 {
		t.Errorf("stopwords vocabulary: %v terms, %d tokens, %d docs; want 916, 1846, 4 (%s)", s.Vocabulary, s.Tokens, s.IndexedDocs, s.VocabularyNote)
	}

	// Counts from the data directory's {adi,cranfield}/SOURCE.md.
	type want struct {
		docs, queries, judgedQueries, pairs int
		levels                              map[int]int
	}
	for name, w := range map[string]want{
		"adi":       {82, 35, 35, 170, nil},
		"cranfield": {1400, 225, 225, 1837, nil},
	} {
		if _, err := datasets.Lookup(name); err != nil {
			t.Logf("%s not registered yet; skipping its counts", name)
			continue
		}
		out, _, err := runCmd(t, "data", "stats", "--data", real, name, "--json")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var s statsJSON
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		if s.Docs != w.docs || s.Queries != w.queries || s.JudgedQueries != w.judgedQueries || s.JudgedPairs != w.pairs {
			t.Errorf("%s: docs %d queries %d judged queries %d pairs %d; want %d %d %d %d",
				name, s.Docs, s.Queries, s.JudgedQueries, s.JudgedPairs, w.docs, w.queries, w.judgedQueries, w.pairs)
		}
		total := 0
		for _, l := range s.Levels {
			total += l.Count
		}
		if total != s.Judgments {
			t.Errorf("%s: level counts sum to %d, want %d judgments", name, total, s.Judgments)
		}
		text, _, err := runCmd(t, "data", "stats", "--data", real, name)
		if err != nil || !strings.Contains(text, fmt.Sprintf("documents         %d", w.docs)) {
			t.Errorf("%s text stats: %v\n%s", name, err, text)
		}
	}
}

func TestCollectionStats(t *testing.T) {
	// Sizes 0 and 1, and a hand-made collection.
	if s := collectionStats(&datasets.Collection{}); s.Docs != 0 || s.Classes != 0 || len(s.Levels) != 0 {
		t.Errorf("empty: %+v", s)
	}
	c := &datasets.Collection{
		Name: "hand",
		Docs: []datasets.Document{
			{ID: "1", Class: "a", Split: "train"},
			{ID: "2", Class: "b", Split: "train"},
			{ID: "3", Categories: []string{"a", "c"}, Split: "test"},
			{ID: "4"},
		},
		Queries: []datasets.Query{{ID: "q1"}, {ID: "q2"}, {ID: "q3", Split: "dev"}},
		Qrels: []datasets.Judgment{
			{QueryID: "q1", DocID: "1", Level: 2}, {QueryID: "q1", DocID: "2", Level: 0},
			{QueryID: "q2", DocID: "1", Level: 2}, {QueryID: "q2", DocID: "1", Level: 2},
		},
		Gains: map[int]float64{2: 3, 0: 0},
	}
	s := collectionStats(c)
	if s.Docs != 4 || s.DocsBySplit["train"] != 2 || s.DocsBySplit["test"] != 1 || s.DocsBySplit[noSplit] != 1 {
		t.Errorf("docs by split: %v", s.DocsBySplit)
	}
	if s.Classes != 3 || s.DocsByClass["a"] != 2 || s.DocsByClass["c"] != 1 {
		t.Errorf("classes: %d %v", s.Classes, s.DocsByClass)
	}
	if s.Queries != 3 || s.JudgedQueries != 2 || s.Judgments != 4 || s.JudgedPairs != 3 {
		t.Errorf("queries %d judged %d judgments %d pairs %d; want 3 2 4 3", s.Queries, s.JudgedQueries, s.Judgments, s.JudgedPairs)
	}
	if len(s.Levels) != 2 || s.Levels[0] != (levelJSON{0, 1, 0}) || s.Levels[1] != (levelJSON{2, 3, 3}) {
		t.Errorf("levels: %+v", s.Levels)
	}
	var buf bytes.Buffer
	if err := printStats(&buf, s); err != nil || !strings.Contains(buf.String(), "(4 judgment lines; repeated pairs counted once)") {
		t.Errorf("printStats: %v\n%s", err, buf.String())
	}
}
