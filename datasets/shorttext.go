package datasets

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// utf8BOM is the byte-order mark that opens the STC² SearchSnippets.txt.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ReadShortText reads a short-text clustering benchmark stored as two
// parallel line files (optionally gzip'ed, by the .gz suffix): line i of
// textPath is document i and line i of labelPath its integer class. This is
// the layout of the STTM survey sets (X.txt with X_label.txt, or
// Tweet_LABEL.txt for Tweet) and of the STC² raw sets (X.txt with
// X_gnd.txt); name becomes Collection.Name.
//
// Each Document has ID its 1-based line number ("1", "2", ...), Text the
// line (without "\r" or "\n") and Class the label as written (surrounding
// white space trimmed). The collections have no split. Quirks handled:
//   - a UTF-8 byte-order mark opening either file is dropped (STC²
//     SearchSnippets.txt starts with one);
//   - a line that is not valid UTF-8 is decoded as Latin-1 (none is, in the
//     staged files) and counted in Warnings;
//   - empty text lines are kept as empty documents, so line numbers stay
//     aligned with the labels, and counted in Warnings (the staged files
//     have none).
//
// A label line that is not an integer is an error naming the file, line
// and the expectation; files with different line counts are an error
// naming both files and both counts. Collection.Classes is sorted by
// numeric value ("1", "2", ..., "10"), not as strings.
func ReadShortText(name, textPath, labelPath string) (*Collection, error) {
	var docs []Document
	var latin1, empty int
	err := readLineFile(textPath, func(n int, line []byte) error {
		if n == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		s, l1 := utf8OrLatin1(line)
		if l1 {
			latin1++
		}
		if strings.TrimSpace(s) == "" {
			empty++
		}
		docs = append(docs, Document{ID: strconv.Itoa(n), Text: s})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var labels []string
	classValue := map[string]int{}
	err = readLineFile(labelPath, func(n int, line []byte) error {
		if n == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		s := strings.TrimSpace(string(line))
		v, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%s: line %d: expected an integer class label, found %q", labelPath, n, s)
		}
		classValue[s] = v
		labels = append(labels, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(labels) != len(docs) {
		return nil, fmt.Errorf("%s: parallel files differ in length: %s has %d lines, %s has %d lines",
			name, textPath, len(docs), labelPath, len(labels))
	}
	c := &Collection{Name: name, Docs: docs}
	for i := range docs {
		docs[i].Class = labels[i]
	}
	for k := range classValue {
		c.Classes = append(c.Classes, k)
	}
	sort.Slice(c.Classes, func(a, b int) bool {
		x, y := classValue[c.Classes[a]], classValue[c.Classes[b]]
		if x != y {
			return x < y
		}
		return c.Classes[a] < c.Classes[b] // "1" and "01"
	})
	if latin1 > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %d lines of %s were not valid UTF-8 and were decoded as Latin-1", name, latin1, textPath))
	}
	if empty > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %d empty documents in %s (kept, to keep lines aligned with labels)", name, empty, textPath))
	}
	return c, nil
}

// readLineFile opens path (gunzipping a .gz) and calls f for each line.
func readLineFile(path string, f func(n int, line []byte) error) error {
	rc, err := OpenMaybeGzip(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	return eachTextLine(path, rc, f)
}
