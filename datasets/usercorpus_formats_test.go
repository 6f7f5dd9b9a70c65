package datasets

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// Tests of the user formats added for issue 25: TREC SGML documents and
// topics, headerless and multi-column CSV/TSV, JSONL keys, stop-word
// files, qrels layouts, label files.

const trecSample = `<DOC>
<DOCNO> AP880212-0001 </DOCNO>
<FILEID>AP-NR-02-12-88 2344EST</FILEID>
<HEAD>Reports Former Saigon Officials Released</HEAD>
<TEXT>
   More than 150 former officers &amp; officials <P>were freed</P>.
</TEXT>
</DOC>
<doc><docno>WSJ-2</docno><hl> Markets &lt;up&gt; </hl><LP>Stocks rose.</LP>
<TEXT>Bonds fell.</TEXT></doc>
<DOC>
<DOCNO>EMPTY-3</DOCNO>
<DATELINE>nowhere</DATELINE>
<TEXT>
</TEXT>
</DOC>
<DOC><DOCNO>BARE-4</DOCNO>
bare words <B>in bold</B>
</DOC>
`

func TestReadUserTREC(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ap.sgml": trecSample})
	c, err := ReadUser(filepath.Join(dir, "ap.sgml"), UserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []docSummary{
		{ID: "AP880212-0001", Text: "Reports Former Saigon Officials Released\nMore than 150 former officers & officials  were freed ."},
		{ID: "WSJ-2", Text: "Markets <up>\nStocks rose.\nBonds fell."},
		{ID: "EMPTY-3", Text: ""},
		{ID: "BARE-4", Text: "bare words  in bold"},
	}
	if got := summarize(c); !reflect.DeepEqual(got, want) {
		t.Errorf("documents:\n got %q\nwant %q", got, want)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "1 document without text") || !strings.Contains(c.Warnings[0], "EMPTY-3") {
		t.Errorf("warnings %q, want one naming EMPTY-3", c.Warnings)
	}
	// The same file gzip'ed, and a folder of files (any name), read alike.
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(trecSample))
	w.Close()
	writeFile(t, dir, "folder/a/ap.gz", gz.Bytes())
	writeFiles(t, dir, map[string]string{"folder/b/wsj": "<DOC><DOCNO>WSJ-9</DOCNO><TEXT>more</TEXT></DOC>\n"})
	g, err := ReadUser(filepath.Join(dir, "folder/a/ap.gz"), UserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(summarize(g), want) {
		t.Errorf("gzip'ed: %q", summarize(g))
	}
	f, err := ReadUser(filepath.Join(dir, "folder"), UserOptions{Format: FormatTREC})
	if err != nil {
		t.Fatal(err)
	}
	if got := summarize(f); len(got) != 5 || got[4].ID != "WSJ-9" || got[4].Text != "more" {
		t.Errorf("folder: %q", got)
	}
}

func TestReadUserTRECErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"nodocno", "<DOC>\n<TEXT>x</TEXT>\n</DOC>\n", "line 1: <DOC> without <DOCNO>"},
		{"open", "<DOC>\n<DOCNO>1</DOCNO>\n<TEXT>x</TEXT>\n", "line 1: <DOC> not closed by </DOC>"},
		{"nested", "<DOC><DOCNO>1</DOCNO>\n<DOC><DOCNO>2</DOCNO></DOC>\n", "line 1: <DOC> inside a <DOC>"},
		{"outside", "<DOC><DOCNO>1</DOCNO></DOC>\nstray words\n", "line 2: text outside a <DOC> element"},
		{"dup", "<DOC><DOCNO>1</DOCNO></DOC>\n<DOC><DOCNO> 1 </DOCNO></DOC>\n", `line 2: duplicate id "1" (first at`},
		{"twoids", "<DOC><DOCNO>1</DOCNO><DOCNO>2</DOCNO></DOC>\n", "2 <DOCNO> elements"},
	} {
		p := filepath.Join(t.TempDir(), tc.name)
		os.WriteFile(p, []byte(tc.body), 0o644)
		_, err := ReadUser(p, UserOptions{Format: FormatTREC})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v, want it to name the file and %q", tc.name, err, tc.want)
		}
	}
}

const topicsSample = `<top>
<head> Tipster Topic Description
<num> Number: 051
<dom> Domain: International Economics
<title> Topic: Airbus Subsidies

<desc> Description:
Document will discuss government assistance
to Airbus Industrie.

<narr> Narrative:
A relevant document will cite or discuss assistance.
</top>

<top>
<num>7</num><title>
MEASUREMENT OF DIELECTRIC CONSTANT
</title>
<desc>Long form.</desc>
</top>
`

