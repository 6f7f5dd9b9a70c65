package datasets

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/topicmf/topicmf/internal/fuzzcheck"
)

// Fuzz targets for the collection readers (issue 11). Each feeds arbitrary
// input to a reader and asserts, beyond "no panic": the reader returns
// within fuzzcheck.Bound; an error is one line naming where the input went
// wrong (a line, a record or a member, and the file when the reader was
// given one); and what is read satisfies the reader's documented
// invariants (unique canonical ids, valid UTF-8 text, qrels that survive a
// write and a re-read). Seeds, under testdata/fuzz/FuzzXxx/, are small
// excerpts of the staged files, the quirks each reader's doc names, and
// every crasher found.

// fuzzFile writes data to a file named base in a fresh directory and
// returns its path.
func fuzzFile(t *testing.T, base string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), base)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkErr asserts what every reader error must be: one line, naming the
// path (when not empty) and a position.
func checkErr(t *testing.T, err error, path string) {
	t.Helper()
	fuzzcheck.OneLine(t, err)
	fuzzcheck.HasPosition(t, err)
	if path != "" && !strings.Contains(err.Error(), path) {
		t.Fatalf("error does not name the file %s: %v", path, err)
	}
}

// checkText asserts that s is valid UTF-8, as every Document and Query
// text must be.
func checkText(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s is not valid UTF-8: %q", what, s)
	}
}

// isCanonicalInt reports whether s is an integer written as strconv.Itoa
// writes it.
func isCanonicalInt(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && strconv.Itoa(n) == s
}

// FuzzParseSMART reads a SMART file (Cranfield, MED, CISI, ADI layout):
// record numbers are unique and their lines increase, fields belong to
// their record, and assembling the text never fails.
func FuzzParseSMART(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		var recs []smartRecord
		var err error
		fuzzcheck.Within(t, func() { recs, _, err = parseSMART(bytes.NewReader(in)) })
		if err != nil {
			checkErr(t, err, "")
			return
		}
		seen := map[int]bool{}
		last := 0
		for _, r := range recs {
			if seen[r.Num] || r.Line <= last {
				t.Fatalf("record .I %d at line %d: duplicate or out of order", r.Num, r.Line)
			}
			seen[r.Num], last = true, r.Line
			for _, fl := range r.Fields {
				if fl.Line <= last {
					t.Fatalf("field .%c at line %d before its record's line %d", fl.Tag, fl.Line, last)
				}
				last = fl.Line
			}
			title, body, _ := smartText(r, "f")
			checkText(t, "title", title)
			checkText(t, "body", body)
		}
	})
}

// formatQrels writes judgments back in a layout, for the round trip.
func formatQrels(js []Judgment, layout irQrelLayout) string {
	var b strings.Builder
	for i, j := range js {
		switch layout {
		case irQrelsCranfield:
			fmt.Fprintf(&b, "%s %s %d\n", j.QueryID, j.DocID, j.Level)
		case irQrelsTREC:
			fmt.Fprintf(&b, "%s 0 %s %d\n", j.QueryID, j.DocID, j.Level)
		case nplRelevance: // one record per run of judgments of a query
			if i == 0 || js[i-1].QueryID != j.QueryID {
				fmt.Fprintf(&b, "%s\n", j.QueryID)
			}
			fmt.Fprintf(&b, "%s\n", j.DocID)
			if i == len(js)-1 || js[i+1].QueryID != j.QueryID {
				b.WriteString("/\n")
			}
		default:
			fmt.Fprintf(&b, "%s %s 0 0.000000\n", j.QueryID, j.DocID)
		}
	}
	return b.String()
}

// nplRelevance stands for the Glasgow NPL layout in FuzzParseQrels.
const nplRelevance irQrelLayout = 3

// FuzzParseQrels reads a relevance file in each of the four layouts
// (layout mod 4: Cranfield, TREC, SMART, Glasgow NPL). IDs come out
// canonical, and writing the judgments back in the same layout and reading
// them again gives the same judgments.
func FuzzParseQrels(f *testing.F) {
	f.Fuzz(func(t *testing.T, layout uint8, in []byte) {
		l := irQrelLayout(layout % 4)
		parse := func(r io.Reader) ([]Judgment, error) {
			if l == nplRelevance {
				return nplParseRelevance(r)
			}
			return irParseQrels(r, l)
		}
		var js []Judgment
		var err error
		fuzzcheck.Within(t, func() { js, err = parse(bytes.NewReader(in)) })
		if err != nil {
			checkErr(t, err, "")
			return
		}
		for _, j := range js {
			if !isCanonicalInt(j.QueryID) || !isCanonicalInt(j.DocID) || ((l == irQrelsSMART || l == nplRelevance) && j.Level != 1) {
				t.Fatalf("judgment %+v", j)
			}
		}
		again, err := parse(strings.NewReader(formatQrels(js, l)))
		if err != nil || !slices.Equal(again, js) {
			t.Fatalf("round trip: %v\n%v\n%v", err, js, again)
		}
	})
}

