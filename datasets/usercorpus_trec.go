package datasets

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// This file reads TREC's SGML document files (FormatTREC), the layout of
// the TREC ad hoc collections (AP, WSJ, FT, LA Times, ...):
//
//	<DOC>
//	<DOCNO> AP880212-0001 </DOCNO>
//	<HEAD>...</HEAD>
//	<TEXT>
//	...
//	</TEXT>
//	</DOC>
//
// A file holds any number of <DOC> elements; the id is DOCNO's content
// (trimmed); the text is the content of the elements TREC's text tags name
// (trecTextTags: TEXT, HEADLINE, HL, HEAD, TITLE, LP, LEADPARA), joined in
// document order, with any markup inside them (<P>, <F P=102>) removed and
// the entities &amp; &lt; &gt; &quot; &apos; decoded. Other elements
// (DATELINE, BYLINE, FILEID, ...) are metadata and not indexed. A <DOC>
// with none of the text elements (NPL's TREC conversion writes its text
// bare) has as text all its content but DOCNO, markup removed. Tag names
// are matched without regard to case. A file may be gzip-compressed (read
// by its magic number, whatever its name). A directory is read file by
// file in walk order (walkUserFiles), every file a TREC file.

// trecTextTags are the elements whose content is a TREC document's text.
var trecTextTags = []string{"TEXT", "HEADLINE", "HL", "HEAD", "TITLE", "LP", "LEADPARA"}

// maxTRECDoc bounds one <DOC> element (64 MiB), so that a file without
// </DOC> is an error rather than the whole file held in memory.
const maxTRECDoc = 64 << 20

// readUserTREC reads a TREC SGML file, or a directory of them.
func readUserTREC(path string) (*Collection, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	c := &Collection{}
	seen := map[string]string{}
	var empty []string // documents without text, "file, DOCNO id"
	read := func(p, name string) error {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		r, err := maybeGunzip(f)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		docs, latin1, err := parseTRECDocs(r, name)
		if err != nil {
			return err
		}
		c.Warnings = append(c.Warnings, latin1...)
		for _, d := range docs {
			if err := checkID(seen, d.ID, fmt.Sprintf("%s: line %d", name, d.line)); err != nil {
				return err
			}
			if strings.TrimSpace(d.Text) == "" {
				empty = append(empty, fmt.Sprintf("%s, DOCNO %s", name, d.ID))
			}
			c.Docs = append(c.Docs, d.Document)
		}
		return nil
	}
	if !fi.IsDir() {
		err = read(path, path)
	} else {
		err = walkUserFiles(path, func(p string, _ fs.FileInfo) error {
			return read(p, p)
		}, func(p, why string) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: not read: %s", p, why))
		})
	}
	if err != nil {
		return nil, err
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("%s: no <DOC> elements", path)
	}
	if len(empty) > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s without text in %s (the first: %s); kept as empty documents",
			path, countNoun(len(empty), "document"), strings.Join(trecTextTags, ", "), empty[0]))
	}
	return c, nil
}

// countNoun is "1 document", "2 documents".
func countNoun(n int, noun string) string { return Plural(n, noun, noun+"s") }

// maybeGunzip returns a reader of f's content, decompressed when f starts
// with gzip's magic number.
func maybeGunzip(f io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(f, 1<<16)
	if b, err := br.Peek(2); err == nil && b[0] == 0x1f && b[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("not a valid gzip file: %w", err)
		}
		return gz, nil
	}
	return br, nil
}

// trecDoc is a parsed document with the line its <DOC> starts on.
type trecDoc struct {
	Document
	line int
}

// parseTRECDocs reads the <DOC> elements of r (named name in errors).
// Anything outside them but white space is an error, as are an element
// left open, a DOC without DOCNO, or a DOC inside a DOC. An element that
// is not valid UTF-8 is decoded as Latin-1 and counted in the warnings.
func parseTRECDocs(r io.Reader, name string) ([]trecDoc, []string, error) {
	br := skipBOM(r)
	var docs []trecDoc
	latin1 := latin1Count{unit: "document"}
	var buf bytes.Buffer
	line, start := 1, 0 // line: the line the next byte read is on
	inDoc := false
	for {
		chunk, err := br.ReadSlice('\n')
		if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, nil, fmt.Errorf("%s: line %d: %w", name, line, err)
		}
		rest := chunk
		for len(rest) > 0 {
			if !inDoc {
				t := bytes.TrimLeft(rest, " \t\r\n")
				if len(t) == 0 {
					break
				}
				if !hasPrefixFold(t, "<DOC>") {
					if len(t) < len("<DOC>") && errors.Is(err, bufio.ErrBufferFull) {
						return nil, nil, fmt.Errorf("%s: line %d: a line longer than 64 KiB outside a <DOC> element", name, line)
					}
					return nil, nil, fmt.Errorf("%s: line %d: text outside a <DOC> element: %q", name, line, Elide(strings.TrimSpace(string(t)), 40))
				}
				inDoc, start = true, line
				buf.Reset()
				rest = t[len("<DOC>"):]
				continue
			}
			// Search the end tag from a little before the new bytes, so
			// that a tag split between two reads is found.
			from := max(buf.Len()-len("</DOC>"), 0)
			buf.Write(rest)
			rest = nil
			end := indexFold(buf.Bytes()[from:], "</DOC>")
			if end < 0 {
				if buf.Len() > maxTRECDoc {
					return nil, nil, fmt.Errorf("%s: line %d: <DOC> longer than %d MiB (no </DOC>?)", name, start, maxTRECDoc>>20)
				}
				break
			}
			end += from
			body := buf.Bytes()[:end]
			rest = bytes.Clone(buf.Bytes()[end+len("</DOC>"):])
			inDoc = false
			if indexFold(body, "<DOC>") >= 0 {
				return nil, nil, fmt.Errorf("%s: line %d: <DOC> inside a <DOC>: the element starting here is not closed", name, start)
			}
			s, l1 := utf8OrLatin1(body)
			if l1 {
				latin1.add(fmt.Sprintf("line %d", start))
			}
			d, derr := trecDocument(s)
			if derr != nil {
				return nil, nil, fmt.Errorf("%s: line %d: %w", name, start, derr)
			}
			docs = append(docs, trecDoc{Document: d, line: start})
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			line++
		}
		if err == io.EOF {
			break
		}
	}
	if inDoc {
		return nil, nil, fmt.Errorf("%s: line %d: <DOC> not closed by </DOC> before the end of the file", name, start)
	}
	return docs, latin1.warnings(name), nil
}

