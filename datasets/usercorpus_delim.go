package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// readUserDelimited reads a CSV (comma) or TSV (tab) file with a header
// line (see FormatCSV). Records are read one at a time.
func readUserDelimited(path string, comma rune, o UserOptions) (*Collection, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = comma
	r.ReuseRecord = true
	if comma == '\t' {
		r.LazyQuotes = true // TSV has no quoting convention
	}
	header, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, want a header line naming the columns", path)
	}
	if err != nil {
		return nil, delimError(path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if _, dup := col[h]; dup {
			return nil, fmt.Errorf("%s: line 1: column %q named twice in the header", path, Elide(h, 40))
		}
		col[h] = i
	}
	text, ok := col[o.textCol()]
	if !ok {
		return nil, fmt.Errorf("%s: line 1: no column %q in the header (columns: %s); name the text column with --text-col",
			path, o.textCol(), Elide(strings.Join(header, ", "), 80))
	}
	optional := func(name string, given bool) (int, error) {
		i, ok := col[name]
		switch {
		case ok:
			return i, nil
		case given:
			return -1, fmt.Errorf("%s: line 1: no column %q in the header (columns: %s)", path, name, Elide(strings.Join(header, ", "), 80))
		}
		return -1, nil
	}
	id, err := optional(o.idCol(), o.IDCol != "")
	if err != nil {
		return nil, err
	}
	label, err := optional(o.labelCol(), o.LabelCol != "")
	if err != nil {
		return nil, err
	}
	split, _ := optional("split", false)

	c := &Collection{}
	seen := map[string]string{}
	for n := 1; ; n++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, delimError(path, err)
		}
		line, _ := r.FieldPos(0)
		where := fmt.Sprintf("%s: line %d", path, line)
		d := Document{ID: strconv.Itoa(n), Text: rec[text]}
		if id >= 0 {
			d.ID = strings.TrimSpace(rec[id])
		}
		if err := checkID(seen, d.ID, where); err != nil {
			return nil, err
		}
		if label >= 0 {
			d.Class = strings.TrimSpace(rec[label])
		}
		if split >= 0 {
			d.Split = strings.TrimSpace(rec[split])
		}
		c.Docs = append(c.Docs, d)
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("%s: a header and no records", path)
	}
	return c, nil
}

// delimError turns a csv error into one line naming the file and line.
func delimError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = "wrong number of fields (the header has a different number)"
		}
		return fmt.Errorf("%s: line %d, column %d: %s", path, pe.Line, pe.Column, msg)
	}
	return fmt.Errorf("%s: %w", path, err)
}
