package store

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Canonical returns the canonical JSON encoding of v: object keys sorted,
// no insignificant white space, numbers as encoding/json writes them (the
// shortest text that round-trips a float64), no HTML escaping. Two values
// that marshal to equal JSON documents have equal canonical encodings,
// whatever the order of struct fields or map insertion.
func Canonical(v any) ([]byte, error) {
	raw, err := marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, fmt.Errorf("canonical JSON: %w", err)
	}
	return marshal(generic)
}

// CanonicalIndent is Canonical laid out with two-space indentation and a
// final newline, for files people read (config.json). It is as canonical
// as Canonical: the layout depends only on the value.
func CanonicalIndent(v any) ([]byte, error) {
	c, err := Canonical(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, c, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("canonical JSON: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
