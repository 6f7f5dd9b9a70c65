package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ReutersFile is the Reuters-21578 Distribution 1.0 archive below the data
// directory (see reuters21578/SOURCE.md).
const ReutersFile = "reuters21578/reuters21578.tar.gz"

// ReutersR8Classes are the eight topics of the R8 subset, sorted.
var ReutersR8Classes = []string{"acq", "crude", "earn", "grain", "interest", "money-fx", "ship", "trade"}

// ReadReuters reads the ModApte split of Reuters-21578 from the data
// directory: 9,603 train and 3,299 test stories. See ReadReutersArchive.
func ReadReuters(dataDir string) (*Collection, error) {
	return ReadReutersArchive(dataFilePath(dataDir, ReutersFile))
}

// ReadReutersR8 reads the R8 subset of Reuters-21578 from the data
// directory: 5,485 train and 2,190 test stories. See ReutersR8.
func ReadReutersR8(dataDir string) (*Collection, error) {
	c, err := ReadReuters(dataDir)
	if err != nil {
		return nil, err
	}
	return ReutersR8(c), nil
}

// ReadReutersArchive reads the ModApte split of a reuters21578.tar.gz
// archive, streaming each reut2-*.sgm member record by record; other
// members (README, DTD, category lists) are ignored.
//
// ModApte (Lewis's README §VIII.B) keeps the stories with TOPICS="YES" and
// LEWISSPLIT "TRAIN" or "TEST"; LEWISSPLIT="NOT-USED" and TOPICS "NO" or
// "BYPASS" are left out. Stories with TOPICS="YES" but an empty <TOPICS>
// element are kept (the split includes them) and counted in Warnings.
//
// Each Document has ID the NEWID attribute, Split "train" or "test", Title
// the <TITLE> text, Text the title, a blank line and the <BODY> text,
// Categories the distinct <D> values of <TOPICS> in file order, and Class
// the topic when there is exactly one ("" otherwise). Collection.Classes lists every
// topic that occurs. Documents are sorted by NEWID.
//
// The SGML is not well-formed XML, so it is read with a small tolerant
// scanner rather than encoding/xml. Quirks handled:
//   - SGML numeric character references &#N; are decoded, as are &lt; &gt;
//     and &amp; (the only named entities used); other "&" text is kept.
//     Decoded (and raw) control characters — the wire-service framing codes
//     &#2; &#3; &#5; &#22; &#31;, and &#127;, which often sits between two
//     words as in "dlr&#127;untied" — become a space, so they neither reach
//     the text as invisible bytes nor glue words together;
//   - raw ">" in text is ordinary text; "<" is always markup;
//   - <TEXT TYPE="BRIEF"> has a title and no body (Text is the title);
//     <TEXT TYPE="UNPROC"> has neither <TITLE> nor <BODY> (Text is the
//     whole <TEXT> content, Title ""); both are counted in Warnings;
//   - <MKNOTE> editor notes, <AUTHOR> and <DATELINE> are not text;
//   - a topic listed twice in one story is kept once: NEWID 19918 (test)
//     has <D>trade</D><D>trade</D> and so is a single-topic "trade" story,
//     and NEWID 5467 repeats "corn"; both are counted in Warnings;
//   - a record that is not valid UTF-8 (reut2-017.sgm has one raw 0xFC
//     byte) is decoded as Latin-1 and counted in Warnings.
//
// An unclosed record or element, a missing or repeated NEWID, or a
// missing TOPICS/LEWISSPLIT attribute is an error naming the member and
// line.
//
// Counts (checked in reuters_test.go): 9,603 train / 3,299 test; the
// topics with at least one train and one test story are the 90 "ApteMod"
// categories, carried by 7,770 train / 3,019 test stories. NLTK's
// "reuters" corpus (ApteMod) has 7,769 train stories: one fewer, not
// investigated (SOURCE.md).
func ReadReutersArchive(archive string) (*Collection, error) {
	type item struct {
		doc Document
		id  int
	}
	var items []item
	var members, latin1, noTopic, brief, unproc, repeated int
	err := EachTarGzMember(archive, func(name string, r io.Reader) error {
		base := path.Base(name)
		if !strings.HasPrefix(base, "reut2-") || !strings.HasSuffix(base, ".sgm") {
			return nil
		}
		members++
		return scanReutersSGML(r, func(line int, rec []byte) error {
			rr, err := parseReutersRecord(rec)
			if err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
			if rr.topicsAttr != "YES" || (rr.lewis != "TRAIN" && rr.lewis != "TEST") {
				return nil
			}
			if rr.latin1 {
				latin1++
			}
			if len(rr.topics) == 0 {
				noTopic++
			}
			if rr.repeated {
				repeated++
			}
			switch rr.textType {
			case "BRIEF":
				brief++
			case "UNPROC":
				unproc++
			}
			d := Document{
				ID:         rr.newID,
				Title:      rr.title,
				Text:       rr.text,
				Categories: rr.topics,
				Split:      strings.ToLower(rr.lewis),
			}
			if len(rr.topics) == 1 {
				d.Class = rr.topics[0]
			}
			id, _ := strconv.Atoi(rr.newID)
			items = append(items, item{d, id})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reuters21578: %w", err)
	}
	if members == 0 {
		return nil, fmt.Errorf("reuters21578: %s: no reut2-*.sgm members found", archive)
	}
	sort.Slice(items, func(a, b int) bool { return items[a].id < items[b].id })
	c := &Collection{Name: "reuters21578", Docs: make([]Document, len(items))}
	seen := map[string]bool{}
	for i, it := range items {
		if i > 0 && it.id == items[i-1].id {
			return nil, fmt.Errorf("reuters21578: %s: NEWID %s occurs twice", archive, it.doc.ID)
		}
		c.Docs[i] = it.doc
		for _, t := range it.doc.Categories {
			if !seen[t] {
				seen[t] = true
				c.Classes = append(c.Classes, t)
			}
		}
	}
	sort.Strings(c.Classes)
	c.warnCount(noTopic, "reuters21578: %d ModApte stories have no TOPICS category (kept, with Class \"\")")
	c.warnCount(brief, "reuters21578: %d ModApte stories are TYPE=\"BRIEF\" (title only)")
	c.warnCount(unproc, "reuters21578: %d ModApte stories are TYPE=\"UNPROC\" (no title/body markup; the whole text is used)")
	c.warnCount(repeated, "reuters21578: %d ModApte stories list a topic twice (repeats dropped)")
	c.warnCount(latin1, "reuters21578: %d ModApte stories were not valid UTF-8 and were decoded as Latin-1")
	return c, nil
}

// ReutersR8 returns the R8 subset of a ModApte collection (as read by
// ReadReutersArchive): the stories with exactly one topic, that topic one
// of ReutersR8Classes. On Reuters-21578 this gives 5,485 train / 2,190
// test. Cardoso-Cachopo's published R8 has 5,485 / 2,189: the difference
// is most likely NEWID 19918, whose TOPICS lists "trade" twice; read as a
// set (as here) it is a single-topic story, read as a list it is not.
// The result shares no slices with c.
func ReutersR8(c *Collection) *Collection {
	keep := map[string]bool{}
	for _, k := range ReutersR8Classes {
		keep[k] = true
	}
	r8 := &Collection{Name: "reuters-r8"}
	present := map[string]bool{}
	for _, d := range c.Docs {
		if len(d.Categories) != 1 || !keep[d.Categories[0]] {
			continue
		}
		d.Categories = []string{d.Categories[0]}
		d.Class = d.Categories[0]
		r8.Docs = append(r8.Docs, d)
		present[d.Class] = true
	}
	for _, k := range ReutersR8Classes {
		if present[k] {
			r8.Classes = append(r8.Classes, k)
		}
	}
	return r8
}

// scanReutersSGML streams r and calls f with each <REUTERS ...> ...
// </REUTERS> record and the 1-based line where it starts. Text outside
// records (the DOCTYPE line) is skipped. A record left open at the end of
// the stream is an error.
func scanReutersSGML(r io.Reader, f func(line int, rec []byte) error) error {
	const startTag, endTag = "<REUTERS", "</REUTERS>"
	br := bufio.NewReaderSize(r, 64<<10)
	var rec, carry []byte
	inRec := false
	done := 0 // lines read completely
	start := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			err = nil // an over-long line: read on in pieces
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("after line %d: %w", done, err)
		}
		cur := done + 1
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			done++
		}
		// pending is the unread text; carry holds the end of the previous
		// piece in case a start tag straddles two pieces of a long line.
		pending := append(carry, chunk...)
		carry = nil
		for len(pending) > 0 {
			searchFrom := 0
			if !inRec {
				i := indexTag(pending, "REUTERS")
				if i < 0 {
					if k := len(pending) - len(startTag); k > 0 {
						pending = pending[k:]
					}
					carry = append([]byte(nil), pending...)
					break
				}
				inRec, start = true, cur
				rec = append(rec[:0], pending[i:]...)
			} else {
				// The end tag may straddle the previous piece.
				searchFrom = max(len(rec)-len(endTag)+1, 0)
				rec = append(rec, pending...)
			}
			pending = nil
			j := bytes.Index(rec[searchFrom:], []byte(endTag))
			if j < 0 {
				break
			}
			end := searchFrom + j + len(endTag)
			if ferr := f(start, rec[:end]); ferr != nil {
				return ferr
			}
			pending = append([]byte(nil), rec[end:]...)
			rec, inRec = rec[:0], false
		}
		if err == io.EOF {
			if inRec {
				return fmt.Errorf("line %d: <REUTERS> record not closed before end of file (truncated?)", start)
			}
			return nil
		}
	}
}

