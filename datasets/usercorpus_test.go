package datasets

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/topicmf/topicmf/internal/fuzzcheck"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		writeFile(t, root, rel, []byte(body))
	}
}

type docSummary struct{ ID, Text, Class, Split string }

func summarize(c *Collection) []docSummary {
	var out []docSummary
	for _, d := range c.Docs {
		out = append(out, docSummary{d.ID, d.Text, d.Class, d.Split})
	}
	return out
}

func TestReadUserFormats(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"news/sci.space/1":      "rockets and orbits",
		"news/sci.space/2":      "the moon",
		"news/rec.autos/10":     "engines",
		"news/loose.txt":        "no class",
		"news/.hidden":          "skipped",
		"news/.git/config":      "skipped",
		"docs.csv":              "id,label,text,split\nd1,a,\"hello, world\",train\nd2,b,\"two\nlines\",test\n",
		"plain.csv":             "text\nfirst\nsecond\n",
		"docs.tsv":              "text\tlabel\nalpha beta\tx\ngamma\ty\n",
		"docs.jsonl":            "{\"id\": \"a\", \"text\": \"one\", \"label\": \"p\"}\n\n{\"id\": 7, \"text\": \"two\", \"label\": 3, \"extra\": true}\n{\"text\": \"three\"}",
		"cacm/docs.all":         ".I 1\n.T\nGraph theory\n.W\nabout graphs\n.A\nSomeone\n.I 2\n.W\nsorting\n",
		"cacm/queries.qry":      ".I 1\n.W\ngraphs please\n.I 2\n.W\nsorting please\n",
		"cacm/qrels.txt":        "1 0 1 1\n2 0 2 2\n\n2 0 1 0\n",
		"cacm/qrels3.txt":       "1 1 1\n",
		"noext/collection.data": "\n.I 5\n.W\nsmart without extension\n",
	})
	for _, tc := range []struct {
		path    string
		o       UserOptions
		want    []docSummary
		classes []string
	}{
		{"news", UserOptions{}, []docSummary{{"loose.txt", "no class", "", ""}, {"rec.autos/10", "engines", "rec.autos", ""},
			{"sci.space/1", "rockets and orbits", "sci.space", ""}, {"sci.space/2", "the moon", "sci.space", ""}}, []string{"rec.autos", "sci.space"}},
		{"docs.csv", UserOptions{}, []docSummary{{"d1", "hello, world", "a", "train"}, {"d2", "two\nlines", "b", "test"}}, []string{"a", "b"}},
		{"docs.csv", UserOptions{IDCol: "label", LabelCol: "split"}, []docSummary{{"a", "hello, world", "train", "train"}, {"b", "two\nlines", "test", "test"}}, []string{"test", "train"}},
		{"plain.csv", UserOptions{}, []docSummary{{"1", "first", "", ""}, {"2", "second", "", ""}}, nil},
		{"docs.tsv", UserOptions{}, []docSummary{{"1", "alpha beta", "x", ""}, {"2", "gamma", "y", ""}}, []string{"x", "y"}},
		{"docs.jsonl", UserOptions{}, []docSummary{{"a", "one", "p", ""}, {"7", "two", "3", ""}, {"4", "three", "", ""}}, []string{"3", "p"}},
		{"cacm/docs.all", UserOptions{}, []docSummary{{"1", "Graph theory\nabout graphs", "", ""}, {"2", "sorting", "", ""}}, nil},
		{"noext/collection.data", UserOptions{}, []docSummary{{"5", "smart without extension", "", ""}}, nil},
	} {
		c, err := ReadUser(filepath.Join(dir, tc.path), tc.o)
		if err != nil {
			t.Errorf("%s %+v: %v", tc.path, tc.o, err)
			continue
		}
		if got := summarize(c); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %+v:\n got %q\nwant %q", tc.path, tc.o, got, tc.want)
		}
		if !reflect.DeepEqual(c.Classes, tc.classes) || c.Name != filepath.Base(tc.path) {
			t.Errorf("%s: classes %q name %q, want %q", tc.path, c.Classes, c.Name, tc.classes)
		}
	}

	// SMART with queries and TREC qrels; the three-column layout too.
	c, err := ReadUser(filepath.Join(dir, "cacm/docs.all"), UserOptions{Queries: filepath.Join(dir, "cacm/queries.qry"), Qrels: filepath.Join(dir, "cacm/qrels.txt")})
	if err != nil {
		t.Fatal(err)
	}
	wantQ := []Query{{ID: "1", Text: "graphs please"}, {ID: "2", Text: "sorting please"}}
	wantJ := []Judgment{{"1", "1", 1}, {"2", "2", 2}, {"2", "1", 0}}
	if !reflect.DeepEqual(c.Queries, wantQ) || !reflect.DeepEqual(c.Qrels, wantJ) || c.Gains[2] != 2 || c.Gains[0] != 0 {
		t.Errorf("SMART queries %+v qrels %+v gains %v", c.Queries, c.Qrels, c.Gains)
	}
	if j, err := ReadQrels(filepath.Join(dir, "cacm/qrels3.txt")); err != nil || !reflect.DeepEqual(j, []Judgment{{"1", "1", 1}}) {
		t.Errorf("3-column qrels: %+v, %v", j, err)
	}
}

