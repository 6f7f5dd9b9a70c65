package datasets

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// recordReader yields the records of a delimited file one at a time, each
// with the line it starts on; io.EOF after the last.
type recordReader interface {
	Read() (rec []string, line int, err error)
}

// csvRecords reads RFC 4180 CSV: a field may be quoted ("a, b"), and a
// quoted field may hold commas, doubled quotes and newlines.
type csvRecords struct {
	path string
	r    *csv.Reader
}

func newCSVRecords(path string, r io.Reader) *csvRecords {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1 // counted by readUserDelimited, for TSV alike
	return &csvRecords{path: path, r: cr}
}

func (c *csvRecords) Read() ([]string, int, error) {
	rec, err := c.r.Read()
	if err != nil {
		if err == io.EOF {
			return nil, 0, err
		}
		return nil, 0, csvError(c.path, err)
	}
	line, _ := c.r.FieldPos(0)
	return rec, line, nil
}

// csvError turns a csv error into one line naming the file and the line
// the record starts on, where the quote to look at usually is (a quote
// left open is found only at the end of the file), and the line the
// reader stopped at when it differs.
func csvError(path string, err error) error {
	if err, ok := recordTooLong(path, err); ok {
		return err
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, err)
	}
	if pe.StartLine == pe.Line {
		return fmt.Errorf("%s: line %d, column %d: %s", path, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: line %d: %s (in the record starting on this line, a quoted field runs on; the reader stopped at line %d, column %d)",
		path, pe.StartLine, pe.Err, pe.Line, pe.Column)
}

// tsvRecords reads tab-separated values: a record is one line, its fields
// are split at every tab, and a quote is an ordinary character (there is
// no quoting, so a field cannot hold a tab or a newline). A CR before the
// newline is dropped; blank lines are skipped, as CSV's are.
type tsvRecords struct {
	path string
	r    *bufio.Reader
	line int
}

func newTSVRecords(path string, r *bufio.Reader) *tsvRecords {
	return &tsvRecords{path: path, r: r}
}

func (t *tsvRecords) Read() ([]string, int, error) {
	for {
		s, err := t.r.ReadString('\n')
		if err != nil && err != io.EOF {
			if err, ok := recordTooLong(t.path, err); ok {
				return nil, 0, err
			}
			return nil, 0, fmt.Errorf("%s: reading after line %d: %w", t.path, t.line, err)
		}
		if s == "" && err == io.EOF {
			return nil, 0, io.EOF
		}
		t.line++
		s = strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
		if s != "" {
			return strings.Split(s, "\t"), t.line, nil
		}
	}
}

// readUserDelimited reads a CSV (comma) or TSV (tab) file with a header
// line (see FormatCSV). Records are read one at a time. A record that is
// not valid UTF-8 is decoded as Latin-1, all its fields alike, and counted
// in the warnings.
func readUserDelimited(path string, comma rune, o UserOptions) (*Collection, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := skipBOM(f)
	var r recordReader = newCSVRecords(path, br)
	if comma == '\t' {
		r = newTSVRecords(path, br)
	}
	cols, first, err := delimitedColumns(path, r, o)
	if err != nil {
		return nil, err
	}
	latin1 := latin1Count{unit: "record"}
	if first == nil && decodeRecord(cols.header) {
		latin1.add("line 1")
	}
	c := &Collection{}
	seen := map[string]string{}
	for n := 1; ; n++ {
		rec, line := first, cols.firstLine
		first = nil
		if rec == nil {
			if rec, line, err = r.Read(); err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
		}
		where := fmt.Sprintf("%s: line %d", path, line)
		if len(rec) != cols.fields {
			return nil, fmt.Errorf("%s: %d fields, want %d as %s", where, len(rec), cols.fields, cols.fieldsFrom)
		}
		if decodeRecord(rec) {
			latin1.add(fmt.Sprintf("line %d", line))
		}
		texts := make([]string, len(cols.text))
		for i, t := range cols.text {
			texts[i] = rec[t]
		}
		d := Document{ID: strconv.Itoa(n), Text: strings.Join(texts, "\n")}
		if cols.id >= 0 {
			d.ID = strings.TrimSpace(rec[cols.id])
		}
		if err := checkID(seen, d.ID, where); err != nil {
			return nil, err
		}
		if cols.label >= 0 {
			d.Class = strings.TrimSpace(rec[cols.label])
		}
		if cols.split >= 0 {
			d.Split = strings.TrimSpace(rec[cols.split])
		}
		c.Docs = append(c.Docs, d)
	}
	if len(c.Docs) == 0 {
		if o.NoHeader {
			return nil, fmt.Errorf("%s: no records", path)
		}
		return nil, fmt.Errorf("%s: a header and no records", path)
	}
	c.Warnings = latin1.warnings(path)
	return c, nil
}