// indexTag returns the index in b of an opening tag "<name" followed by
// white space or ">", or -1.
func indexTag(b []byte, name string) int {
	off := 0
	for {
		i := bytes.Index(b[off:], []byte("<"+name))
		if i < 0 {
			return -1
		}
		k := off + i + 1 + len(name)
		if k == len(b) || b[k] == '>' || b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r' {
			return off + i
		}
		off = k
	}
}

// reutersRecord is what ReadReutersArchive keeps of one <REUTERS> record.
type reutersRecord struct {
	newID, topicsAttr, lewis string
	textType                 string
	title, text              string
	topics                   []string
	latin1, repeated         bool
}

// parseReutersRecord parses one record from "<REUTERS" to "</REUTERS>".
func parseReutersRecord(rec []byte) (reutersRecord, error) {
	var rr reutersRecord
	gt := bytes.IndexByte(rec, '>')
	if gt < 0 {
		return rr, errors.New("<REUTERS tag not closed by '>'")
	}
	attrs := parseSGMLAttrs(rec[len("<REUTERS"):gt])
	rr.newID = attrs["NEWID"]
	if !textIsDigits(rr.newID) {
		return rr, fmt.Errorf("<REUTERS> record without an integer NEWID attribute (got %q)", rr.newID)
	}
	if _, err := strconv.Atoi(rr.newID); err != nil {
		return rr, fmt.Errorf("NEWID %q out of range", rr.newID)
	}
	rr.topicsAttr = attrs["TOPICS"]
	rr.lewis = attrs["LEWISSPLIT"]
	if rr.topicsAttr == "" || rr.lewis == "" {
		return rr, fmt.Errorf("record NEWID=%s lacks the TOPICS or LEWISSPLIT attribute", rr.newID)
	}
	body := rec[gt+1:]
	fail := func(err error) (reutersRecord, error) {
		return rr, fmt.Errorf("record NEWID=%s: %w", rr.newID, err)
	}
	_, topics, _, ok, err := sgmlElement(body, "TOPICS")
	if err != nil {
		return fail(err)
	}
	if ok {
		rest := topics
		for {
			_, d, next, found, err := sgmlElement(rest, "D")
			if err != nil {
				return fail(err)
			}
			if !found {
				break
			}
			rest = rest[next:]
			v, _ := decodeSGMLText(d)
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if slices.Contains(rr.topics, v) {
				rr.repeated = true
			} else {
				rr.topics = append(rr.topics, v)
			}
		}
	}
	textAttrs, text, _, ok, err := sgmlElement(body, "TEXT")
	if err != nil {
		return fail(err)
	}
	if !ok {
		return fail(errors.New("no <TEXT> element"))
	}
	rr.textType = parseSGMLAttrs(textAttrs)["TYPE"]
	_, title, _, hasTitle, err := sgmlElement(text, "TITLE")
	if err != nil {
		return fail(err)
	}
	_, bodyText, _, hasBody, err := sgmlElement(text, "BODY")
	if err != nil {
		return fail(err)
	}
	var l1, l2 bool
	if hasTitle || hasBody {
		rr.title, l1 = decodeSGMLText(title)
		rr.title = strings.TrimSpace(rr.title)
		var b string
		b, l2 = decodeSGMLText(bodyText)
		b = strings.TrimSpace(b)
		switch {
		case rr.title == "":
			rr.text = b
		case b == "":
			rr.text = rr.title
		default:
			rr.text = rr.title + "\n\n" + b
		}
	} else {
		rr.text, l1 = decodeSGMLText(text)
		rr.text = strings.TrimSpace(rr.text)
	}
	rr.latin1 = l1 || l2
	return rr, nil
}