// FuzzNPL reads NPL files: kind mod 3 selects the Glasgow record layout,
// the TREC document file or the TREC topic file. IDs are canonical and
// unique; text is valid UTF-8.
func FuzzNPL(f *testing.F) {
	f.Fuzz(func(t *testing.T, kind uint8, in []byte) {
		var ids, texts []string
		var err error
		fuzzcheck.Within(t, func() {
			switch kind % 3 {
			case 0:
				var recs []nplRecord
				recs, _, err = nplParseRecords(bytes.NewReader(in))
				for _, r := range recs {
					ids, texts = append(ids, r.id), append(texts, irJoinLines(r.lines))
				}
			case 1:
				var docs []Document
				docs, _, err = nplParseTRECDocs(bytes.NewReader(in))
				for _, d := range docs {
					ids, texts = append(ids, d.ID), append(texts, d.Text)
				}
			default:
				var qs []Query
				qs, _, err = nplParseTRECTopics(bytes.NewReader(in))
				for _, q := range qs {
					ids, texts = append(ids, q.ID), append(texts, q.Text)
				}
			}
		})
		if err != nil {
			checkErr(t, err, "")
			return
		}
		seen := map[string]bool{}
		for i, id := range ids {
			if !isCanonicalInt(id) || seen[id] {
				t.Fatalf("id %q not canonical or repeated", id)
			}
			seen[id] = true
			checkText(t, "text", texts[i])
		}
	})
}

// FuzzReutersSGML reads a Reuters-21578 .sgm member as ReadReutersArchive
// does. Every record has a decimal NEWID, distinct non-blank topics, and
// text in valid UTF-8 without control characters other than tab and
// newline. Seed "issue11-empty-D-latin1" is the input that hung the reader.
func FuzzReutersSGML(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		var recs []reutersRecord
		var err error
		fuzzcheck.Within(t, func() {
			err = scanReutersSGML(bytes.NewReader(in), func(line int, rec []byte) error {
				rr, err := parseReutersRecord(rec)
				if err != nil {
					return fmt.Errorf("line %d: %w", line, err)
				}
				recs = append(recs, rr)
				return nil
			})
		})
		if err != nil {
			checkErr(t, err, "")
			return
		}
		for _, rr := range recs {
			if !textIsDigits(rr.newID) {
				t.Fatalf("NEWID %q", rr.newID)
			}
			for i, tp := range rr.topics {
				if tp == "" || tp != strings.TrimSpace(tp) || slices.Contains(rr.topics[:i], tp) {
					t.Fatalf("topics %q", rr.topics)
				}
			}
			for _, s := range []string{rr.title, rr.text} {
				checkText(t, "text", s)
				if strings.ContainsFunc(s, func(r rune) bool { return (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f }) {
					t.Fatalf("control character in %q", s)
				}
			}
		}
	})
}

// FuzzSemEval reads a SemEval-2016 Task 3 XML file. Every judgment names a
// query and a document that were read, and document IDs are unique.
func FuzzSemEval(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		p := fuzzFile(t, "part.xml", in)
		c := &Collection{}
		s := &semevalState{c: c, queries: map[string]semevalQuery{}, docs: map[string]string{}, classes: map[string]bool{}}
		var err error
		fuzzcheck.Within(t, func() { err = s.readFile(p, "part.xml", "train") })
		if err != nil {
			checkErr(t, err, p)
			return
		}
		docs, queries := map[string]bool{}, map[string]bool{}
		for _, d := range c.Docs {
			if d.ID == "" || docs[d.ID] || d.Class == "" {
				t.Fatalf("document %+v empty, repeated or without class", d)
			}
			docs[d.ID] = true
			checkText(t, "document", d.Text)
		}
		for _, q := range c.Queries {
			queries[q.ID] = true
			checkText(t, "query", q.Text)
		}
		for _, j := range c.Qrels {
			if !docs[j.DocID] || !queries[j.QueryID] || j.Level < 0 || j.Level > 2 {
				t.Fatalf("judgment %+v", j)
			}
		}
	})
}