func TestReadUserTRECTopics(t *testing.T) {
	p := filepath.Join(t.TempDir(), "topics.51-100")
	os.WriteFile(p, []byte(topicsSample), 0o644)
	if f, err := UserFormat(p, ""); err != nil || f != FormatTRECTopics {
		t.Fatalf("format %q, %v; want trec-topics from <top>", f, err)
	}
	for _, tc := range []struct {
		fields string
		want   []docSummary
	}{
		{"", []docSummary{{ID: "51", Text: "Airbus Subsidies"}, {ID: "7", Text: "MEASUREMENT OF DIELECTRIC CONSTANT"}}},
		{"title,desc", []docSummary{
			{ID: "51", Text: "Airbus Subsidies\nDocument will discuss government assistance to Airbus Industrie."},
			{ID: "7", Text: "MEASUREMENT OF DIELECTRIC CONSTANT\nLong form."}}},
	} {
		c, err := ReadUser(p, UserOptions{TopicFields: tc.fields})
		if err != nil {
			t.Fatal(err)
		}
		if got := summarize(c); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("fields %q:\n got %q\nwant %q", tc.fields, got, tc.want)
		}
	}
	if _, err := ReadUser(p, UserOptions{TopicFields: "title,narr"}); err == nil || !strings.Contains(err.Error(), "topic 7 has no <narr>") {
		t.Errorf("a missing field: %v", err)
	}
	if _, err := ParseTopicFields("title,summary"); err == nil || !strings.Contains(err.Error(), `"summary"`) {
		t.Errorf("unknown field: %v", err)
	}
}

// TestReadUserTRECMatchesNPL: NPL's TREC-format copy (Terrier's
// conversion, doc-text.trec.gz and query-text.trec), read as a user's TREC
// documents and topics, gives the registered NPL reader's documents and
// queries: the same ids in the same order, the same words.
func TestReadUserTRECMatchesNPL(t *testing.T) {
	dir := realdata.Dir(t, "npl/terrier_trec")
	reg, err := ReadNPL(dir)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := ReadUser(filepath.Join(dir, "npl/terrier_trec/doc-text.trec.gz"), UserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs.Docs) != 11429 || len(docs.Docs) != len(reg.Docs) {
		t.Fatalf("%d documents, registered %d", len(docs.Docs), len(reg.Docs))
	}
	for i, d := range docs.Docs {
		if r := reg.Docs[i]; d.ID != r.ID || strings.Join(strings.Fields(d.Text), " ") != strings.Join(strings.Fields(r.Text), " ") {
			t.Fatalf("document %d: %q %q, registered %q %q", i, d.ID, Elide(d.Text, 60), r.ID, Elide(r.Text, 60))
		}
	}
	qs, err := ReadUser(filepath.Join(dir, "npl/terrier_trec/query-text.trec"), UserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(qs.Docs) != 93 || len(qs.Docs) != len(reg.Queries) {
		t.Fatalf("%d topics, registered %d queries", len(qs.Docs), len(reg.Queries))
	}
	for i, q := range qs.Docs {
		if r := reg.Queries[i]; q.ID != r.ID || strings.Join(strings.Fields(q.Text), " ") != strings.Join(strings.Fields(r.Text), " ") {
			t.Fatalf("query %d: %q %q, registered %q %q", i, q.ID, q.Text, r.ID, r.Text)
		}
	}
}

func TestReadUserDelimitedColumns(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"noheader.csv": "3,\"Fears for T N pension\",\"Unions representing workers\"\n1,\"Wall St\",\"Short sellers\"\n",
		"noheader.tsv": "a\tb\tc\n",
		"header.csv":   "id,title,description,label\nx,T1,D1,world\ny,T2,D2,sport\n",
	})
	c, err := ReadUser(filepath.Join(dir, "noheader.csv"), UserOptions{NoHeader: true, TextCol: "2,3", LabelCol: "1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []docSummary{
		{ID: "1", Text: "Fears for T N pension\nUnions representing workers", Class: "3"},
		{ID: "2", Text: "Wall St\nShort sellers", Class: "1"},
	}
	if got := summarize(c); !reflect.DeepEqual(got, want) {
		t.Errorf("headerless:\n got %q\nwant %q", got, want)
	}
	if !reflect.DeepEqual(c.Classes, []string{"1", "3"}) {
		t.Errorf("classes %q", c.Classes)
	}
	c, err = ReadUser(filepath.Join(dir, "header.csv"), UserOptions{TextCol: "title, description"})
	if err != nil {
		t.Fatal(err)
	}
	want = []docSummary{{ID: "x", Text: "T1\nD1", Class: "world"}, {ID: "y", Text: "T2\nD2", Class: "sport"}}
	if got := summarize(c); !reflect.DeepEqual(got, want) {
		t.Errorf("two named columns:\n got %q\nwant %q", got, want)
	}
	c, err = ReadUser(filepath.Join(dir, "noheader.tsv"), UserOptions{NoHeader: true, TextCol: "3", IDCol: "1"})
	if err != nil || len(c.Docs) != 1 || c.Docs[0].ID != "a" || c.Docs[0].Text != "c" {
		t.Errorf("headerless TSV: %v %v", c, err)
	}
	for _, tc := range []struct {
		file string
		o    UserOptions
		want string
	}{
		{"noheader.csv", UserOptions{NoHeader: true}, "line 1: without a header, name the text column(s) by position with --text-col"},
		{"noheader.csv", UserOptions{NoHeader: true, TextCol: "4"}, `line 1: --text-col "4": want a column position 1..3`},
		{"noheader.csv", UserOptions{NoHeader: true, TextCol: "text"}, `--text-col "text": want a column position`},
		{"noheader.csv", UserOptions{}, `no column "text" in the header (columns: 3, Fears for T N pension, Unions representing workers); name the text column with --text-col, or give --no-header`},
		{"header.csv", UserOptions{TextCol: "title,body"}, `no column "body" in the header`},
		{"noheader.csv", UserOptions{NoHeader: true, TextCol: "2", LabelCol: "1,3"}, `--label-col "1,3": want one column`},
	} {
		_, err := ReadUser(filepath.Join(dir, tc.file), tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: err = %v, want %q", tc.file, tc.o, err, tc.want)
		}
	}
}