// sgmlElement finds the first <name ...>content</name> in b and returns
// the attribute text of the open tag, the content and the offset just
// after the end tag. found is false when there is no such open tag; an
// open tag without its end tag is an error.
func sgmlElement(b []byte, name string) (attrs, content []byte, next int, found bool, err error) {
	i := indexTag(b, name)
	if i < 0 {
		return nil, nil, 0, false, nil
	}
	gt := bytes.IndexByte(b[i:], '>')
	if gt < 0 {
		return nil, nil, 0, true, fmt.Errorf("<%s tag not closed by '>'", name)
	}
	attrs = b[i+1+len(name) : i+gt]
	open := i + gt + 1
	closeTag := "</" + name + ">"
	end := bytes.Index(b[open:], []byte(closeTag))
	if end < 0 {
		return nil, nil, 0, true, fmt.Errorf("<%s> without %s", name, closeTag)
	}
	return attrs, b[open : open+end], open + end + len(closeTag), true, nil
}

// parseSGMLAttrs reads NAME="value" (or NAME=value) pairs; names are
// upper-cased.
func parseSGMLAttrs(b []byte) map[string]string {
	m := map[string]string{}
	s := string(b)
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return m
		}
		name := strings.ToUpper(strings.TrimSpace(s[:eq]))
		s = strings.TrimLeft(s[eq+1:], " \t\r\n")
		var val string
		if strings.HasPrefix(s, `"`) {
			q := strings.IndexByte(s[1:], '"')
			if q < 0 {
				val, s = s[1:], ""
			} else {
				val, s = s[1:1+q], s[2+q:]
			}
		} else {
			sp := strings.IndexAny(s, " \t\r\n")
			if sp < 0 {
				val, s = s, ""
			} else {
				val, s = s[:sp], s[sp:]
			}
		}
		m[name] = val
	}
}