// FuzzTRECQC reads a TREC QC label file: one document per non-blank line,
// numbered in order, each labelled "COARSE:fine" with its coarse part first
// in Categories, text valid UTF-8.
func FuzzTRECQC(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		var docs []Document
		var err error
		fuzzcheck.Within(t, func() { docs, _, err = qcParseLines(bytes.NewReader(in), "train", "train.txt") })
		if err != nil {
			checkErr(t, err, "")
			return
		}
		for i, d := range docs {
			coarse, fine, ok := strings.Cut(d.Class, ":")
			if d.ID != "train-"+strconv.Itoa(i+1) || !ok || coarse == "" || fine == "" ||
				!slices.Equal(d.Categories, []string{coarse, d.Class}) || strings.TrimSpace(d.Text) == "" {
				t.Fatalf("document %d: %+v", i, d)
			}
			checkText(t, "question", d.Text)
		}
	})
}

// tarGzOf builds a .tar.gz with one regular member, stored without
// compression (a compressing writer allocates about 1 MB, which dominated
// the time of one fuzz input).
func tarGzOf(t *testing.T, name string, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.NoCompression)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}); err != nil {
		t.Skip("tar cannot hold this member name:", err)
	}
	if _, err := tw.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipOne builds a .zip with one member, stored without compression.
func zipOne(t *testing.T, name string, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
	if err != nil {
		t.Skip("zip cannot hold this member name:", err)
	}
	if _, err := w.Write(body); err != nil {
		t.Skip("zip cannot hold this member:", err) // a directory name with a body
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkArchiveCollection asserts the invariants both archive readers
// promise: documents sorted by the reader's order, unique IDs, a class
// from the allowed set, valid UTF-8 text, and Classes listing exactly the
// classes used.
func checkArchiveCollection(t *testing.T, c *Collection, classOK func(string) bool) {
	t.Helper()
	ids, classes := map[string]bool{}, map[string]bool{}
	for _, d := range c.Docs {
		if ids[d.ID] || !classOK(d.Class) {
			t.Fatalf("document %q repeated or with class %q", d.ID, d.Class)
		}
		ids[d.ID], classes[d.Class] = true, true
		checkText(t, "document", d.Text)
	}
	if len(classes) != len(c.Classes) || !slices.IsSorted(c.Classes) {
		t.Fatalf("Classes %q for documents of %d classes", c.Classes, len(classes))
	}
}

// FuzzMovieReview reads a Movie Review polarity zip holding one member of
// the given name and body.
func FuzzMovieReview(f *testing.F) {
	f.Fuzz(func(t *testing.T, name string, body []byte) {
		p := fuzzFile(t, "review_polarity.zip", zipOne(t, name, body))
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() { c, err = ReadMovieReviewArchive(p) })
		if err != nil {
			checkErr(t, err, p)
			return
		}
		checkArchiveCollection(t, c, func(s string) bool { return s == "pos" || s == "neg" })
	})
}

// FuzzNewsgroups reads a 20 Newsgroups .tar.gz holding one member of the
// given name and body, with and without headers kept.
func FuzzNewsgroups(f *testing.F) {
	f.Fuzz(func(t *testing.T, name string, body []byte, keepHeaders bool) {
		p := fuzzFile(t, "20news-bydate.tar.gz", tarGzOf(t, name, body))
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() { c, err = ReadNewsgroupsArchive(p, NewsgroupsOptions{KeepHeaders: keepHeaders}) })
		if err != nil {
			checkErr(t, err, p)
			return
		}
		checkArchiveCollection(t, c, func(s string) bool { return s != "" && !strings.Contains(s, "/") })
	})
}

// FuzzShortText reads a pair of parallel line files (text, labels): one
// document per label, IDs the line numbers, integer classes sorted by
// value.
func FuzzShortText(f *testing.F) {
	f.Fuzz(func(t *testing.T, text, labels []byte) {
		tp, lp := fuzzFile(t, "X.txt", text), fuzzFile(t, "X_label.txt", labels)
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() { c, err = ReadShortText("X", tp, lp) })
		if err != nil {
			fuzzcheck.OneLine(t, err)
			if !strings.Contains(err.Error(), tp) && !strings.Contains(err.Error(), lp) {
				t.Fatalf("error names neither file: %v", err)
			}
			return
		}
		for i, d := range c.Docs {
			if d.ID != strconv.Itoa(i+1) || !isIntLabel(d.Class) {
				t.Fatalf("document %d: %+v", i, d)
			}
			checkText(t, "document", d.Text)
		}
		for i := 1; i < len(c.Classes); i++ {
			a, _ := strconv.Atoi(c.Classes[i-1])
			b, _ := strconv.Atoi(c.Classes[i])
			if a > b {
				t.Fatalf("Classes %q not sorted by value", c.Classes)
			}
		}
	})
}