func TestReadUserJSONLKeys(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"c.jsonl": `{"doc": "a1", "title": "Rockets", "abstract": "go up", "cluster": "space"}` + "\n" +
			`{"doc": 7, "title": "Engines", "abstract": "go round", "cluster": 2, "label": "ignored"}` + "\n",
	})
	p := filepath.Join(dir, "c.jsonl")
	c, err := ReadUser(p, UserOptions{TextCol: "title,abstract", IDCol: "doc", LabelCol: "cluster"})
	if err != nil {
		t.Fatal(err)
	}
	want := []docSummary{{ID: "a1", Text: "Rockets\ngo up", Class: "space"}, {ID: "7", Text: "Engines\ngo round", Class: "2"}}
	if got := summarize(c); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	for _, tc := range []struct {
		o    UserOptions
		want string
	}{
		{UserOptions{}, `line 1: no "text" field in {"doc": "a1"`},
		{UserOptions{TextCol: "title", LabelCol: "group"}, `no record has the label key "group" (--label-col)`},
		{UserOptions{TextCol: "title", IDCol: "key"}, `line 1: no "key" field (--id-col)`},
		{UserOptions{TextCol: "doc"}, `line 2: field "doc" is a JSON number (7), want a string`},
	} {
		if _, err := ReadUser(p, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.o, err, tc.want)
		}
	}
}

func TestReadStopWordFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"stop.txt": "\ufeffquot\n  lt \n\nhref\r\n", "bad.txt": "quot\nnot one\n", "empty.txt": "\n\n"})
	words, err := ReadStopWordFile(filepath.Join(dir, "stop.txt"))
	if err != nil || !reflect.DeepEqual(words, []string{"quot", "lt", "href"}) {
		t.Errorf("words %q, %v", words, err)
	}
	if _, err := ReadStopWordFile(filepath.Join(dir, "bad.txt")); err == nil || !strings.Contains(err.Error(), `line 2: "not one" is not a single word`) {
		t.Errorf("two words: %v", err)
	}
	if _, err := ReadStopWordFile(filepath.Join(dir, "empty.txt")); err == nil || !strings.Contains(err.Error(), "no stop words") {
		t.Errorf("empty: %v", err)
	}
}

