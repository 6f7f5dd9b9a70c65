package datasets

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// This file reads the NPL (Vaswani) test collection: 11,429 short
// lower-case abstracts in electronics and physics, 93 upper-case queries,
// binary relevance. Two staged copies agree exactly (npl/SOURCE.md):
//
//   - "npl" reads npl/terrier_trec, the TREC-format conversion shipped with
//     Terrier: doc-text.trec.gz (<DOC><DOCNO>n</DOCNO> text </DOC>),
//     query-text.trec (<top><num>n</num><title> text </title></top>) and
//     qrels ("<query> 0 <doc> <level>").
//   - "npl-glasgow" reads npl/glasgow_raw, the original Glasgow layout:
//     doc-text.gz and query-text (an id line, text lines, a terminator
//     line "/") and rlv-ass (an id line, the relevant document ids spread
//     over lines, a terminator). The terminator is "   /" in doc-text but
//     "/" in this copy of rlv-ass, so a terminator is any line with
//     strings.TrimSpace(line) == "/". A file whose last record has no
//     terminator is reported as truncated.
//
// Document.Text is the abstract (the collection has no separate title),
// its lines kept without trailing blanks and joined by newlines. Query.Text
// is the query on one line (its lines trimmed and joined by spaces): the
// Terrier copy breaks queries 17 and 81 at other places than the Glasgow
// copy. So both readers give identical strings.

const nplGainNote = "binary relevance: every listed pair is relevant (level 1, gain 1)"