func isIntLabel(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// FuzzArchive opens arbitrary bytes as each kind of archive the readers
// take (kind mod 3: .tar.gz, .zip, .gz): every member is read to its end,
// and an error names the file.
func FuzzArchive(f *testing.F) {
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		var err error
		var p string
		readAll := func(name string, r io.Reader) error {
			_, err := io.Copy(io.Discard, r)
			return err
		}
		switch kind % 3 {
		case 0:
			p = fuzzFile(t, "a.tar.gz", data)
			fuzzcheck.Within(t, func() { err = EachTarGzMember(p, readAll) })
		case 1:
			p = fuzzFile(t, "a.zip", data)
			fuzzcheck.Within(t, func() { err = EachZipMember(p, readAll) })
		default:
			// Only opening names the file; an error met while reading
			// the stream is wrapped by the caller (irWithFile,
			// readLineFile), so it is checked for one line only.
			p = fuzzFile(t, "a.txt.gz", data)
			fuzzcheck.Within(t, func() {
				var rc io.ReadCloser
				if rc, err = OpenMaybeGzip(p); err != nil {
					return
				}
				defer rc.Close()
				if _, rerr := io.Copy(io.Discard, rc); rerr != nil {
					fuzzcheck.OneLine(t, rerr)
				}
			})
		}
		if err != nil {
			fuzzcheck.OneLine(t, err)
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("error does not name the file: %v", err)
			}
		}
	})
}

// TestMaxMemberBytes: a member declaring more than MaxMemberBytes is an
// error naming the archive, the member and the size, before it is read.
func TestMaxMemberBytes(t *testing.T) {
	defer func(old int64) { MaxMemberBytes = old }(MaxMemberBytes)
	MaxMemberBytes = 10
	body := []byte("eleven byte")
	read := func(name string, r io.Reader) error {
		t.Errorf("member %s read", name)
		return nil
	}
	tp := fuzzFile(t, "a.tar.gz", tarGzOf(t, "dir/big.txt", body))
	err := EachTarGzMember(tp, read)
	if err == nil || err.Error() != tp+": member dir/big.txt declares 11 bytes, more than the limit of 10" {
		t.Errorf("tar.gz: %v", err)
	}
	zp := fuzzFile(t, "a.zip", zipOne(t, "dir/big.txt", body))
	err = EachZipMember(zp, read)
	if err == nil || err.Error() != zp+": member dir/big.txt declares 11 bytes, more than the limit of 10" {
		t.Errorf("zip: %v", err)
	}
	MaxMemberBytes = 11
	n := 0
	count := func(string, io.Reader) error { n++; return nil }
	if EachTarGzMember(tp, count) != nil || EachZipMember(zp, count) != nil || n != 2 {
		t.Errorf("members at the limit: %d read", n)
	}
}

// TestMemberNameOneLine: a member name holding a newline or a control
// byte is quoted in archive errors, so the message stays one line.
func TestMemberNameOneLine(t *testing.T) {
	if got := memberName("dir/a.txt"); got != "dir/a.txt" {
		t.Errorf("plain name shown as %s", got)
	}
	if got := memberName("a\nb\x00"); got != `"a\nb\x00"` {
		t.Errorf("name with a newline shown as %s", got)
	}
	p := fuzzFile(t, "a.zip", zipOne(t, "movie_reviews/pos/x\ny.txt", []byte("text")))
	_, err := ReadMovieReviewArchive(p)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `member "movie_reviews/pos/x\ny.txt"`) {
		t.Errorf("error %q", err)
	}
}

// FuzzUserDelimited reads a user's CSV (tab false) or TSV (tab true) file
// with the default columns. Beyond the collection's invariants: a TSV
// record is one line, so a TSV read without error has one document per
// non-blank line after the header, none holding a tab or a newline.
func FuzzUserDelimited(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte, tab bool) {
		p, comma := fuzzFile(t, "u.csv", in), ','
		if tab {
			p, comma = fuzzFile(t, "u.tsv", in), '\t'
		}
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() { c, err = readUserDelimited(p, comma, UserOptions{}) })
		if err != nil {
			checkUserErr(t, err, p)
			return
		}
		checkUserCollection(t, c)
		if !tab {
			return
		}
		trimCR := func(l []byte) []byte { return bytes.TrimSuffix(l, []byte("\r")) }
		if want := nonBlankLines(in, trimCR) - 1; len(c.Docs) != want {
			t.Fatalf("%d documents from %d non-blank lines after the header", len(c.Docs), want)
		}
		for _, d := range c.Docs {
			if strings.ContainsAny(d.Text, "\t\n") {
				t.Fatalf("TSV document %s: text %q holds a tab or a newline", d.ID, d.Text)
			}
		}
	})
}

// FuzzUserJSONL reads a user's JSON Lines file: one document per non-blank
// line, or an error naming the line.
func FuzzUserJSONL(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		p := fuzzFile(t, "u.jsonl", in)
		var c *Collection
		var err error
		fuzzcheck.Within(t, func() { c, err = readUserJSONL(p, UserOptions{}) })
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
