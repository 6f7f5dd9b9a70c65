package datasets

import (
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/topicmf/topicmf/internal/realdata"
)

// TestTRECQC checks trec_qc_nltk/SOURCE.md: 5,452 train and 500 test
// questions, 6 coarse classes, 50 fine labels in train and 42 in test;
// the coarse counts of train+test (ABBR 95, DESC 1300, ENTY 1344, HUM
// 1288, LOC 916, NUM 1009, counted with awk over the two files); the
// Latin-1 byte of train line 66; first and last lines of each file.
func TestTRECQC(t *testing.T) {
	c := readReal(t, ReadTRECQC, "trec_qc_nltk/qc.zip")
	if len(c.Docs) != 5952 || len(c.Queries) != 0 || len(c.Qrels) != 0 {
		t.Fatalf("%d docs, %d queries, %d judgments; want 5952, 0, 0", len(c.Docs), len(c.Queries), len(c.Qrels))
	}
	split := map[string]int{}
	fine := map[string]map[string]bool{"train": {}, "test": {}}
	coarse := map[string]int{}
	for _, d := range c.Docs {
		split[d.Split]++
		fine[d.Split][d.Class] = true
		if len(d.Categories) != 2 || d.Categories[1] != d.Class || !strings.HasPrefix(d.Class, d.Categories[0]+":") {
			t.Fatalf("%s: class %q categories %q", d.ID, d.Class, d.Categories)
		}
		coarse[d.Categories[0]]++
		if !utf8.ValidString(d.Text) {
			t.Fatalf("%s: invalid UTF-8 %q", d.ID, d.Text)
		}
	}
	if split["train"] != 5452 || split["test"] != 500 {
		t.Errorf("splits %v, want train 5452, test 500", split)
	}
	if len(fine["train"]) != 50 || len(fine["test"]) != 42 || len(c.Classes) != 50 || !sort.StringsAreSorted(c.Classes) {
		t.Errorf("%d fine labels in train, %d in test, %d classes; want 50, 42, 50 sorted", len(fine["train"]), len(fine["test"]), len(c.Classes))
	}
	if want := map[string]int{"ABBR": 95, "DESC": 1300, "ENTY": 1344, "HUM": 1288, "LOC": 916, "NUM": 1009}; !reflect.DeepEqual(coarse, want) {
		t.Errorf("coarse counts %v, want %v", coarse, want)
	}
	check := func(i int, id, class, text string) {
		t.Helper()
		d := c.Docs[i]
		if d.ID != id || d.Class != class || d.Text != text {
			t.Errorf("doc %d = %s %s %q; want %s %s %q", i, d.ID, d.Class, d.Text, id, class, text)
		}
	}
	check(0, "train-1", "DESC:manner", "How did serfdom develop in and then leave Russia ?")
	check(65, "train-66", "LOC:city", "Which city has the oldest relationship as a sister\u00f0city with Los Angeles ?")
	check(5451, "train-5452", "ENTY:currency", "What currency is used in Australia ?")
	check(5452, "test-1", "NUM:dist", "How far is it from Denver to Aspen ?")
	check(5951, "test-500", "DESC:def", "What is e-coli ?")
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "train.txt line 66") {
		t.Errorf("warnings %q, want one for train.txt line 66", c.Warnings)
	}
}

// TestTRECQCTruncated cuts copies of qc.zip.
func TestTRECQCTruncated(t *testing.T) {
	dir := realdata.Dir(t, "trec_qc_nltk/qc.zip")
	for _, keep := range []int{1000, -10} {
		tmp, path := irTruncatedCopy(t, dir, "trec_qc_nltk/qc.zip", keep)
		_, err := ReadTRECQC(tmp)
		wantErr(t, err, path, "zip")
	}
}

// TestTRECQCFixture checks the mapping and Latin-1 decoding on a tiny
// archive with an empty test file, and the errors for malformed lines and
// a missing member.
func TestTRECQCFixture(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "trec_qc_nltk/qc.zip", zipBytes(t,
		textMember{"qc/README", "x"},
		textMember{"qc/test.txt", ""},
		textMember{"qc/train.txt", "HUM:ind Who was caf\xe9 owner ?\r\n\nNUM:other What ?\n"}))
	c, err := ReadTRECQC(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Document{
		{ID: "train-1", Text: "Who was café owner ?", Class: "HUM:ind", Categories: []string{"HUM", "HUM:ind"}, Split: "train"},
		{ID: "train-2", Text: "What ?", Class: "NUM:other", Categories: []string{"NUM", "NUM:other"}, Split: "train"},
	}
	if !reflect.DeepEqual(c.Docs, want) || !reflect.DeepEqual(c.Classes, []string{"HUM:ind", "NUM:other"}) {
		t.Errorf("docs %+v classes %q", c.Docs, c.Classes)
	}
	for _, tc := range []struct {
		name, train string
		want        []string
	}{
		{"no colon", "HUM:ind Who ?\nDESC What ?\n", []string{"qc/train.txt", "line 2", `expected a label "COARSE:fine"`}},
		{"lower-case coarse", "hum:ind Who ?\n", []string{"line 1", `expected a label "COARSE:fine"`}},
		{"no question", "HUM:ind Who ?\nHUM:ind \n", []string{"line 2", "expected a question after the label"}},
	} {
		d := t.TempDir()
		path := writeFile(t, d, "trec_qc_nltk/qc.zip", zipBytes(t, textMember{"qc/train.txt", tc.train}, textMember{"qc/test.txt", ""}))
		_, err := ReadTRECQC(d)
		wantErr(t, err, append([]string{path}, tc.want...)...)
	}
	d := t.TempDir()
	path := writeFile(t, d, "trec_qc_nltk/qc.zip", zipBytes(t, textMember{"qc/train.txt", "HUM:ind Who ?\n"}))
	_, err = ReadTRECQC(d)
	wantErr(t, err, path, "no member qc/test.txt")
}

func TestIRLatin1(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		n       int
	}{{"", "", 0}, {"abc", "abc", 0}, {"\xe9", "é", 1}, {"a\xf0b\xff", "aðbÿ", 2}} {
		out, n := irLatin1ToUTF8(tc.in)
		if out != tc.out || n != tc.n {
			t.Errorf("irLatin1ToUTF8(%q) = %q, %d; want %q, %d", tc.in, out, n, tc.out, tc.n)
		}
	}
}