// TestReadUserErrors: every bad input gives one line of at most ~200
// characters naming the file, the line or record, and the problem.
func TestReadUserErrors(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 3000)
	writeFiles(t, dir, map[string]string{
		"nocol.csv":     "id,body\n1,hello\n",
		"fields.csv":    "id,text\n1,hello\n2,too,many\n",
		"quote.csv":     "id,text\n1,\"unclosed\n",
		"dup.csv":       "id,text\n1,a\n1,b\n",
		"emptyid.csv":   "id,text\n,a\n",
		"header.csv":    "",
		"nolabel.csv":   "id,text\n1,a\n",
		"bad.jsonl":     "{\"id\": 1, \"text\": \"ok\"}\n{\"id\": 2, \"text\": \"" + long + "\"\n",
		"notext.jsonl":  "{\"id\": 1, \"body\": \"" + long + "\"}\n",
		"type.jsonl":    "{\"id\": 1, \"text\": 5}\n",
		"label.jsonl":   "{\"id\": 1, \"text\": \"a\", \"label\": [1, 2]}\n",
		"dup.jsonl":     "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"a\", \"text\": \"y\"}\n",
		"empty.jsonl":   "\n\n",
		"s/docs":        ".I 1\n.W\nfine\n.I 1\n.W\nagain\n",
		"s/long":        ".I 1\n" + long + "\n",
		"s/ok":          ".I 1\n.W\nfine\n",
		"s/q":           ".I 1\n.W\nquery\n",
		"s/qrels":       "1 0 9 1\n",
		"s/qrelsq":      "7 0 1 1\n",
		"s/qrelsbad":    "1 0 1 high\n",
		"s/qrelsfields": "1 1\n",
		"emptydir/.x":   "hidden only",
		"what.bin":      "binary?",
	})
	for _, tc := range []struct {
		path string
		o    UserOptions
		has  []string
	}{
		{"nocol.csv", UserOptions{}, []string{"nocol.csv", "line 1", `no column "text"`, "id, body"}},
		{"fields.csv", UserOptions{}, []string{"fields.csv", "line 3", "3 fields, want 2"}},
		{"quote.csv", UserOptions{}, []string{"quote.csv", "line 2"}},
		{"dup.csv", UserOptions{}, []string{"dup.csv", "line 3", `duplicate id "1"`, "line 2"}},
		{"emptyid.csv", UserOptions{}, []string{"emptyid.csv", "line 2", "empty id"}},
		{"header.csv", UserOptions{}, []string{"header.csv", "header"}},
		{"nolabel.csv", UserOptions{LabelCol: "class"}, []string{"nolabel.csv", `no column "class"`}},
		{"bad.jsonl", UserOptions{}, []string{"bad.jsonl", "line 2", "JSON"}},
		{"notext.jsonl", UserOptions{}, []string{"notext.jsonl", "line 1", `no "text" field`}},
		{"type.jsonl", UserOptions{}, []string{"type.jsonl", "line 1", `"text"`, "number"}},
		{"label.jsonl", UserOptions{}, []string{"label.jsonl", "line 1", `"label"`}},
		{"dup.jsonl", UserOptions{}, []string{"dup.jsonl", "line 2", "duplicate id"}},
		{"empty.jsonl", UserOptions{}, []string{"empty.jsonl", "no records"}},
		{"s/docs", UserOptions{Format: FormatSMART}, []string{"docs", "line 4", "duplicate record"}},
		{"s/long", UserOptions{Format: FormatSMART}, []string{"long", "line 2"}},
		{"s/ok", UserOptions{Qrels: filepath.Join(dir, "s/qrels")}, []string{"qrels", "judgment 1", `document "9"`}},
		{"s/ok", UserOptions{Queries: filepath.Join(dir, "s/q"), Qrels: filepath.Join(dir, "s/qrelsq")}, []string{"qrelsq", "judgment 1", `query "7"`}},
		{"s/ok", UserOptions{Qrels: filepath.Join(dir, "s/qrelsbad")}, []string{"qrelsbad", "line 1", "not an integer"}},
		{"s/ok", UserOptions{Qrels: filepath.Join(dir, "s/qrelsfields")}, []string{"qrelsfields", "line 1", "2 fields"}},
		{"nocol.csv", UserOptions{Qrels: "x"}, []string{"SMART"}},
		{"emptydir", UserOptions{}, []string{"emptydir", "no text files"}},
		{"what.bin", UserOptions{}, []string{"what.bin", "cannot tell the format"}},
		{"what.bin", UserOptions{Format: "xml"}, []string{`unknown format "xml"`}},
		{"absent.csv", UserOptions{}, []string{"absent.csv"}},
	} {
		c, err := ReadUser(filepath.Join(dir, tc.path), tc.o)
		if err == nil {
			t.Errorf("%s %+v: no error, %d docs", tc.path, tc.o, len(c.Docs))
			continue
		}
		msg := err.Error()
		// The limit leaves room for the temporary directory's path.
		if strings.Contains(msg, "\n") || utf8.RuneCountInString(msg)-len(dir) > 200 {
			t.Errorf("%s: message of %d characters (or several lines): %s", tc.path, len(msg), msg)
		}
		for _, h := range tc.has {
			if !strings.Contains(msg, h) {
				t.Errorf("%s: %q lacks %q", tc.path, msg, h)
			}
		}
	}
}

