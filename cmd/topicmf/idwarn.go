package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/topicmf/topicmf/engine/sparse"
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

// emptyRowsWarning returns the warning, "" when none, for the rows of m
// (one per text, ids[i] naming row i) that are empty: texts with no term
// of the run's vocabulary, or none left once weighted. what names the
// texts ("documents", "queries") and consequence says what follows. It
// counts them and names the first three.
func emptyRowsWarning(m *sparse.CSR, ids []string, what, consequence string) string {
	var empty []string
	for i := range m.Rows {
		if m.RowPtr[i] == m.RowPtr[i+1] {
			empty = append(empty, strconv.Quote(ids[i]))
		}
	}
	if len(empty) == 0 {
		return ""
	}
	first := strings.Join(empty[:min(3, len(empty))], ", ")
	if len(empty) > 3 {
		first += ", …"
	}
	return fmt.Sprintf("%d of %d %s have no term of the run's vocabulary (%s): %s", len(empty), m.Rows, what, first, consequence)
}
