package datasets

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// TestShortTextCounts reads every short-text source through the registry
// and checks the tables of short_text_sttm/SOURCE.md and
// short_text_stc2/SOURCE.md: documents, classes, smallest and largest
// class, and the first document.
func TestShortTextCounts(t *testing.T) {
	for _, c := range []struct {
		name             string
		docs, classes    int
		minSize, maxSize int
		firstText        string
		firstClass       string
	}{
		{"sttm-searchsnippets", 12295, 8, 369, 2653, "software reference bank transactions accounting software business", "1"},
		{"sttm-stackoverflow", 16407, 20, 656, 938, "fill dataset datatable linq query resultset", "18"},
		{"sttm-biomedical", 19448, 20, 918, 1000, "histochemical autoradiographic studies effects aging", "1"},
		{"sttm-tweet", 2472, 89, 1, 249, "brain fluid buildup delay giffords rehab", "37"},
		// The BOM opening SearchSnippets.txt is gone.
		{"stc2-searchsnippets", 12340, 8, 370, 2660, "turtlesoft goldenseal software reference banktran", "1"},
		{"stc2-stackoverflow", 20000, 20, 1000, 1000, "How do I fill a DataSet or a DataTable from a LINQ query resultset ?", "18"},
		{"stc2-biomedical", 20000, 20, 1000, 1000, "histochemical and autoradiographic studies on the effects of aging", "1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := Lookup(c.name)
			if err != nil {
				t.Fatal(err)
			}
			var rels []string
			for _, f := range src.Files {
				rels = append(rels, f.Path)
			}
			dir := realdata.Dir(t, rels...)
			col, err := src.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if col.Name != c.name || len(col.Docs) != c.docs || len(col.Classes) != c.classes {
				t.Errorf("%s: %d docs, %d classes; want %d, %d", col.Name, len(col.Docs), len(col.Classes), c.docs, c.classes)
			}
			size := map[string]int{}
			for i, d := range col.Docs {
				size[d.Class]++
				if d.ID != strconv.Itoa(i+1) || d.Split != "" || d.Text == "" {
					t.Fatalf("doc %d: ID %q split %q text %q", i, d.ID, d.Split, d.Text)
				}
			}
			lo, hi := len(col.Docs), 0
			for _, n := range size {
				lo, hi = min(lo, n), max(hi, n)
			}
			if lo != c.minSize || hi != c.maxSize {
				t.Errorf("class sizes %d..%d, want %d..%d", lo, hi, c.minSize, c.maxSize)
			}
			if d := col.Docs[0]; !strings.HasPrefix(d.Text, c.firstText) || d.Class != c.firstClass {
				t.Errorf("first doc %q class %q", d.Text, d.Class)
			}
			if len(col.Warnings) != 0 {
				t.Errorf("warnings %v", col.Warnings)
			}
			// Classes sorted by numeric value.
			for i := 1; i < len(col.Classes); i++ {
				a, _ := strconv.Atoi(col.Classes[i-1])
				b, _ := strconv.Atoi(col.Classes[i])
				if a >= b {
					t.Fatalf("classes not in numeric order: %v", col.Classes)
				}
			}
		})
	}
}

// writeTextGz writes content gzip-compressed to path.
func writeTextGz(t *testing.T, path, content string) []byte {
	t.Helper()
	return writeBytes(t, path, gzipText(t, content))
}