func TestElide(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 5, ""}, {"abc", 5, "abc"}, {"abcdefghij", 5, "ab…ij"}, {"αβγδεζ", 4, "α…εζ"},
	} {
		if got := Elide(tc.s, tc.n); got != tc.want {
			t.Errorf("Elide(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestUserSHA256 changes with a file's content and with a renamed file.
func TestUserSHA256(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/1": "x", "a/2": "y"})
	s1, err := UserSHA256(dir)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"a/2": "z"})
	s2, _ := UserSHA256(dir)
	if err := os.Rename(filepath.Join(dir, "a/2"), filepath.Join(dir, "a/3")); err != nil {
		t.Fatal(err)
	}
	s3, _ := UserSHA256(dir)
	if s1 == s2 || s2 == s3 || len(s1) != 64 {
		t.Errorf("digests %s %s %s", s1, s2, s3)
	}
}

// TestReadUserTSV: a TSV record is one line split at tabs, and a quote is
// an ordinary character, opening nothing: a field starting with a quote,
// or holding one never closed, does not swallow the records after it.
func TestReadUserTSV(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"q.tsv":      "id\ttext\n1\t\"The Matrix\" is a film\n2\tsecond doc\r\n\n3\t\"unclosed quote\n4\tsay \"\"twice\"\"\n",
		"fields.tsv": "id\ttext\n1\tone\n2\ttwo\textra\n",
	})
	c, err := ReadUser(filepath.Join(dir, "q.tsv"), UserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []docSummary{{"1", `"The Matrix" is a film`, "", ""}, {"2", "second doc", "", ""}, {"3", `"unclosed quote`, "", ""}, {"4", `say ""twice""`, "", ""}}
	if got := summarize(c); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	_, err = ReadUser(filepath.Join(dir, "fields.tsv"), UserOptions{})
	if err == nil || !strings.Contains(err.Error(), "fields.tsv: line 3: 3 fields, want 2") {
		t.Errorf("extra tab: %v", err)
	}
}

