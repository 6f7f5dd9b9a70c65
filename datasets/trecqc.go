package datasets

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// This file reads the TREC question classification data of Li and Roth
// (UIUC), as packaged by NLTK in qc.zip: qc/train.txt (train_5500.label,
// 5,452 questions) and qc/test.txt (TREC_10.label, 500 questions), one
// question per line as "COARSE:fine question tokens ...".
//
// Mapping to a Collection: one Document per line, ID "train-<n>" or
// "test-<n>" with n the question's 1-based position in its file (its line
// number, as the files have no blank lines), Text the question, Split
// "train" or "test", Class the full fine label "COARSE:fine" (e.g.
// "NUM:dist"). Categories holds the two levels of the label hierarchy:
// Categories[0] is the coarse label ("NUM") and Categories[1] the fine
// label written in full ("NUM:dist"), because bare fine names repeat
// across coarse classes ("other", "desc"). Collection.Classes lists the
// distinct fine labels of both splits. There are no queries or judgments.
//
// Encoding: the files are ASCII except for stray bytes above 0x7F (one in
// train.txt, line 66). Every byte above 0x7F is decoded as Latin-1 so the
// text is valid UTF-8; each such line is named in a Warning.

// qcMembers maps the zip members to their splits, in output order.
var qcMembers = []struct{ name, split string }{
	{"qc/train.txt", "train"},
	{"qc/test.txt", "test"},
}

// ReadTRECQC reads dataDir/trec_qc_nltk/qc.zip.
func ReadTRECQC(dataDir string) (*Collection, error) {
	zipPath := filepath.Join(dataDir, "trec_qc_nltk", "qc.zip")
	docs := map[string][]Document{}
	var warnings []string
	err := EachZipMember(zipPath, func(name string, r io.Reader) error {
		for _, m := range qcMembers {
			if name != m.name {
				continue
			}
			d, w, err := qcParseLines(r, m.split, path.Base(name))
			docs[m.split] = d
			warnings = append(warnings, w...)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	c := &Collection{Name: "trec-qc", Warnings: warnings}
	classes := map[string]bool{}
	for _, m := range qcMembers {
		d, ok := docs[m.split]
		if !ok {
			return nil, fmt.Errorf("%s: archive has no member %s", zipPath, m.name)
		}
		for _, doc := range d {
			classes[doc.Class] = true
		}
		c.Docs = append(c.Docs, d...)
	}
	for cl := range classes {
		c.Classes = append(c.Classes, cl)
	}
	sort.Strings(c.Classes)
	return c, nil
}

// qcParseLines reads "COARSE:fine question" lines. Every non-blank line
// must start with a label of two non-empty parts joined by a colon, the
// coarse part upper-case letters, followed by a non-empty question.
func qcParseLines(r io.Reader, split, base string) ([]Document, []string, error) {
	sc := newIRLineScanner(r)
	var docs []Document
	var warnings []string
	for sc.Scan() {
		raw := sc.Text()
		if strings.TrimSpace(raw) == "" {
			continue
		}
		line, n := irLatin1ToUTF8(raw)
		if n > 0 {
			warnings = append(warnings, fmt.Sprintf("%s line %d: %d byte(s) above 0x7F decoded as Latin-1", base, sc.n, n))
		}
		label, question, _ := strings.Cut(line, " ")
		coarse, fine, ok := strings.Cut(label, ":")
		if !ok || coarse == "" || fine == "" || strings.ToUpper(coarse) != coarse {
			return docs, warnings, fmt.Errorf("line %d: expected a label \"COARSE:fine\" then the question, got %q", sc.n, line)
		}
		question = strings.TrimSpace(question)
		if question == "" {
			return docs, warnings, fmt.Errorf("line %d: expected a question after the label %q", sc.n, label)
		}
		docs = append(docs, Document{
			ID:         split + "-" + strconv.Itoa(len(docs)+1),
			Text:       question,
			Class:      label,
			Categories: []string{coarse, label},
			Split:      split,
		})
	}
	return docs, warnings, sc.Err()
}

// irLatin1ToUTF8 decodes s byte by byte as Latin-1 (ISO 8859-1) and returns
// the UTF-8 text with the number of bytes above 0x7F.
func irLatin1ToUTF8(s string) (string, int) {
	high := 0
	for i := 0; i < len(s); i++ {
		if s[i] > 0x7f {
			high++
		}
	}
	if high == 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s) + high)
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String(), high
}
