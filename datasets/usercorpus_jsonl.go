package datasets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// jsonlRecord is one line of a JSON Lines collection. ID is a string or a
// number; Label may be a string or a number too.
type jsonlRecord struct {
	ID    json.RawMessage `json:"id"`
	Text  *string         `json:"text"`
	Label json.RawMessage `json:"label"`
	Split string          `json:"split"`
}

// readUserJSONL reads a JSON Lines file (see FormatJSONL), one line at a
// time. A line that is not valid UTF-8 is decoded as Latin-1 and counted
// in the warnings.
func readUserJSONL(path string) (*Collection, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := skipBOM(f)
	c := &Collection{}
	seen := map[string]string{}
	latin1 := latin1Count{unit: "line"}
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			if err, ok := recordTooLong(path, err); ok {
				return nil, err
			}
			return nil, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		eof := err != nil
		b = bytes.TrimSpace(b)
		if len(b) > 0 {
			where := fmt.Sprintf("%s: line %d", path, line)
			if s, l1 := utf8OrLatin1(b); l1 {
				b = []byte(s)
				latin1.add(fmt.Sprintf("line %d", line))
			}
			d, perr := parseJSONLRecord(b, line)
			if perr != nil {
				return nil, fmt.Errorf("%s: %v", where, perr)
			}
			if err := checkID(seen, d.ID, where); err != nil {
				return nil, err
			}
			c.Docs = append(c.Docs, d)
		}
		if eof {
			break
		}
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("%s: no records", path)
	}
	c.Warnings = latin1.warnings(path)
	return c, nil
}

// parseJSONLRecord decodes one line; its error never quotes more than a
// short excerpt of the line.
func parseJSONLRecord(b []byte, line int) (Document, error) {
	var rec jsonlRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return Document{}, fmt.Errorf("invalid JSON at byte %d (%s): %s", se.Offset, se.Error(), Elide(string(b), 60))
		case errors.As(err, &te) && te.Field == "":
			return Document{}, fmt.Errorf("the line is a JSON %s, want an object {\"id\": ..., \"text\": ...}: %s", te.Value, Elide(string(b), 60))
		case errors.As(err, &te):
			// The typed fields, "text" and "split", are strings.
			return Document{}, fmt.Errorf("field %q is a JSON %s, want a string", te.Field, te.Value)
		}
		return Document{}, fmt.Errorf("%s: %s", Elide(err.Error(), 80), Elide(string(b), 60))
	}
	if rec.Text == nil {
		return Document{}, fmt.Errorf("no \"text\" field in %s", Elide(string(b), 60))
	}
	id, err := scalar(rec.ID, "id")
	if err != nil {
		return Document{}, err
	}
	if id == "" && len(rec.ID) == 0 {
		id = fmt.Sprint(line)
	}
	label, err := scalar(rec.Label, "label")
	if err != nil {
		return Document{}, err
	}
	return Document{ID: id, Text: *rec.Text, Class: label, Split: strings.TrimSpace(rec.Split)}, nil
}

// scalar returns a JSON string or number as text ("" for absent or null).
func scalar(raw json.RawMessage, field string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s), nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("field %q is %s, want a string or a number", field, Elide(string(raw), 40))
}
