package param

import (
	"fmt"
	"strings"
)

// Enum is the name table of an enumeration type T whose values are 0, 1,
// …, len(Names)−1 (a parameter such as rlsi.Variant or graphnmf.Weighting):
// it gives the type's String, MarshalText and parsing, so that each
// enumeration writes its names once. A type whose parser accepts aliases
// uses Lookup and Unknown around them.
type Enum[T ~int] struct {
	Pkg   string   // the declaring package, prefix of the messages ("rlsi")
	Type  string   // the type's name ("Variant")
	Noun  string   // what a value is, in the messages ("variant")
	Names []string // the name of each value, indexed by the value
}

// String is v's name, or "Type(v)" for a value outside the table.
func (e Enum[T]) String(v T) string {
	if v >= 0 && int(v) < len(e.Names) {
		return e.Names[v]
	}
	return fmt.Sprintf("%s(%d)", e.Type, int(v))
}

// MarshalText is v's name; a value outside the table is an error
// ("rlsi: Variant(9) is not a valid variant").
func (e Enum[T]) MarshalText(v T) ([]byte, error) {
	if v < 0 || int(v) >= len(e.Names) {
		return nil, fmt.Errorf("%s: %s(%d) is not a valid %s", e.Pkg, e.Type, int(v), e.Noun)
	}
	return []byte(e.Names[v]), nil
}

// Lookup returns the value named name exactly.
func (e Enum[T]) Lookup(name string) (T, bool) {
	for v, n := range e.Names {
		if n == name {
			return T(v), true
		}
	}
	return 0, false
}

// Parse reads a name of the table, "" meaning the first value (the
// default); any other string is Unknown.
func (e Enum[T]) Parse(s string) (T, error) {
	if s == "" {
		return 0, nil
	}
	if v, ok := e.Lookup(s); ok {
		return v, nil
	}
	return 0, e.Unknown(s)
}

// Unknown is the error for s, which names no value: it lists the names
// ("graphnmf: unknown weighting "x" (want binary, heat or cosine)").
func (e Enum[T]) Unknown(s string) error {
	want := e.Names[len(e.Names)-1]
	if len(e.Names) > 1 {
		want = strings.Join(e.Names[:len(e.Names)-1], ", ") + " or " + want
	}
	return fmt.Errorf("%s: unknown %s %q (want %s)", e.Pkg, e.Noun, s, want)
}

// UnmarshalText sets *dst to parse(b), the enumeration's own parser; on an
// error *dst is unchanged.
func UnmarshalText[T any](dst *T, b []byte, parse func(string) (T, error)) error {
	x, err := parse(string(b))
	if err == nil {
		*dst = x
	}
	return err
}
