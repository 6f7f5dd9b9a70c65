package datasets

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// This file reads the classic SMART-format test collections distributed
// by the Glasgow IR group: Cranfield 1400, MED (MEDLINE 1033), CISI and
// ADI. Each is one .tar.gz holding a document file, a query file and a
// relevance file.
//
// SMART format: a record opens with a line ".I <number>"; the record's
// fields follow, each introduced by a line holding only a field marker
// (".T" title, ".A" authors, ".B" bibliographic reference, ".W" abstract
// or query text, ".X" CISI cross-references, ".K" keywords, ".C"
// classification codes) and running to the next marker. Lines may end in
// CRLF (cran.qry, MED.ALL, MED.QRY, CISI.*, ADI.*); the CR is dropped.
//
// Indexed text: Document.Text is the title (.T) followed by the abstract
// (.W), one newline apart. Authors, bibliographic references,
// cross-references, keywords and classification codes are metadata, not
// text, and are not indexed. Query text is built the same way (.T, where a
// CISI query has one, then .W). Most Cranfield abstracts open by repeating
// the title, so title words count twice there; the fields are kept as
// distributed rather than deduplicated by guesswork. The title is one line
// (its lines joined by spaces); abstract lines keep their breaks, without
// trailing blanks.
//
// Quirks handled here (see each SOURCE.md):
//   - Cranfield qrels number the queries 1..225 by their position in
//     cran.qry, whereas the .I numbers there run 001..365 with gaps. Query
//     IDs in the Collection are the positions, so they match the qrels.
//   - Cranfield documents 471 and 995 have empty .T and .W fields; they are
//     kept (the collection has 1400 documents) and reported as Warnings.
//   - Cranfield document 240 has stray ".A" and ".B" marker lines inside
//     its abstract, and documents 576 and 578 have two .W fields (the
//     distributed text is scrambled there). Rule: once a record's .W has
//     begun, a marker repeating a field already seen in that record does
//     not open a new field; its lines continue the abstract. A Warning
//     names each such record.
//   - ADI document 67 repeats its .T field with the same title; an
//     identical repeated title is dropped (Warning), a different one is
//     appended. ADI document 38 gives .A before .T: field order is free.
//   - CISI document 321 has .K and .C fields, and every CISI document has
//     .X cross-references: none of them is text.
//   - Relevance files come in three layouts: Cranfield "query doc code"
//     (codes 1..4 and -1), MED.REL "query 0 doc level" (TREC), CISI.REL and
//     ADI.REL "query doc 0 0.000000" (presence means relevant: level 1).
//     MED.REL.OLD (the same 696 pairs in the older layout) is not read.

// smartRecord is one ".I" record of a SMART file.
type smartRecord struct {
	Num    int // the number after .I
	Line   int // line of the .I marker
	Fields []smartField
}

// smartField is one field of a record: its marker letter, the line of the
// marker and the lines up to the next marker.
type smartField struct {
	Tag   byte
	Line  int
	Lines []string
}

// irLineScanner reads lines, dropping a trailing CR, and counts them for
// error messages. When the underlying reader fails (a truncated gzip or
// tar stream gives io.ErrUnexpectedEOF), scanning stops at once rather than
// yielding the partial last line, and Err reports the failure.
type irLineScanner struct {
	sc     *bufio.Scanner
	src    *irErrReader
	n      int
	latin1 latin1Count // lines UTF8 decoded as Latin-1
}

// irErrReader remembers the first read error other than io.EOF.
type irErrReader struct {
	r   io.Reader
	err error
}