// ReadNPL reads the TREC-format copy below dataDir/npl/terrier_trec.
func ReadNPL(dataDir string) (*Collection, error) {
	dir := filepath.Join(dataDir, "npl", "terrier_trec")
	c := &Collection{Name: "npl", Gains: map[int]float64{1: 1}, GainNote: nplGainNote}
	err := nplRead(c, filepath.Join(dir, "doc-text.trec.gz"), func(r io.Reader) (n int, err error) {
		c.Docs, n, err = nplParseTRECDocs(r)
		return n, err
	}, filepath.Join(dir, "query-text.trec"), func(r io.Reader) (n int, err error) {
		c.Queries, n, err = nplParseTRECTopics(r)
		return n, err
	}, filepath.Join(dir, "qrels"), func(r io.Reader) (err error) {
		c.Qrels, err = irParseQrels(r, irQrelsTREC)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// ReadNPLGlasgow reads the Glasgow-layout copy below dataDir/npl/glasgow_raw.
func ReadNPLGlasgow(dataDir string) (*Collection, error) {
	dir := filepath.Join(dataDir, "npl", "glasgow_raw")
	c := &Collection{Name: "npl-glasgow", Gains: map[int]float64{1: 1}, GainNote: nplGainNote}
	err := nplRead(c, filepath.Join(dir, "doc-text.gz"), func(r io.Reader) (int, error) {
		recs, n, err := nplParseRecords(r)
		for _, rec := range recs {
			c.Docs = append(c.Docs, Document{ID: rec.id, Text: irJoinLines(rec.lines)})
		}
		return n, err
	}, filepath.Join(dir, "query-text"), func(r io.Reader) (int, error) {
		recs, n, err := nplParseRecords(r)
		for _, rec := range recs {
			c.Queries = append(c.Queries, Query{ID: rec.id, Text: irJoinTrimmed(rec.lines, " ")})
		}
		return n, err
	}, filepath.Join(dir, "rlv-ass"), func(r io.Reader) (err error) {
		c.Qrels, err = nplParseRelevance(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// nplRead reads the three files of an NPL copy into c, each through
// irWithFile: the documents and the queries (their readers return how many
// lines they decoded as Latin-1, which become c's warnings), then the
// judgments, which are checked against the documents and queries.
func nplRead(c *Collection, docFile string, docs func(io.Reader) (int, error), queryFile string, queries func(io.Reader) (int, error), qrelFile string, qrels func(io.Reader) error) error {
	latin1 := map[string]int{}
	for _, f := range []struct {
		path string
		read func(io.Reader) (int, error)
	}{{docFile, docs}, {queryFile, queries}} {
		err := irWithFile(f.path, func(r io.Reader) error {
			n, err := f.read(r)
			latin1[f.path] = n
			return err
		})
		if err != nil {
			return err
		}
	}
	if err := irWithFile(qrelFile, qrels); err != nil {
		return err
	}
	if err := irCheckQrels(c, qrelFile); err != nil {
		return err
	}
	c.Warnings = append(c.Warnings, latin1Warnings(latin1)...)
	return nil
}

// irWithFile opens path (decompressing .gz), runs f on it, and prefixes any
// error with the path.
func irWithFile(path string, f func(r io.Reader) error) error {
	rc, err := OpenMaybeGzip(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := f(rc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// nplRecord is one record of a Glasgow-layout file.
type nplRecord struct {
	id    string // canonical decimal id
	line  int    // line of the id
	lines []string
}

// nplParseRecords reads records "id line, content lines, terminator
// line" where the terminator is any line whose trimmed text is "/". Blank
// lines between records are skipped; ids must be unique integers.
func nplParseRecords(r io.Reader) ([]nplRecord, int, error) {
	sc := newIRLineScanner(r)
	var recs []nplRecord
	seen := map[string]int{}
	open := false
	for sc.Scan() {
		line := sc.UTF8()
		t := strings.TrimSpace(line)
		switch {
		case !open && t == "":
			continue
		case !open:
			n, err := strconv.Atoi(t)
			if err != nil {
				return recs, 0, fmt.Errorf("line %d: expected a record id (an integer on its own line), got %q", sc.n, line)
			}
			id := strconv.Itoa(n)
			if first, dup := seen[id]; dup {
				return recs, 0, fmt.Errorf("line %d: duplicate record id %s (first at line %d)", sc.n, id, first)
			}
			seen[id] = sc.n
			recs = append(recs, nplRecord{id: id, line: sc.n})
			open = true
		case t == "/":
			open = false
		default:
			rec := &recs[len(recs)-1]
			rec.lines = append(rec.lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return recs, 0, err
	}
	if open {
		rec := recs[len(recs)-1]
		return recs, 0, fmt.Errorf("line %d: record %s (line %d) has no terminator line \"/\"; file truncated?", sc.n, rec.id, rec.line)
	}
	return recs, sc.latin1.n, nil
}

// nplParseRelevance reads the Glasgow relevance file (rlv-ass): one record
// per query, its content lines the relevant document ids separated by
// white space (level 1).
func nplParseRelevance(r io.Reader) ([]Judgment, error) {
	recs, _, err := nplParseRecords(r) // integers only: a non-ASCII byte is an error below
	if err != nil {
		return nil, err
	}
	var out []Judgment
	for _, rec := range recs {
		for i, l := range rec.lines {
			for _, f := range strings.Fields(l) {
				d, err := strconv.Atoi(f)
				if err != nil {
					return nil, fmt.Errorf("line %d: expected integer document ids, got %q", rec.line+1+i, f)
				}
				out = append(out, Judgment{QueryID: rec.id, DocID: strconv.Itoa(d), Level: 1})
			}
		}
	}
	return out, nil
}

// nplParseTRECDocs reads <DOC> records whose first line inside is
// <DOCNO>n</DOCNO>; every line up to </DOC> is text.
func nplParseTRECDocs(r io.Reader) ([]Document, int, error) {
	sc := newIRLineScanner(r)
	var docs []Document
	seen := map[string]int{}
	var cur *Document
	var lines []string
	start := 0
	for sc.Scan() {
		line := sc.UTF8()
		t := strings.TrimSpace(line)
		switch {
		case cur == nil && t == "":
			continue
		case cur == nil && t == "<DOC>":
			cur = &Document{}
			lines = lines[:0]
			start = sc.n
		case cur == nil:
			return nil, 0, fmt.Errorf("line %d: expected <DOC>, got %q", sc.n, line)
		case t == "</DOC>":
			if cur.ID == "" {
				return nil, 0, fmt.Errorf("line %d: document opened at line %d has no <DOCNO>", sc.n, start)
			}
			cur.Text = irJoinLines(lines)
			docs = append(docs, *cur)
			cur = nil
		case cur.ID == "":
			v, ok := irCutTag(t, "DOCNO")
			n, err := strconv.Atoi(v)
			if !ok || err != nil {
				return nil, 0, fmt.Errorf("line %d: expected <DOCNO>integer</DOCNO>, got %q", sc.n, line)
			}
			cur.ID = strconv.Itoa(n)
			if first, dup := seen[cur.ID]; dup {
				return nil, 0, fmt.Errorf("line %d: duplicate DOCNO %s (first at line %d)", sc.n, cur.ID, first)
			}
			seen[cur.ID] = sc.n
		default:
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	if cur != nil {
		return nil, 0, fmt.Errorf("line %d: document opened at line %d has no </DOC>; file truncated?", sc.n, start)
	}
	return docs, sc.latin1.n, nil
}

// nplParseTRECTopics reads <top> records: "<num>n</num><title>" on one line,
// the query text, then "</title>" and "</top>".
func nplParseTRECTopics(r io.Reader) ([]Query, int, error) {
	sc := newIRLineScanner(r)
	var qs []Query
	seen := map[string]int{}
	const (
		outside = iota
		wantNum
		inTitle
		wantEnd
	)
	state := outside
	var lines []string
	for sc.Scan() {
		line := sc.UTF8()
		t := strings.TrimSpace(line)
		switch state {
		case outside:
			if t == "" {
				continue
			}
			if t != "<top>" {
				return nil, 0, fmt.Errorf("line %d: expected <top>, got %q", sc.n, line)
			}
			state = wantNum
		case wantNum:
			num, ok := irCutTag(strings.TrimSuffix(t, "<title>"), "num")
			n, err := strconv.Atoi(num)
			if !ok || err != nil || !strings.HasSuffix(t, "<title>") {
				return nil, 0, fmt.Errorf("line %d: expected <num>integer</num><title>, got %q", sc.n, line)
			}
			id := strconv.Itoa(n)
			if first, dup := seen[id]; dup {
				return nil, 0, fmt.Errorf("line %d: duplicate topic number %s (first at line %d)", sc.n, id, first)
			}
			seen[id] = sc.n
			qs = append(qs, Query{ID: id})
			lines = lines[:0]
			state = inTitle
		case inTitle:
			if t == "</title>" {
				qs[len(qs)-1].Text = irJoinTrimmed(lines, " ")
				state = wantEnd
				continue
			}
			lines = append(lines, line)
		case wantEnd:
			if t != "</top>" {
				return nil, 0, fmt.Errorf("line %d: expected </top>, got %q", sc.n, line)
			}
			state = outside
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	if state != outside {
		return nil, 0, fmt.Errorf("line %d: topic not closed by </top>; file truncated?", sc.n)
	}
	return qs, sc.latin1.n, nil
}

// irCutTag returns v when s is exactly "<tag>v</tag>".
func irCutTag(s, tag string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "<"+tag+">")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(rest, "</"+tag+">")
}