// decodeSGMLText turns raw SGML character data into text: Latin-1 when it
// is not valid UTF-8, then &#N;, &lt;, &gt; and &amp; decoded, and every
// control character except tab and newline (including DEL and the
// decoded wire codes) replaced by a space.
func decodeSGMLText(raw []byte) (string, bool) {
	s, latin1 := utf8OrLatin1(raw)
	var sb strings.Builder
	sb.Grow(len(s))
	put := func(r rune) {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f {
			r = ' '
		}
		sb.WriteRune(r)
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '&' {
			if r, n := sgmlEntity(s[i:]); n > 0 {
				put(r)
				i += n
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		put(r)
		i += n
	}
	return sb.String(), latin1
}

// sgmlEntity decodes the entity at the start of s ("&#N;", "&lt;", "&gt;",
// "&amp;"), returning the rune and the bytes consumed, or n == 0.
func sgmlEntity(s string) (rune, int) {
	switch {
	case strings.HasPrefix(s, "&lt;"):
		return '<', 4
	case strings.HasPrefix(s, "&gt;"):
		return '>', 4
	case strings.HasPrefix(s, "&amp;"):
		return '&', 5
	case strings.HasPrefix(s, "&#"):
		j := 2
		for j < len(s) && j < 10 && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == 2 || j >= len(s) || s[j] != ';' {
			return 0, 0
		}
		v, err := strconv.Atoi(s[2:j])
		if err != nil || v > utf8.MaxRune || !utf8.ValidRune(rune(v)) {
			return 0, 0
		}
		return rune(v), j + 1
	}
	return 0, 0
}