func TestShortTextSynthetic(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "X.txt.gz")
	labels := filepath.Join(dir, "X_gnd.txt")
	// BOM, CRLF, an empty line, a Latin-1 line, no final newline.
	writeTextGz(t, text, "\xef\xbb\xbfalpha beta\r\n\ncaf\xe9\nlast")
	if err := os.WriteFile(labels, []byte("\xef\xbb\xbf2\r\n10\n 2 \n1"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadShortText("x", text, labels)
	if err != nil {
		t.Fatal(err)
	}
	want := []Document{
		{ID: "1", Text: "alpha beta", Class: "2"},
		{ID: "2", Text: "", Class: "10"},
		{ID: "3", Text: "café", Class: "2"},
		{ID: "4", Text: "last", Class: "1"},
	}
	if len(c.Docs) != len(want) {
		t.Fatalf("%d docs: %+v", len(c.Docs), c.Docs)
	}
	for i := range want {
		d, w := c.Docs[i], want[i]
		if d.ID != w.ID || d.Text != w.Text || d.Class != w.Class || d.Split != "" || d.Title != "" {
			t.Errorf("doc %d = %+v, want %+v", i, d, w)
		}
	}
	if strings.Join(c.Classes, ",") != "1,2,10" {
		t.Errorf("Classes %v, want numeric order 1,2,10", c.Classes)
	}
	warn := strings.Join(c.Warnings, "\n")
	if !strings.Contains(warn, "1 lines of "+text+" were not valid UTF-8") || !strings.Contains(warn, "1 empty documents") {
		t.Errorf("warnings %q", warn)
	}

	// Sizes 0 and 1.
	empty := filepath.Join(dir, "E.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = ReadShortText("e", empty, empty)
	if err != nil || len(c.Docs) != 0 || len(c.Classes) != 0 {
		t.Errorf("empty files: %+v, %v", c, err)
	}
	one, oneL := filepath.Join(dir, "O.txt"), filepath.Join(dir, "O_label.txt")
	os.WriteFile(one, []byte("w\n"), 0o644)
	os.WriteFile(oneL, []byte("7\n"), 0o644)
	c, err = ReadShortText("o", one, oneL)
	if err != nil || len(c.Docs) != 1 || c.Docs[0].Class != "7" || c.Docs[0].Text != "w" {
		t.Errorf("one line: %+v, %v", c, err)
	}
}

func TestShortTextErrors(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "T.txt")
	os.WriteFile(text, []byte("a\nb\nc\n"), 0o644)

	// Missing files, each named.
	missing := filepath.Join(dir, "absent_label.txt")
	_, err := ReadShortText("x", text, missing)
	wantErr(t, err, "x:", missing)
	_, err = ReadShortText("x", filepath.Join(dir, "absent.txt.gz"), text)
	wantErr(t, err, filepath.Join(dir, "absent.txt.gz"))

	// Line-count mismatch names both files and both counts.
	short := filepath.Join(dir, "short_label.txt")
	os.WriteFile(short, []byte("1\n2\n"), 0o644)
	_, err = ReadShortText("x", text, short)
	wantErr(t, err, text, short, "3 lines", "2 lines")

	// A non-integer label names the file and line.
	bad := filepath.Join(dir, "bad_label.txt")
	os.WriteFile(bad, []byte("1\nsport\n3\n"), 0o644)
	_, err = ReadShortText("x", text, bad)
	wantErr(t, err, bad, "line 2", "integer class label", `"sport"`)
	blank := filepath.Join(dir, "blank_label.txt")
	os.WriteFile(blank, []byte("1\n2\n\n"), 0o644)
	_, err = ReadShortText("x", text, blank)
	wantErr(t, err, blank, "line 3", "integer")

	// A truncated gzip text file.
	big := filepath.Join(dir, "Big.txt.gz")
	var sb strings.Builder
	for i := 0; i < 5000; i++ {
		sb.WriteString("short text number " + strconv.Itoa(i*7919) + "\n")
	}
	b := writeTextGz(t, big, sb.String())
	cut := truncatedCopy(t, big, int64(len(b)/2))
	_, err = ReadShortText("x", cut, text)
	wantErr(t, err, cut, "truncated")

	// Not gzip despite the suffix.
	fake := filepath.Join(dir, "Fake.txt.gz")
	os.WriteFile(fake, []byte("plain\n"), 0o644)
	_, err = ReadShortText("x", fake, text)
	wantErr(t, err, fake, "gzip")
}
