package text

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/topicmf/topicmf/internal/fuzzcheck"
)

// FuzzTokenize tokenizes arbitrary text. Every token is non-empty valid
// UTF-8 made only of letters and digits, already lower-cased (ToLower
// leaves it unchanged), IsNumber holds exactly for all-digit tokens, and
// tokenizing the tokens joined by spaces gives them back (tokenizing is
// idempotent). Seeds: testdata/fuzz/FuzzTokenize (lines of the staged
// collections: Latin-1 bytes, entities, apostrophes, digits, scripts with
// combining marks, title-case and special-casing letters).
func FuzzTokenize(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		var toks []string
		fuzzcheck.Within(t, func() { toks = Tokenize(s) })
		if len(toks) == 0 && toks != nil {
			t.Fatalf("an empty non-nil result")
		}
		for _, tok := range toks {
			if tok == "" || !utf8.ValidString(tok) {
				t.Fatalf("token %q empty or not UTF-8", tok)
			}
			digits := true
			for _, r := range tok {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					t.Fatalf("token %q holds %U, neither letter nor digit", tok, r)
				}
				if unicode.ToLower(r) != r {
					t.Fatalf("token %q holds %U, not lower case", tok, r)
				}
				digits = digits && unicode.IsDigit(r)
			}
			if IsNumber(tok) != digits {
				t.Fatalf("IsNumber(%q) = %v", tok, !digits)
			}
		}
		if again := Tokenize(strings.Join(toks, " ")); !slices.Equal(again, toks) {
			t.Fatalf("tokenizing the tokens: %q, want %q", again, toks)
		}
	})
}