// trecDocument extracts the id and text of one <DOC> element's content.
func trecDocument(body string) (Document, error) {
	ids := trecElements(body, "DOCNO")
	switch {
	case len(ids) == 0:
		return Document{}, errors.New("<DOC> without <DOCNO>…</DOCNO>")
	case len(ids) > 1:
		return Document{}, fmt.Errorf("<DOC> with %d <DOCNO> elements, want one", len(ids))
	}
	id := strings.TrimSpace(ids[0].text)
	var parts []trecElement
	for _, tag := range trecTextTags {
		parts = append(parts, trecElements(body, tag)...)
	}
	// Document order, whatever the tag.
	for i := 1; i < len(parts); i++ {
		for j := i; j > 0 && parts[j].at < parts[j-1].at; j-- {
			parts[j], parts[j-1] = parts[j-1], parts[j]
		}
	}
	if len(parts) == 0 {
		// No text element: the text is the element's content outside
		// DOCNO (NPL's TREC conversion writes its text bare).
		rest := body[:ids[0].at] + " " + body[ids[0].end:]
		return Document{ID: id, Text: strings.TrimSpace(decodeEntities(stripTags(rest)))}, nil
	}
	var text []string
	title := ""
	for _, p := range parts {
		t := strings.TrimSpace(decodeEntities(stripTags(p.text)))
		if t == "" {
			continue
		}
		if title == "" && p.tag != "TEXT" {
			title = t
		}
		text = append(text, t)
	}
	return Document{ID: id, Title: title, Text: strings.Join(text, "\n")}, nil
}

// trecElement is the content of one element and where it starts.
type trecElement struct {
	tag     string
	at, end int // the element is s[at:end], tags included
	text    string
}

// trecElements returns the contents of every <tag ...>…</tag> in s (tag
// names without regard to case; an opening tag may carry attributes). An
// element without its closing tag runs to the end of s.
func trecElements(s, tag string) []trecElement {
	var out []trecElement
	open, closing := "<"+tag, "</"+tag+">"
	for i := 0; i < len(s); {
		j := indexFold([]byte(s[i:]), open)
		if j < 0 {
			break
		}
		j += i
		k := j + len(open)
		if k < len(s) && s[k] != '>' && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' && s[k] != '\r' {
			i = k // a longer tag name (<TEXTX>, <HLX>)
			continue
		}
		gt := strings.IndexByte(s[k:], '>')
		if gt < 0 {
			break
		}
		from := k + gt + 1
		end := indexFold([]byte(s[from:]), closing)
		if end < 0 {
			out = append(out, trecElement{tag: tag, at: j, end: len(s), text: s[from:]})
			break
		}
		out = append(out, trecElement{tag: tag, at: j, end: from + end + len(closing), text: s[from : from+end]})
		i = from + end + len(closing)
	}
	return out
}

// stripTags removes markup "<...>" from s, keeping a space in its place.
func stripTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteByte(' ')
		s = s[i+j+1:]
	}
	return b.String()
}

var entityReplacer = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'")

// decodeEntities decodes SGML's five predefined character entities.
func decodeEntities(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return entityReplacer.Replace(s)
}

// hasPrefixFold reports whether b starts with the ASCII string p, ignoring
// case.
func hasPrefixFold(b []byte, p string) bool {
	return len(b) >= len(p) && bytes.EqualFold(b[:len(p)], []byte(p))
}

// indexFold is the first index of the ASCII string p in b ignoring case, or
// −1.
func indexFold(b []byte, p string) int {
	if len(p) == 0 {
		return 0
	}
	first := p[0] | 0x20
	for i := 0; i+len(p) <= len(b); i++ {
		if b[i]|0x20 == first && bytes.EqualFold(b[i:i+len(p)], []byte(p)) {
			return i
		}
	}
	return -1
}

// looksTREC reports whether path's first non-blank bytes (after
// decompression) are "<DOC>" or "<top>": a TREC document or topic file.
func looksTREC(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r, err := maybeGunzip(f)
	if err != nil {
		return "", nil
	}
	br := skipBOM(r)
	b, _ := br.Peek(4096)
	b = bytes.TrimLeft(b, " \t\r\n")
	switch {
	case hasPrefixFold(b, "<DOC>"):
		return FormatTREC, nil
	case hasPrefixFold(b, "<top>"):
		return FormatTRECTopics, nil
	}
	return "", nil
}
