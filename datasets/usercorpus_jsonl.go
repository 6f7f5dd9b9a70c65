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

// jsonlKeys are the keys a JSON Lines collection's fields are read from
// (UserOptions.TextCol, IDCol, LabelCol; "text", "id", "label" by default).
type jsonlKeys struct {
	text              []string
	id, label         string
	idGiven, lblGiven bool
}

func newJSONLKeys(o UserOptions) jsonlKeys {
	k := jsonlKeys{id: o.idCol(), label: o.labelCol(), idGiven: o.IDCol != "", lblGiven: o.LabelCol != ""}
	for _, t := range strings.Split(o.textCol(), ",") {
		k.text = append(k.text, strings.TrimSpace(t))
	}
	return k
}

// readUserJSONL reads a JSON Lines file (see FormatJSONL), one line at a
// time. A line that is not valid UTF-8 is decoded as Latin-1 and counted
// in the warnings.
func readUserJSONL(path string, o UserOptions) (*Collection, error) {
	keys := newJSONLKeys(o)
	labelled := false
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
			d, hasLabel, perr := parseJSONLRecord(b, line, keys)
			labelled = labelled || hasLabel
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
	if keys.lblGiven && !labelled {
		return nil, fmt.Errorf("%s: no record has the label key %q (--label-col)", path, keys.label)
	}
	c.Warnings = latin1.warnings(path)
	return c, nil
}

// parseJSONLRecord decodes one line with keys; hasLabel says whether it
// has the label key. Its error never quotes more than a short excerpt of
// the line.
func parseJSONLRecord(b []byte, line int, keys jsonlKeys) (d Document, hasLabel bool, err error) {
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(b, &rec); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return d, false, fmt.Errorf("invalid JSON at byte %d (%s): %s", se.Offset, se.Error(), Elide(string(b), 60))
		case errors.As(err, &te):
			return d, false, fmt.Errorf("the line is a JSON %s, want an object {\"id\": ..., \"text\": ...}: %s", te.Value, Elide(string(b), 60))
		}
		return d, false, fmt.Errorf("%s: %s", Elide(err.Error(), 80), Elide(string(b), 60))
	}
	if rec == nil { // the line is null
		return d, false, fmt.Errorf("the line is a JSON null, want an object {\"id\": ..., \"text\": ...}")
	}
	var texts []string
	for _, k := range keys.text {
		raw, ok := rec[k]
		if !ok {
			if len(keys.text) == 1 && k == "text" {
				return d, false, fmt.Errorf("no \"text\" field in %s; name the text key with --text-col", Elide(string(b), 60))
			}
			return d, false, fmt.Errorf("no %q field (--text-col) in %s", k, Elide(string(b), 60))
		}
		var t string
		if err := json.Unmarshal(raw, &t); err != nil {
			return d, false, fmt.Errorf("field %q is a JSON %s (%s), want a string", k, jsonKind(raw), Elide(string(raw), 40))
		}
		texts = append(texts, t)
	}
	idRaw, hasID := rec[keys.id]
	if keys.idGiven && !hasID {
		return d, false, fmt.Errorf("no %q field (--id-col) in %s", keys.id, Elide(string(b), 60))
	}
	id, err := scalar(idRaw, keys.id)
	if err != nil {
		return d, false, err
	}
	if id == "" && len(idRaw) == 0 {
		id = fmt.Sprint(line)
	}
	labelRaw, hasLabel := rec[keys.label]
	label, err := scalar(labelRaw, keys.label)
	if err != nil {
		return d, false, err
	}
	split := ""
	if raw, ok := rec["split"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &split); err != nil {
			return d, false, fmt.Errorf("field \"split\" is a JSON %s (%s), want a string", jsonKind(raw), Elide(string(raw), 40))
		}
	}
	return Document{ID: id, Text: strings.Join(texts, "\n"), Class: label, Split: strings.TrimSpace(split)}, hasLabel, nil
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

// jsonKind names the kind of a JSON value for an error message.
func jsonKind(raw json.RawMessage) string {
	switch t := bytes.TrimSpace(raw); {
	case len(t) == 0:
		return "nothing"
	case t[0] == '"':
		return "string"
	case t[0] == '{':
		return "object"
	case t[0] == '[':
		return "array"
	case t[0] == 't' || t[0] == 'f':
		return "bool"
	case t[0] == 'n':
		return "null"
	}
	return "number"
}
