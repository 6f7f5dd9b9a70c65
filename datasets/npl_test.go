package datasets

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

var nplFiles = []string{
	"npl/terrier_trec/doc-text.trec.gz", "npl/terrier_trec/query-text.trec", "npl/terrier_trec/qrels",
	"npl/glasgow_raw/doc-text.gz", "npl/glasgow_raw/query-text", "npl/glasgow_raw/rlv-ass",
}

// TestNPLBothCopies checks npl/SOURCE.md: both staged copies give 11,429
// documents, 93 queries and 2,083 binary judgments covering all 93
// queries, and agree exactly (documents and queries by id and text,
// judgments compared as sets).
func TestNPLBothCopies(t *testing.T) {
	trec := readReal(t, ReadNPL, nplFiles...)
	raw := readReal(t, ReadNPLGlasgow, nplFiles...)
	for _, c := range []*Collection{trec, raw} {
		if len(c.Docs) != 11429 || len(c.Queries) != 93 || len(c.Qrels) != 2083 {
			t.Errorf("%s: %d docs, %d queries, %d judgments; want 11429, 93, 2083", c.Name, len(c.Docs), len(c.Queries), len(c.Qrels))
		}
		if n := irJudgedQueries(c); n != 93 {
			t.Errorf("%s: %d judged queries, want 93", c.Name, n)
		}
		if lv := irLevels(c); !reflect.DeepEqual(lv, map[int]int{1: 2083}) {
			t.Errorf("%s: levels %v", c.Name, lv)
		}
		if len(c.Warnings) != 0 {
			t.Errorf("%s: warnings %q", c.Name, c.Warnings)
		}
		d := c.Docs[0]
		if d.ID != "1" || d.Text != "compact memories have flexible capacities  a digital data storage\n"+
			"system with capacity up to bits and random and or sequential access\nis described" {
			t.Errorf("%s: document 1 %+v", c.Name, d)
		}
		d = c.Docs[11428]
		if d.ID != "11429" || !strings.HasPrefix(d.Text, "pattern detection and recognition  both processes") ||
			!strings.HasSuffix(d.Text, "reading handlettered sansserif alphanumeric characters") {
			t.Errorf("%s: document 11429 %+v", c.Name, d)
		}
		if q := c.Queries[0]; q.ID != "1" || q.Text != "MEASUREMENT OF DIELECTRIC CONSTANT OF LIQUIDS BY THE USE OF MICROWAVE TECHNIQUES" {
			t.Errorf("%s: query 1 %+v", c.Name, q)
		}
		if q := c.Queries[92]; q.ID != "93" || q.Text != "HIGH FREQUENCY OSCILLATORS USING TRANSISTORS THEORETICAL TREATMENT AND PRACTICAL CIRCUIT DETAILS" {
			t.Errorf("%s: query 93 %+v", c.Name, q)
		}
		if j := c.Qrels[0]; j != (Judgment{"1", "1239", 1}) {
			t.Errorf("%s: first judgment %+v", c.Name, j)
		}
	}
	if !reflect.DeepEqual(trec.Docs, raw.Docs) {
		t.Error("the two copies give different documents")
	}
	if !reflect.DeepEqual(trec.Queries, raw.Queries) {
		t.Error("the two copies give different queries")
	}
	set := func(c *Collection) map[Judgment]bool {
		m := map[Judgment]bool{}
		for _, j := range c.Qrels {
			m[j] = true
		}
		return m
	}
	if a, b := set(trec), set(raw); len(a) != 2083 || !reflect.DeepEqual(a, b) {
		t.Errorf("judgment sets differ (%d and %d distinct pairs)", len(a), len(b))
	}
}

// TestNPLTruncated cuts the compressed document files and expects errors
// naming them; a Glasgow file cut before its last terminator is also
// reported.
func TestNPLTruncated(t *testing.T) {
	dir := realdata.Dir(t, nplFiles...)
	for _, tc := range []struct {
		rel  string
		keep int
		read func(string) (*Collection, error)
		want string
	}{
		{"npl/terrier_trec/doc-text.trec.gz", 500000, ReadNPL, "unexpected EOF"},
		{"npl/terrier_trec/doc-text.trec.gz", -4, ReadNPL, "unexpected EOF"},
		{"npl/glasgow_raw/doc-text.gz", 300000, ReadNPLGlasgow, "unexpected EOF"},
		{"npl/glasgow_raw/rlv-ass", -3, ReadNPLGlasgow, "no terminator"},
		{"npl/terrier_trec/query-text.trec", -9, ReadNPL, "not closed by </top>"},
	} {
		tmp, path := irTruncatedCopy(t, dir, tc.rel, tc.keep)
		// The other files of the copy, whole.
		for _, f := range nplFiles {
			if f != tc.rel {
				irCopyFile(t, dir, tmp, f)
			}
		}
		_, err := tc.read(tmp)
		wantErr(t, err, path, tc.want)
	}
}

