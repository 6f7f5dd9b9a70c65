package datasets

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/fuzzcheck"
)

// Fuzz targets for the readers of a user's own formats added for issue 25
// (TREC SGML documents and topics, headerless and multi-column CSV/TSV,
// JSONL keys, stop-word files, qrels layout detection, label files), with
// the invariants of fuzz_test.go: within fuzzcheck.Bound, an error is one
// line naming the file and a position, and what is read is a valid
// collection. Seeds are under testdata/fuzz/FuzzXxx/.

// FuzzUserTREC reads TREC SGML documents, plain (gz false) or gzip'ed.
// Beyond the collection's invariants: there are as many documents as
// closing </DOC> tags.
func FuzzUserTREC(f *testing.F) {
	f.Add([]byte("<DOC>\n<DOCNO> AP-1 </DOCNO>\n<HEAD>Title</HEAD>\n<TEXT>\nSome &amp; text <P>here</P>\n</TEXT>\n</DOC>\n"), false)
	f.Add([]byte("<DOC><DOCNO>1</DOCNO>compact memories</DOC>\n<DOC><DOCNO>2</DOCNO><TEXT>x</TEXT></DOC>"), true)
	f.Fuzz(func(t *testing.T, in []byte, gz bool) {
		data := in
		if gz {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			w.Write(in)
			w.Close()
			data = b.Bytes()
		}
		p := fuzzFile(t, "docs.trec", data)
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() { c, err = readUserTREC(p) })
		if err != nil {
			if err.Error() == p+": no <DOC> elements" { // the whole file is the place
				return
			}
			checkErr(t, err, p)
			return
		}
		checkUserCollection(t, c)
		if n := strings.Count(strings.ToUpper(string(in)), "</DOC>"); len(c.Docs) != n {
			t.Fatalf("%d documents from %d </DOC> tags", len(c.Docs), n)
		}
	})
}

// FuzzUserTRECTopics reads a TREC topic file with the title and the
// description as the query text: one query per <top> element, ids unique.
func FuzzUserTRECTopics(f *testing.F) {
	f.Add([]byte("<top>\n<num> Number: 051\n<title> Topic: Airbus Subsidies\n<desc> Description:\nGovernment aid.\n</top>\n"))
	f.Add([]byte("<top>\n<num>1</num><title>\nMEASUREMENT OF DIELECTRIC\n</title>\n<desc>d</desc>\n</top>\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		p := fuzzFile(t, "topics.txt", in)
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() { c, err = readUserTRECTopics(p, []string{"title", "desc"}) })
		if err != nil {
			if err.Error() == p+": no <top> elements" { // the whole file is the place
				return
			}
			checkErr(t, err, p)
			return
		}
		checkUserCollection(t, c)
		if n := strings.Count(strings.ToLower(string(in)), "</top>"); len(c.Docs) > n {
			t.Fatalf("%d topics from %d </top> tags", len(c.Docs), n)
		}
		for _, d := range c.Docs {
			if strings.TrimSpace(d.Text) == "" {
				t.Fatalf("topic %s: empty text read without error", d.ID)
			}
		}
	})
}

// FuzzUserDelimitedColumns reads a CSV (tab false) or TSV file without a
// header (noHeader, columns "1,2" by position, labels from column 3 when
// there is one) or with one (columns "a,b"): every record's fields must be
// as many as the first line's, and each document's text is its text
// columns joined by a newline.
func FuzzUserDelimitedColumns(f *testing.F) {
	f.Add([]byte("world,\"Fears for T N pension\",\"Unions representing workers\"\nsport,title,desc\n"), false, true)
	f.Add([]byte("a\tb\tlabel\nx\ty\tz\n"), true, false)
	f.Fuzz(func(t *testing.T, in []byte, tab, noHeader bool) {
		p, comma := fuzzFile(t, "u.csv", in), ','
		if tab {
			p, comma = fuzzFile(t, "u.tsv", in), '\t'
		}
		o := UserOptions{TextCol: "a,b", LabelCol: "label"}
		if noHeader {
			o = UserOptions{NoHeader: true, TextCol: "1,2"}
		}
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() { c, err = readUserDelimited(p, comma, o) })
		if err != nil {
			switch msg := err.Error(); {
			case msg == p+": empty file", msg == p+": no records":
				fuzzcheck.OneLine(t, err)
			default:
				checkUserErr(t, err, p)
			}
			return
		}
		checkUserCollection(t, c)
		for _, d := range c.Docs {
			if !strings.Contains(d.Text, "\n") && !tab {
				// CSV: the join's newline is there unless a field held
				// one (checked by the count below).
				t.Fatalf("document %s: two text columns not joined by a newline: %q", d.ID, d.Text)
			}
		}
	})
}