// delimitedCols are the positions of a delimited file's columns (−1: none).
type delimitedCols struct {
	header           []string // nil without a header
	fields           int      // fields per record
	fieldsFrom       string   // what says so, for the error of a record with more or fewer
	text             []int
	id, label, split int
	firstLine        int // the line of the first record, when it was read to count the fields
}

// delimitedColumns reads the header (or, with NoHeader, the first record,
// returned as first to be read again as a record) and resolves the columns
// o names.
func delimitedColumns(path string, r recordReader, o UserOptions) (cols delimitedCols, first []string, err error) {
	rec, line, err := r.Read()
	if err == io.EOF {
		if o.NoHeader {
			return cols, nil, fmt.Errorf("%s: empty file", path)
		}
		return cols, nil, fmt.Errorf("%s: empty file, want a header line naming the columns", path)
	}
	if err != nil {
		return cols, nil, err
	}
	rec = slices.Clone(rec) // the CSV reader reuses its record
	cols.fields = len(rec)
	cols.split = -1
	if o.NoHeader {
		if o.TextCol == "" {
			return cols, nil, fmt.Errorf("%s: line %d: without a header, name the text column(s) by position with --text-col (e.g. 2 or 2,3; this first line has %d fields)", path, line, len(rec))
		}
		cols.fieldsFrom, cols.firstLine = fmt.Sprintf("on line %d, the first", line), line
		pos := func(flag, spec string) ([]int, error) {
			var out []int
			for _, f := range strings.Split(spec, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil || n < 1 || n > len(rec) {
					return nil, fmt.Errorf("%s: line %d: %s %q: want a column position 1..%d (the file has no header: columns are numbered)", path, line, flag, f, len(rec))
				}
				out = append(out, n-1)
			}
			return out, nil
		}
		if cols.text, err = pos("--text-col", o.TextCol); err != nil {
			return cols, nil, err
		}
		cols.id, cols.label = -1, -1
		for _, c := range []struct {
			flag, spec string
			to         *int
		}{{"--id-col", o.IDCol, &cols.id}, {"--label-col", o.LabelCol, &cols.label}} {
			if c.spec == "" {
				continue
			}
			p, err := pos(c.flag, c.spec)
			if err != nil {
				return cols, nil, err
			}
			if len(p) != 1 {
				return cols, nil, fmt.Errorf("%s: line %d: %s %q: want one column", path, line, c.flag, c.spec)
			}
			*c.to = p[0]
		}
		return cols, rec, nil
	}
	cols.header, cols.fieldsFrom = rec, "in the header"
	col := map[string]int{}
	for i, h := range rec {
		h = strings.TrimSpace(h)
		if _, dup := col[h]; dup {
			return cols, nil, fmt.Errorf("%s: line 1: column %q named twice in the header", path, Elide(h, 40))
		}
		col[h] = i
	}
	for _, name := range strings.Split(o.textCol(), ",") {
		name = strings.TrimSpace(name)
		i, ok := col[name]
		if !ok {
			return cols, nil, fmt.Errorf("%s: line 1: no column %q in the header (columns: %s); name the text column with --text-col, or give --no-header if the file has none",
				path, name, columnList(rec))
		}
		cols.text = append(cols.text, i)
	}
	optional := func(name string, given bool) (int, error) {
		i, ok := col[name]
		switch {
		case ok:
			return i, nil
		case given:
			return -1, fmt.Errorf("%s: line 1: no column %q in the header (columns: %s)", path, name, columnList(rec))
		}
		return -1, nil
	}
	if cols.id, err = optional(o.idCol(), o.IDCol != ""); err != nil {
		return cols, nil, err
	}
	if cols.label, err = optional(o.labelCol(), o.LabelCol != ""); err != nil {
		return cols, nil, err
	}
	cols.split, _ = optional("split", false)
	return cols, nil, nil
}

// columnList lists a header's column names for an error message, a name
// holding a control character (a quoted CSV name may hold a newline)
// quoted, so that the message stays one line.
func columnList(header []string) string {
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = h
		if strings.ContainsFunc(h, unicode.IsControl) {
			names[i] = strconv.Quote(h)
		}
	}
	return Elide(strings.Join(names, ", "), 80)
}

// decodeRecord decodes rec in place as Latin-1, every field, when any of
// its fields is not valid UTF-8 (see utf8OrLatin1), and reports whether it
// did.
func decodeRecord(rec []string) bool {
	for _, f := range rec {
		if !utf8.ValidString(f) {
			for i, g := range rec {
				rec[i] = latin1String(g)
			}
			return true
		}
	}
	return false
}