// TestReadUserCSVQuoteLine: a quote left open is found only at the end of
// the file; the error names the line its record starts on.
func TestReadUserCSVQuoteLine(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,text\n1,a\n2,b\n3,\"Casablanca is good\n")
	for i := 4; i <= 50; i++ {
		fmt.Fprintf(&b, "%d,doc %d\n", i, i)
	}
	writeFiles(t, dir, map[string]string{"unq.csv": b.String(), "mid.csv": "id,text\n1,a\"b\n"})
	_, err := ReadUser(filepath.Join(dir, "unq.csv"), UserOptions{})
	if err == nil || !strings.Contains(err.Error(), "unq.csv: line 4: ") || !strings.Contains(err.Error(), "line 51") {
		t.Errorf("open quote: %v", err)
	}
	_, err = ReadUser(filepath.Join(dir, "mid.csv"), UserOptions{})
	if err == nil || !strings.Contains(err.Error(), "mid.csv: line 2, column 4: ") {
		t.Errorf("bare quote: %v", err)
	}
}

// TestReadUserControlIDs: an id holding a newline, tab or other control
// character would break a run's doc_ids.txt (one id a line); it is refused
// where it is read, quoted. A space is fine.
func TestReadUserControlIDs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"nl.jsonl":       "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"doc\\n5\", \"text\": \"y\"}\n",
		"c1.jsonl":       "{\"id\": \"doc\\u0085x\", \"text\": \"y\"}\n",
		"tab.csv":        "id,text\n\"a\tb\",x\n",
		"cr.csv":         "id,text\nok,x\n\"a\rb\",y\n",
		"files/a\tb.txt": "x",
		"space.jsonl":    "{\"id\": \"my doc 1\", \"text\": \"x\"}\n",
	})
	for _, tc := range []struct{ path, has string }{
		{"nl.jsonl", `nl.jsonl: line 2: id "doc\n5" holds a control character`},
		{"c1.jsonl", `c1.jsonl: line 1: id "doc\u0085x"`},
		{"tab.csv", `tab.csv: line 2: id "a\tb"`},
		{"cr.csv", `cr.csv: line 3: id "a\rb"`},
		{"files", `files: id "a\tb.txt"`},
	} {
		_, err := ReadUser(filepath.Join(dir, tc.path), UserOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.has) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line holding %s", tc.path, err, tc.has)
		}
	}
	if c, err := ReadUser(filepath.Join(dir, "space.jsonl"), UserOptions{}); err != nil || c.Docs[0].ID != "my doc 1" {
		t.Errorf("id with spaces: %v", err)
	}
}

// TestReadUserDirFile: the dir format given a regular file is an error
// naming it, not one document with id ".".
func TestReadUserDirFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"one.txt": "text"})
	p := filepath.Join(dir, "one.txt")
	_, err := ReadUser(p, UserOptions{Format: FormatDir})
	if err == nil || !strings.Contains(err.Error(), p+": not a directory") {
		t.Errorf("got %v", err)
	}
}