// FuzzUserJSONLKeys reads JSON Lines with other keys named: text from
// "title" and "body", the id from "key", the label from "cluster".
func FuzzUserJSONLKeys(f *testing.F) {
	f.Add([]byte(`{"key": 1, "title": "a", "body": "b c", "cluster": "x"}` + "\n" + `{"key": "2", "title": "d", "body": "e", "cluster": 3}` + "\n"))
	f.Add([]byte(`{"key": 1, "title": "a", "body": 5}` + "\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		p := fuzzFile(t, "u.jsonl", in)
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() {
			c, err = readUserJSONL(p, UserOptions{TextCol: "title,body", IDCol: "key", LabelCol: "cluster"})
		})
		if err != nil {
			checkUserErr(t, err, p)
			return
		}
		checkUserCollection(t, c)
		if want := nonBlankLines(in, bytes.TrimSpace); len(c.Docs) != want {
			t.Fatalf("%d documents from %d non-blank lines", len(c.Docs), want)
		}
	})
}

// FuzzStopWordFile reads a stop-word file: one word a line, each valid
// UTF-8 without white space.
func FuzzStopWordFile(f *testing.F) {
	f.Add([]byte("quot\nlt\n\n  href  \n"))
	f.Add([]byte("two words\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		p := fuzzFile(t, "stop.txt", in)
		var words []string
		var err error
		fuzzcheck.Within(t, func() { words, err = ReadStopWordFile(p) })
		if err != nil {
			fuzzcheck.OneLine(t, err)
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, w := range words {
			checkText(t, "stop word", w)
			if w == "" || strings.ContainsAny(w, " \t\r\n") {
				t.Fatalf("stop word %q is empty or holds white space", w)
			}
		}
	})
}

// FuzzQrelsLayout tells a relevance file's layout and reads it in that
// layout: a layout told must be one ReadQrelsLayout (or, for TREC,
// metrics/ir) knows, and an error names the file.
func FuzzQrelsLayout(f *testing.F) {
	f.Add([]byte("1 184 2\n1 29 -1\n"))
	f.Add([]byte("     1     28\t0\t0.000000\n"))
	f.Add([]byte("1 0 13 1\n"))
	f.Add([]byte("1\n 1239  1502\n/\n2\n 414\n/\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		p := fuzzFile(t, "qrels", in)
		var layout string
		var err error
		fuzzcheck.Within(t, func() { layout, err = DetectQrelsLayout(p) })
		if err != nil {
			fuzzcheck.OneLine(t, err)
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		switch layout {
		case QrelsTREC:
			return // read by metrics/ir, fuzzed there
		case QrelsSMART, QrelsCranfield, QrelsNPL:
		default:
			t.Fatalf("layout %q", layout)
		}
		var js []Judgment
		fuzzcheck.Within(t, func() { js, err = ReadQrelsLayout(p, layout) })
		if err != nil {
			checkErr(t, err, p)
			return
		}
		for _, j := range js {
			if !isCanonicalInt(j.QueryID) || !isCanonicalInt(j.DocID) {
				t.Fatalf("judgment %+v: ids not canonical decimal", j)
			}
		}
	})
}

// FuzzLabelsFile reads a label file for a run of three documents "a", "b",
// "c": one label per document, or an error naming the file.
func FuzzLabelsFile(f *testing.F) {
	f.Add([]byte("x\ny\n-\n"))
	f.Add([]byte("a\tx\nc\ty\nzz\tw\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		p := fuzzFile(t, "labels.txt", in)
		ids := []string{"a", "b", "c"}
		var labels []string
		var err error
		fuzzcheck.Within(t, func() { labels, _, err = ReadLabelsFile(p, ids) })
		if err != nil {
			fuzzcheck.OneLine(t, err)
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if len(labels) != len(ids) {
			t.Fatalf("%d labels for %d documents", len(labels), len(ids))
		}
	})
}
