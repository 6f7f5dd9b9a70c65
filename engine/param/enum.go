package param

import "fmt"

// Enum is the name table of an enumeration type T whose values are 0, 1,
// …, len(Names)−1 (a parameter such as rlsi.Variant or graphnmf.Weighting):
// it gives the type's String and MarshalText, so that each enumeration
// writes its names once. Parsing stays with the type, which may accept
// aliases.
type Enum[T ~int] struct {
	Pkg   string   // the declaring package, prefix of the messages ("rlsi")
	Type  string   // the type's name ("Variant")
	Noun  string   // what a value is, with its article ("a variant")
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
// ("rlsi: Variant(9) is not a variant").
func (e Enum[T]) MarshalText(v T) ([]byte, error) {
	if v < 0 || int(v) >= len(e.Names) {
		return nil, fmt.Errorf("%s: %s(%d) is not %s", e.Pkg, e.Type, int(v), e.Noun)
	}
	return []byte(e.Names[v]), nil
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