// TestReadUserSymlinks: the folder reader reads a symbolic link to a
// regular file as the file, does not follow a link to a directory and
// names it (and a dangling link) in the warnings; a root that is a link
// to a directory is read, and hashes as the directory itself does.
func TestReadUserSymlinks(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"elsewhere/x.txt": "linked file", "tree/a/1.txt": "one", "other/2.txt": "two"})
	for link, target := range map[string]string{
		"tree/a/x.txt": filepath.Join(dir, "elsewhere/x.txt"),
		"tree/b":       filepath.Join(dir, "other"),
		"tree/gone":    filepath.Join(dir, "absent"),
		"treelink":     filepath.Join(dir, "tree"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	for _, root := range []string{"tree", "treelink"} {
		c, err := ReadUser(filepath.Join(dir, root), UserOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := []docSummary{{"a/1.txt", "one", "a", ""}, {"a/x.txt", "linked file", "a", ""}}
		if got := summarize(c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q, want %q", root, got, want)
		}
		r := filepath.Join(dir, root)
		wantWarn := []string{r + `: "b" not read: a symbolic link to a directory, not followed`,
			r + `: "gone" not read: a symbolic link whose target cannot be read`}
		if !reflect.DeepEqual(c.Warnings, wantWarn) {
			t.Errorf("%s: warnings %q, want %q", root, c.Warnings, wantWarn)
		}
	}
	h1, err1 := UserSHA256(filepath.Join(dir, "tree"))
	h2, err2 := UserSHA256(filepath.Join(dir, "treelink"))
	if err1 != nil || err2 != nil || h1 != h2 {
		t.Errorf("digests %s %v, %s %v", h1, err1, h2, err2)
	}
}

// TestReadUserLatin1: text that is not valid UTF-8 is decoded as Latin-1
// in every user format, as the registered readers do, with a warning
// naming the file and the first file, record or line decoded.
func TestReadUserLatin1(t *testing.T) {
	dir := t.TempDir()
	const l1 = "r\xe9sum\xe9 caf\xe9" // "résumé café" in Latin-1
	const want = "résumé café"
	writeFiles(t, dir, map[string]string{
		"lat/a.txt":  "plain",
		"lat/b.txt":  l1,
		"lat/c.txt":  "na\xefve " + l1,
		"lat.csv":    "id,text\n1,plain\n2," + l1 + "\n",
		"lat.tsv":    "id\ttext\n1\t" + l1 + "\n2\tclich\xe9\n",
		"lat.jsonl":  "{\"id\": \"a\", \"text\": \"ok\"}\n{\"id\": \"b\", \"text\": \"" + l1 + "\"}\n",
		"lat.smart":  ".I 1\n.W\n" + l1 + "\n",
		"utf8.jsonl": "{\"id\": \"a\", \"text\": \"" + want + "\"}\n",
	})
	for _, tc := range []struct {
		path, id, warn string
	}{
		{"lat", "b.txt", `lat: 2 files were not valid UTF-8 and were decoded as Latin-1 (the first: "b.txt")`},
		{"lat.csv", "2", "lat.csv: 1 record was not valid UTF-8 and was decoded as Latin-1 (line 3)"},
		{"lat.tsv", "1", "lat.tsv: 2 records were not valid UTF-8 and were decoded as Latin-1 (the first: line 2)"},
		{"lat.jsonl", "b", "lat.jsonl: 1 line was not valid UTF-8 and was decoded as Latin-1 (line 2)"},
		{"lat.smart", "1", "lat.smart: 1 line was not valid UTF-8 and was decoded as Latin-1 (line 3)"},
	} {
		c, err := ReadUser(filepath.Join(dir, tc.path), UserOptions{})
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		var text string
		for _, d := range c.Docs {
			if d.ID == tc.id {
				text = d.Text
			}
		}
		if text != want {
			t.Errorf("%s: document %s text %q, want %q", tc.path, tc.id, text, want)
		}
		if len(c.Warnings) != 1 || !strings.HasSuffix(c.Warnings[0], tc.warn) || !strings.HasPrefix(c.Warnings[0], dir) {
			t.Errorf("%s: warnings %q, want one ending %q", tc.path, c.Warnings, tc.warn)
		}
	}
	if c, err := ReadUser(filepath.Join(dir, "utf8.jsonl"), UserOptions{}); err != nil || c.Docs[0].Text != want || len(c.Warnings) != 0 {
		t.Errorf("UTF-8 JSONL: %v, warnings %q", err, c.Warnings)
	}
	// A file or folder name that is not UTF-8 gives an id and a class
	// decoded the same way.
	writeFiles(t, dir, map[string]string{"names/caf\xe9/r\xe9sum\xe9.txt": "plain text"})
	c, err := ReadUser(filepath.Join(dir, "names"), UserOptions{})
	if err != nil || len(c.Docs) != 1 || c.Docs[0].ID != "café/résumé.txt" || c.Docs[0].Class != "café" ||
		len(c.Warnings) != 1 || !strings.HasSuffix(c.Warnings[0], `names: 1 file name was not valid UTF-8 and was decoded as Latin-1 ("café/résumé.txt")`) {
		t.Errorf("Latin-1 file names: %v, %+v", err, c)
	}
}

// TestReadUserBOM: a UTF-8 byte order mark at the start of a file is
// skipped in every user format: it is not part of the first id, column
// name or record marker.
func TestReadUserBOM(t *testing.T) {
	dir := t.TempDir()
	const bom = "\ufeff"
	writeFiles(t, dir, map[string]string{
		"b.csv":   bom + "id,text\n1,one\n",
		"b.tsv":   bom + "id\ttext\n1\tone\n",
		"b.jsonl": bom + "{\"id\": \"1\", \"text\": \"one\"}\n",
		"b.all":   bom + ".I 1\n.W\none\n",
		"b.qry":   bom + ".I 1\n.W\nquery\n",
		"b.qrels": bom + "1 0 1 1\n",
	})
	for _, p := range []string{"b.csv", "b.tsv", "b.jsonl", "b.all"} {
		o := UserOptions{}
		if p == "b.all" {
			o = UserOptions{Queries: filepath.Join(dir, "b.qry"), Qrels: filepath.Join(dir, "b.qrels")}
		}
		c, err := ReadUser(filepath.Join(dir, p), o)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if got := summarize(c); !reflect.DeepEqual(got, []docSummary{{"1", "one", "", ""}}) {
			t.Errorf("%s: %q", p, got)
		}
		if p == "b.all" && (len(c.Queries) != 1 || c.Queries[0].Text != "query" || !reflect.DeepEqual(c.Qrels, []Judgment{{"1", "1", 1}})) {
			t.Errorf("%s: queries %+v qrels %+v", p, c.Queries, c.Qrels)
		}
	}
}

// TestReadUserJSONLNotObject: a line that is JSON but not an object is
// described in the user's terms, not by a Go type name.
func TestReadUserJSONLNotObject(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"arr.jsonl": "[1, 2]\n", "str.jsonl": "{\"text\": \"a\"}\n\"text\"\n"})
	for _, tc := range []struct{ path, has string }{
		{"arr.jsonl", "arr.jsonl: line 1: the line is a JSON array, want an object"},
		{"str.jsonl", "str.jsonl: line 2: the line is a JSON string, want an object"},
	} {
		_, err := ReadUser(filepath.Join(dir, tc.path), UserOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.has) || strings.Contains(err.Error(), "datasets.") {
			t.Errorf("%s: %v, want %q", tc.path, err, tc.has)
		}
	}
}

