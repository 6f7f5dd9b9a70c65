package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/engine/sparse"
)

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