func TestDetectQrelsLayout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"cran":  "1 184 2 \n1 29 -1\n",
		"smart": "     1     28\t0\t0.000000\n     1     35\t0\t0.000000\n",
		"trec":  "1 0 13 1\n1 0 14 0\n",
		"npl":   "1\n 1239  1502  4462  4569  5472  5502  6471  6480  6664  6824\n/\n2\n 414\n/\n",
		"mixed": "1 2 3\n1 0 2 1\n",
		"five":  "1 2 3 4 5\n",
	})
	for name, want := range map[string]string{"cran": QrelsCranfield, "smart": QrelsSMART, "trec": QrelsTREC, "npl": QrelsNPL} {
		if got, err := DetectQrelsLayout(filepath.Join(dir, name)); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := DetectQrelsLayout(filepath.Join(dir, "mixed")); err == nil || !strings.Contains(err.Error(), "give --qrels-format") {
		t.Errorf("mixed: %v", err)
	}
	if _, err := DetectQrelsLayout(filepath.Join(dir, "five")); err == nil || !strings.Contains(err.Error(), "line 1: a layout --qrels-format does not know") {
		t.Errorf("five fields: %v", err)
	}
	js, err := ReadQrelsLayout(filepath.Join(dir, "cran"), QrelsCranfield)
	if err != nil || !reflect.DeepEqual(js, []Judgment{{"1", "184", 3}, {"1", "29", 0}}) {
		t.Errorf("cranfield levels (5 − code, −1 → 0): %v %v", js, err)
	}
	js, err = ReadQrelsLayout(filepath.Join(dir, "npl"), QrelsNPL)
	if err != nil || len(js) != 11 || js[10] != (Judgment{"2", "414", 1}) {
		t.Errorf("npl: %v %v", js, err)
	}
}

// TestDetectQrelsLayoutStaged: the staged collections' relevance files are
// told apart: Cranfield's cranqrel, CISI's SMART CISI.REL, MED's TREC
// MED.REL, NPL's Glasgow rlv-ass and Terrier's TREC qrels.
func TestDetectQrelsLayoutStaged(t *testing.T) {
	dir := realdata.Dir(t, "npl/glasgow_raw/rlv-ass", "npl/terrier_trec/qrels", "cranfield", "cisi", "medline")
	for rel, want := range map[string]string{"npl/glasgow_raw/rlv-ass": QrelsNPL, "npl/terrier_trec/qrels": QrelsTREC} {
		if got, err := DetectQrelsLayout(filepath.Join(dir, rel)); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", rel, got, err, want)
		}
	}
	tmp := t.TempDir()
	for _, tc := range []struct{ archive, member, want string }{
		{"cranfield/cran.tar.gz", "cranqrel", QrelsCranfield},
		{"cisi/cisi.tar.gz", "CISI.REL", QrelsSMART},
		{"medline/med.tar.gz", "MED.REL", QrelsTREC},
	} {
		var b []byte
		err := EachTarGzMember(filepath.Join(dir, tc.archive), func(name string, r io.Reader) error {
			if filepath.Base(name) == tc.member {
				var err error
				b, err = io.ReadAll(r)
				return err
			}
			return nil
		})
		if err != nil || b == nil {
			t.Fatalf("%s in %s: %v", tc.member, tc.archive, err)
		}
		p := filepath.Join(tmp, tc.member)
		os.WriteFile(p, b, 0o644)
		if got, err := DetectQrelsLayout(p); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.member, got, err, tc.want)
		}
	}
}

func TestReadLabelsFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"order.txt": "x\n-\ny\n",
		"byid.tsv":  "c\ty\na\tx\nzz\tw\n",
		"short.txt": "x\ny\n",
	})
	ids := []string{"a", "b", "c"}
	got, warn, err := ReadLabelsFile(filepath.Join(dir, "order.txt"), ids)
	if err != nil || !reflect.DeepEqual(got, []string{"x", "-", "y"}) || warn != nil {
		t.Errorf("in order: %q %q %v", got, warn, err)
	}
	got, warn, err = ReadLabelsFile(filepath.Join(dir, "byid.tsv"), ids)
	if err != nil || !reflect.DeepEqual(got, []string{"x", "", "y"}) || len(warn) != 1 || !strings.Contains(warn[0], `1 of its 3 ids are not documents of the run and were skipped (the first: "zz")`) {
		t.Errorf("by id: %q %q %v", got, warn, err)
	}
	if _, _, err := ReadLabelsFile(filepath.Join(dir, "short.txt"), ids); err == nil || !strings.Contains(err.Error(), "2 labels for 3 documents") {
		t.Errorf("short: %v", err)
	}
}