func (e *irErrReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

func newIRLineScanner(r io.Reader) *irLineScanner {
	src := &irErrReader{r: r}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	return &irLineScanner{sc: sc, src: src, latin1: latin1Count{unit: "line"}}
}

// Scan advances to the next complete line; Text returns it without CR.
func (s *irLineScanner) Scan() bool {
	if !s.sc.Scan() || s.src.err != nil {
		return false
	}
	s.n++
	return true
}

func (s *irLineScanner) Text() string { return strings.TrimSuffix(s.sc.Text(), "\r") }

// UTF8 is Text, decoded as Latin-1 when it is not valid UTF-8 (counted in
// latin1): the classic collections are ASCII, and a stray byte must not
// reach the tokenizer as an invalid sequence.
func (s *irLineScanner) UTF8() string {
	t, l1 := utf8OrLatin1([]byte(s.Text()))
	if l1 {
		s.latin1.add(fmt.Sprintf("line %d", s.n))
	}
	return t
}

// Err reports a read error, wrapped so errors.Is still sees it.
func (s *irLineScanner) Err() error {
	if s.src.err != nil {
		return fmt.Errorf("reading after line %d: %w", s.n, s.src.err)
	}
	if err := s.sc.Err(); err != nil {
		return fmt.Errorf("reading after line %d: %w", s.n, err)
	}
	return nil
}

// smartMarker reports whether line is a field marker: a dot, one upper-case
// letter, and for .I a record number. It returns the letter and the rest.
func smartMarker(line string) (tag byte, rest string, ok bool) {
	t := strings.TrimRight(line, " \t")
	if len(t) < 2 || t[0] != '.' || t[1] < 'A' || t[1] > 'Z' {
		return 0, "", false
	}
	if len(t) == 2 {
		return t[1], "", true
	}
	if t[2] != ' ' && t[2] != '\t' {
		return 0, "", false
	}
	return t[1], strings.TrimSpace(t[2:]), true
}

// parseSMART reads every record of a SMART file. Lines before the first .I
// must be blank; each .I must carry a unique decimal number; text between
// .I and the record's first field marker must be blank. latin1 counts the
// lines that were not valid UTF-8 and were decoded as Latin-1.
func parseSMART(r io.Reader) (recs []smartRecord, latin1 latin1Count, err error) {
	sc := newIRLineScanner(r)
	seen := map[int]int{}
	for sc.Scan() {
		line := sc.UTF8()
		tag, rest, ok := smartMarker(line)
		switch {
		case ok && tag == 'I':
			num, err := strconv.Atoi(rest)
			if err != nil || num < 0 {
				return nil, latin1Count{}, fmt.Errorf("line %d: expected \".I <record number>\", got %q", sc.n, line)
			}
			if first, dup := seen[num]; dup {
				return nil, latin1Count{}, fmt.Errorf("line %d: duplicate record .I %d (first at line %d)", sc.n, num, first)
			}
			seen[num] = sc.n
			recs = append(recs, smartRecord{Num: num, Line: sc.n})
		case ok:
			if len(recs) == 0 {
				return nil, latin1Count{}, fmt.Errorf("line %d: field marker %q before the first \".I <number>\"", sc.n, line)
			}
			if rest != "" {
				return nil, latin1Count{}, fmt.Errorf("line %d: expected a field marker alone on its line, got %q", sc.n, line)
			}
			rec := &recs[len(recs)-1]
			rec.Fields = append(rec.Fields, smartField{Tag: tag, Line: sc.n})
		default:
			if len(recs) == 0 || len(recs[len(recs)-1].Fields) == 0 {
				if strings.TrimSpace(line) == "" {
					continue
				}
				if len(recs) == 0 {
					return nil, latin1Count{}, fmt.Errorf("line %d: expected \".I <number>\" to open the first record, got %q", sc.n, line)
				}
				return nil, latin1Count{}, fmt.Errorf("line %d: text before any field marker of record .I %d: %q", sc.n, recs[len(recs)-1].Num, line)
			}
			rec := &recs[len(recs)-1]
			f := &rec.Fields[len(rec.Fields)-1]
			f.Lines = append(f.Lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, latin1Count{}, err
	}
	return recs, sc.latin1, nil
}

// smartText assembles the title and the abstract (.W) of a record, applying
// the stray-marker and repeated-title rules described at the top of this
// file. Quirks met are returned as warnings prefixed by where.
func smartText(rec smartRecord, where string) (title, body string, warnings []string) {
	var titleParts []string
	var bodyLines []string
	seen := map[byte]bool{}
	inBody := false
	for _, f := range rec.Fields {
		switch {
		case f.Tag == 'W' && inBody:
			warnings = append(warnings, fmt.Sprintf("%s .I %d: second .W field at line %d appended to the abstract", where, rec.Num, f.Line))
			bodyLines = append(bodyLines, f.Lines...)
		case f.Tag == 'W':
			inBody = true
			bodyLines = append(bodyLines, f.Lines...)
		case inBody && seen[f.Tag]:
			warnings = append(warnings, fmt.Sprintf("%s .I %d: stray .%c marker at line %d inside the abstract; its lines kept as abstract text", where, rec.Num, f.Tag, f.Line))
			bodyLines = append(bodyLines, f.Lines...)
		case f.Tag == 'T':
			t := irJoinTrimmed(f.Lines, " ")
			if seen['T'] {
				if t == strings.Join(titleParts, " ") {
					warnings = append(warnings, fmt.Sprintf("%s .I %d: .T field repeated at line %d with the same title; repeat dropped", where, rec.Num, f.Line))
					break
				}
				warnings = append(warnings, fmt.Sprintf("%s .I %d: second .T field at line %d appended to the title", where, rec.Num, f.Line))
			}
			if t != "" {
				titleParts = append(titleParts, t)
			}
		}
		seen[f.Tag] = true
	}
	return strings.Join(titleParts, " "), irJoinLines(bodyLines), warnings
}

// latin1Warnings names each file with lines decoded as Latin-1 (counts,
// by file), in file name order, in the words of latin1Count.
func latin1Warnings(counts map[string]int) []string {
	var out []string
	for _, f := range slices.Sorted(maps.Keys(counts)) {
		out = append(out, (&latin1Count{unit: "line", n: counts[f]}).warnings(f)...)
	}
	return out
}

// irJoinLines drops trailing blanks from each line (MED pads its lines
// with spaces) and joins the lines with newlines, trimming the result.
func irJoinLines(lines []string) string {
	trimmed := make([]string, len(lines))
	for i, l := range lines {
		trimmed[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimSpace(strings.Join(trimmed, "\n"))
}

// irJoinTrimmed trims each line and joins the non-empty ones with sep.
func irJoinTrimmed(lines []string, sep string) string {
	var parts []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, sep)
}

// irJoinText joins the non-empty parts with a newline.
func irJoinText(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n")
}

// irQrelLayout names the column layout of a relevance file.
type irQrelLayout int

const (
	// irQrelsCranfield: "<query> <doc> <code>"; the level is the code.
	irQrelsCranfield irQrelLayout = iota
	// irQrelsTREC: "<query> <iteration> <doc> <level>" (MED.REL, NPL qrels).
	irQrelsTREC
	// irQrelsSMART: "<query> <doc> 0 0.000000"; listed pairs are relevant
	// (level 1), the last two columns carry no information.
	irQrelsSMART
)

func (l irQrelLayout) String() string {
	switch l {
	case irQrelsCranfield:
		return `3 fields "<query> <doc> <code>"`
	case irQrelsTREC:
		return `4 fields "<query> <iteration> <doc> <level>"`
	default:
		return `4 fields "<query> <doc> 0 0.000000"`
	}
}

// irParseQrels reads a relevance file in the given layout. Blank lines are
// skipped; any other line must have exactly the layout's fields, with
// integer query, document and level columns. IDs are canonical decimal.
func irParseQrels(r io.Reader, layout irQrelLayout) ([]Judgment, error) {
	sc := newIRLineScanner(r)
	var out []Judgment
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		want := 4
		if layout == irQrelsCranfield {
			want = 3
		}
		if len(fields) != want {
			return nil, fmt.Errorf("line %d: expected %s, got %d fields: %q", sc.n, layout, len(fields), sc.Text())
		}
		var qs, ds, ls string
		switch layout {
		case irQrelsCranfield:
			qs, ds, ls = fields[0], fields[1], fields[2]
		case irQrelsTREC:
			qs, ds, ls = fields[0], fields[2], fields[3]
		default:
			qs, ds, ls = fields[0], fields[1], "1"
			if _, err := strconv.ParseFloat(fields[3], 64); err != nil {
				return nil, fmt.Errorf("line %d: expected %s, fourth field %q is not a number", sc.n, layout, fields[3])
			}
		}
		q, err := strconv.Atoi(qs)
		if err != nil {
			return nil, fmt.Errorf("line %d: expected an integer query id, got %q", sc.n, qs)
		}
		d, err := strconv.Atoi(ds)
		if err != nil {
			return nil, fmt.Errorf("line %d: expected an integer document id, got %q", sc.n, ds)
		}
		lv, err := strconv.Atoi(ls)
		if err != nil {
			return nil, fmt.Errorf("line %d: expected an integer relevance level, got %q", sc.n, ls)
		}
		out = append(out, Judgment{QueryID: strconv.Itoa(q), DocID: strconv.Itoa(d), Level: lv})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// irCheckQrels verifies that every judgment names a known query and document
// and reports duplicate pairs as warnings. file names the qrels file.
func irCheckQrels(c *Collection, file string) error {
	docs, queries := c.idSets()
	seen := make(map[[2]string]bool, len(c.Qrels))
	for i, j := range c.Qrels {
		if !queries[j.QueryID] {
			return fmt.Errorf("%s: judgment %d names query %s, which is not in the query file", file, i+1, j.QueryID)
		}
		if !docs[j.DocID] {
			return fmt.Errorf("%s: judgment %d names document %s, which is not in the document file", file, i+1, j.DocID)
		}
		k := [2]string{j.QueryID, j.DocID}
		if seen[k] {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: query %s, document %s judged more than once", file, j.QueryID, j.DocID))
		}
		seen[k] = true
	}
	return nil
}

// smartLayout describes one SMART collection archive.
type smartLayout struct {
	name            string // registry name
	archive         string // path below the data directory
	docs, queries   string // member names
	qrels           string
	qrelFormat      irQrelLayout
	queryByPosition bool // Cranfield: query IDs are positions 1..n
	gains           map[int]float64
	gainNote        string
}

var (
	cranfieldLayout = smartLayout{
		name: "cranfield", archive: "cranfield/cran.tar.gz",
		docs: "cran.all.1400", queries: "cran.qry", qrels: "cranqrel",
		qrelFormat: irQrelsCranfield, queryByPosition: true,
		gains: map[int]float64{1: 4, 2: 3, 3: 2, 4: 1, -1: 0},
		gainNote: "Cranfield relevance codes (Cleverdon): 1 complete answer, 2 high relevance, " +
			"3 useful background, 4 minimum interest, -1 no interest; gain = 5 - code for codes 1..4, 0 for -1",
	}
	medLayout = smartLayout{
		name: "med", archive: "medline/med.tar.gz",
		docs: "MED.ALL", queries: "MED.QRY", qrels: "MED.REL",
		qrelFormat: irQrelsTREC,
		gains:      map[int]float64{1: 1},
		gainNote:   "binary relevance: every judged pair is relevant (level 1, gain 1)",
	}
	cisiLayout = smartLayout{
		name: "cisi", archive: "cisi/cisi.tar.gz",
		docs: "CISI.ALL", queries: "CISI.QRY", qrels: "CISI.REL",
		qrelFormat: irQrelsSMART,
		gains:      map[int]float64{1: 1},
		gainNote:   "binary relevance: every listed pair is relevant (level 1, gain 1)",
	}
	adiLayout = smartLayout{
		name: "adi", archive: "adi/adi.tar.gz",
		docs: "ADI.ALL", queries: "ADI.QRY", qrels: "ADI.REL",
		qrelFormat: irQrelsSMART,
		gains:      map[int]float64{1: 1},
		gainNote:   "binary relevance: every listed pair is relevant (level 1, gain 1)",
	}
)

// ReadCranfield reads Cranfield 1400 from dataDir/cranfield/cran.tar.gz.
func ReadCranfield(dataDir string) (*Collection, error) { return readSMART(dataDir, cranfieldLayout) }

// ReadMED reads MED (MEDLINE 1033) from dataDir/medline/med.tar.gz.
func ReadMED(dataDir string) (*Collection, error) { return readSMART(dataDir, medLayout) }

// ReadCISI reads CISI from dataDir/cisi/cisi.tar.gz.
func ReadCISI(dataDir string) (*Collection, error) { return readSMART(dataDir, cisiLayout) }

// ReadADI reads ADI from dataDir/adi/adi.tar.gz.
func ReadADI(dataDir string) (*Collection, error) { return readSMART(dataDir, adiLayout) }

// readSMART streams the archive once and assembles the Collection.
func readSMART(dataDir string, l smartLayout) (*Collection, error) {
	archive := filepath.Join(dataDir, filepath.FromSlash(l.archive))
	var docRecs, queryRecs []smartRecord
	var qrels []Judgment
	var docLatin1, queryLatin1 latin1Count
	found := map[string]bool{}
	err := EachTarGzMember(archive, func(name string, r io.Reader) error {
		var err error
		switch path.Base(name) {
		case l.docs:
			docRecs, docLatin1, err = parseSMART(r)
		case l.queries:
			queryRecs, queryLatin1, err = parseSMART(r)
		case l.qrels:
			qrels, err = irParseQrels(r, l.qrelFormat)
		default:
			return nil
		}
		found[path.Base(name)] = true
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, m := range []string{l.docs, l.queries, l.qrels} {
		if !found[m] {
			return nil, fmt.Errorf("%s: archive has no member %s", archive, m)
		}
	}
	c := &Collection{Name: l.name, Qrels: qrels, Gains: l.gains, GainNote: l.gainNote}
	c.Warnings = append(c.Warnings, docLatin1.warnings(l.docs)...)
	c.Warnings = append(c.Warnings, queryLatin1.warnings(l.queries)...)
	for _, rec := range docRecs {
		title, body, warn := smartText(rec, l.docs)
		c.Warnings = append(c.Warnings, warn...)
		if title == "" && body == "" {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s .I %d (line %d): empty title and abstract; kept as an empty document", l.docs, rec.Num, rec.Line))
		} else if body == "" {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s .I %d (line %d): empty abstract; text is the title alone", l.docs, rec.Num, rec.Line))
		}
		c.Docs = append(c.Docs, Document{ID: strconv.Itoa(rec.Num), Title: title, Text: irJoinText(title, body)})
	}
	for i, rec := range queryRecs {
		title, body, warn := smartText(rec, l.queries)
		c.Warnings = append(c.Warnings, warn...)
		id := strconv.Itoa(rec.Num)
		if l.queryByPosition {
			id = strconv.Itoa(i + 1)
		}
		text := irJoinText(title, body)
		if text == "" {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s .I %d (line %d): empty query", l.queries, rec.Num, rec.Line))
		}
		c.Queries = append(c.Queries, Query{ID: id, Text: text})
	}
	if err := irCheckQrels(c, archive+": "+l.qrels); err != nil {
		return nil, err
	}
	return c, nil
}