// TestNPLFixtures reads tiny files in both layouts, including the sizes 0
// and 1, and checks malformed records give errors with file and line.
func TestNPLFixtures(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "npl/terrier_trec/doc-text.trec.gz", gzipText(t, "<DOC>\n<DOCNO>7</DOCNO>\nline one  \nline two\n</DOC>\n\n"))
	writeFile(t, dir, "npl/terrier_trec/query-text.trec", []byte("<top>\n<num>3</num><title>\nQUERY\n</title>\n</top>\n"))
	writeFile(t, dir, "npl/terrier_trec/qrels", []byte("3 0 7 1\n"))
	writeFile(t, dir, "npl/glasgow_raw/doc-text.gz", gzipText(t, "7\nline one\nline two\n   /\n"))
	writeFile(t, dir, "npl/glasgow_raw/query-text", []byte("3\nQUERY\n/\n"))
	writeFile(t, dir, "npl/glasgow_raw/rlv-ass", []byte("3\n   7\n/\n"))
	for _, read := range []func(string) (*Collection, error){ReadNPL, ReadNPLGlasgow} {
		c, err := read(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c.Docs, []Document{{ID: "7", Text: "line one\nline two"}}) ||
			!reflect.DeepEqual(c.Queries, []Query{{ID: "3", Text: "QUERY"}}) ||
			!reflect.DeepEqual(c.Qrels, []Judgment{{"3", "7", 1}}) {
			t.Errorf("%s: %+v %+v %+v", c.Name, c.Docs, c.Queries, c.Qrels)
		}
	}
	// Empty files give an empty collection.
	recs, _, err := nplParseRecords(strings.NewReader(""))
	if err != nil || len(recs) != 0 {
		t.Errorf("empty Glasgow file: %v %v", recs, err)
	}
	docs, _, err := nplParseTRECDocs(strings.NewReader(""))
	if err != nil || len(docs) != 0 {
		t.Errorf("empty TREC file: %v %v", docs, err)
	}

	cases := []struct {
		name, rel, content string
		read               func(string) (*Collection, error)
		want               []string
	}{
		{"qrels 2 fields", "npl/terrier_trec/qrels", "3 0 7 1\n3 7\n", ReadNPL, []string{"line 2", `expected 4 fields "<query> <iteration> <doc> <level>"`}},
		{"qrels non-numeric query", "npl/terrier_trec/qrels", "q3 0 7 1\n", ReadNPL, []string{"line 1", "integer query id", `"q3"`}},
		{"bad DOCNO", "npl/terrier_trec/doc-text.trec.gz", "<DOC>\n<DOCNO>x</DOCNO>\n</DOC>\n", ReadNPL, []string{"line 2", "expected <DOCNO>integer</DOCNO>"}},
		{"missing <DOC>", "npl/terrier_trec/doc-text.trec.gz", "text\n", ReadNPL, []string{"line 1", "expected <DOC>"}},
		{"bad topic", "npl/terrier_trec/query-text.trec", "<top>\n<num>3</num>\n", ReadNPL, []string{"line 2", "expected <num>integer</num><title>"}},
		{"glasgow bad id", "npl/glasgow_raw/query-text", "3\nQ\n/\nthree\nQ\n/\n", ReadNPLGlasgow, []string{"line 4", "expected a record id"}},
		{"glasgow duplicate id", "npl/glasgow_raw/doc-text.gz", "7\na\n/\n7\nb\n/\n", ReadNPLGlasgow, []string{"line 4", "duplicate record id 7"}},
		{"glasgow bad doc id", "npl/glasgow_raw/rlv-ass", "3\n 7 x8\n/\n", ReadNPLGlasgow, []string{"line 2", "integer document ids", `"x8"`}},
		{"glasgow unknown doc", "npl/glasgow_raw/rlv-ass", "3\n 8\n/\n", ReadNPLGlasgow, []string{"document 8", "not in the document file"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := t.TempDir()
			for _, f := range nplFiles {
				irCopyFile(t, dir, d, f)
			}
			content := []byte(tc.content)
			if strings.HasSuffix(tc.rel, ".gz") {
				content = gzipText(t, tc.content)
			}
			path := writeFile(t, d, tc.rel, content)
			_, err := tc.read(d)
			wantErr(t, err, append([]string{path}, tc.want...)...)
		})
	}
}

// TestIRLatin1Lines: a line of a SMART or NPL file that is not valid UTF-8
// is decoded as Latin-1 and counted, so no invalid sequence reaches the
// tokenizer (found by FuzzNPL: "0\n\xe2\n/" gave the text "\xe2").
func TestIRLatin1Lines(t *testing.T) {
	recs, n, err := nplParseRecords(strings.NewReader("0\n\xe2\n/"))
	if err != nil || n != 1 || len(recs) != 1 || irJoinLines(recs[0].lines) != "â" {
		t.Errorf("Glasgow record: %+v, %d, %v", recs, n, err)
	}
	docs, n, err := nplParseTRECDocs(strings.NewReader("<DOC>\n<DOCNO>1</DOCNO>\ncaf\xe9\n</DOC>\n"))
	if err != nil || n != 1 || len(docs) != 1 || docs[0].Text != "café" {
		t.Errorf("TREC document: %+v, %d, %v", docs, n, err)
	}
	qs, n, err := nplParseTRECTopics(strings.NewReader("<top>\n<num>1</num><title>\n\xfcber\n</title>\n</top>\n"))
	if err != nil || n != 1 || len(qs) != 1 || qs[0].Text != "über" {
		t.Errorf("TREC topic: %+v, %d, %v", qs, n, err)
	}
	srecs, l1, err := parseSMART(strings.NewReader(".I 1\n.T\nna\xefve\n.W\nplain\n"))
	if title, _, _ := smartText(srecs[0], "f"); err != nil || l1.n != 1 || l1.first != "line 3" || title != "naïve" {
		t.Errorf("SMART: %q, %+v, %v", title, l1, err)
	}
	if w := latin1Warnings(map[string]int{"b": 2, "a": 0, "c": 1}); !slices.Equal(w, []string{
		"b: 2 lines were not valid UTF-8 and were decoded as Latin-1",
		"c: 1 line was not valid UTF-8 and was decoded as Latin-1"}) {
		t.Errorf("warnings %q", w)
	}
}
