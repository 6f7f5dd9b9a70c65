package text

import (
	"strings"
	"unicode"
)

// Tokenize splits s into lower-cased tokens: maximal runs of runes that are
// letters or decimal digits (unicode.IsLetter, unicode.IsDigit), each rune
// lower-cased with unicode.ToLower. Every other rune (space, punctuation,
// apostrophe, hyphen, combining mark, symbol) separates tokens. It returns
// nil for a string without tokens.
func Tokenize(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		flush()
	}
	flush()
	return out
}

// IsNumber reports whether tok is made only of decimal digits (and is not
// empty).
func IsNumber(tok string) bool {
	if tok == "" {
		return false
	}
	for _, r := range tok {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// IsMixed reports whether tok holds both a decimal digit and a letter
// ("b52", "3d", "z6ei4").
func IsMixed(tok string) bool {
	var digit, letter bool
	for _, r := range tok {
		if unicode.IsDigit(r) {
			digit = true
		} else if unicode.IsLetter(r) {
			letter = true
		}
	}
	return digit && letter
}