// checkUserCollection asserts what every user-format reader promises of a
// collection read without error: at least one document; ids non-empty,
// unique, valid UTF-8 and free of control characters (a run's
// doc_ids.txt holds one a line); text, class and split valid UTF-8 (a
// record that is not is decoded as Latin-1); warnings one line each.
func checkUserCollection(t *testing.T, c *Collection) {
	t.Helper()
	if len(c.Docs) == 0 {
		t.Fatal("no documents and no error")
	}
	seen := map[string]bool{}
	for i, d := range c.Docs {
		if d.ID == "" || seen[d.ID] || strings.ContainsFunc(d.ID, unicode.IsControl) {
			t.Fatalf("document %d: id %q empty, repeated or holding a control character", i, d.ID)
		}
		seen[d.ID] = true
		checkText(t, "id", d.ID)
		checkText(t, "text", d.Text)
		checkText(t, "class", d.Class)
		checkText(t, "split", d.Split)
	}
	for _, w := range c.Warnings {
		if strings.Contains(w, "\n") {
			t.Fatalf("warning spans several lines: %q", w)
		}
	}
}

// checkUserErr asserts what a user-format reader's error must be: one
// line naming the file, and a position unless it is about the whole file.
func checkUserErr(t *testing.T, err error, path string) {
	t.Helper()
	switch msg := err.Error(); {
	case strings.HasPrefix(msg, path+": empty file,"), msg == path+": a header and no records", msg == path+": no records":
		fuzzcheck.OneLine(t, err)
	default:
		checkErr(t, err, path)
	}
}

// nonBlankLines counts the lines of in that hold more than blanks (as
// trim decides), past a leading byte order mark.
func nonBlankLines(in []byte, trim func([]byte) []byte) int {
	n := 0
	for _, l := range bytes.Split(bytes.TrimPrefix(in, []byte("\ufeff")), []byte("\n")) {
		if len(trim(l)) > 0 {
			n++
		}
	}
	return n
}
