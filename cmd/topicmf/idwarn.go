package main

import (
	"fmt"
	"strings"
	"unicode"
)

// spacedIDsWarning returns the warning, "" when none, for document ids
// that hold white space (or are empty): transform writes them, but rank
// cannot, since a TREC run's fields are separated by white space
// (ir.CheckDocID). It names the first such id and how many there are.
func spacedIDsWarning(ids []string) string {
	n, first := 0, ""
	for _, id := range ids {
		if id == "" || strings.IndexFunc(id, unicode.IsSpace) >= 0 {
			if n == 0 {
				first = id
			}
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d document ids hold white space or are empty (the first: %q): transform writes them, but rank cannot put them in a TREC run", n, first)
}
