package main

import (
	"io"
	"strings"
	"unicode/utf8"
)

// defaultWidth is the width listings wrap to when stdout is not a
// terminal (a pipe, a file, a test).
const defaultWidth = 100

// listWidth is the width listings on w wrap to: the terminal's (or
// $COLUMNS), at least 40; else defaultWidth.
func listWidth(w io.Writer) int {
	if n := outputWidth(w); n > 0 {
		return max(n, 40)
	}
	return defaultWidth
}

// writeWrapped writes rows under head (nil: none) in columns two spaces apart: every
// column but the last padded to its widest cell, the last wrapped at spaces
// to fit width. When that leaves the last column fewer than 30 runes, it
// goes on lines of its own, indented by four.
func writeWrapped(w io.Writer, width int, head []string, rows [][]string) error {
	all := rows
	if head != nil {
		all = append([][]string{head}, rows...)
	}
	if len(all) == 0 {
		return nil
	}
	n := len(all[0])
	colw := make([]int, n-1)
	for _, r := range all {
		for c := range n - 1 {
			colw[c] = max(colw[c], utf8.RuneCountInString(r[c]))
		}
	}
	indent := 0
	for _, cw := range colw {
		indent += cw + 2
	}
	var b strings.Builder
	for i, r := range all {
		var line strings.Builder
		for c := range n - 1 {
			line.WriteString(pad(r[c], colw[c]) + "  ")
		}
		last := r[n-1]
		switch {
		case i == 0 && head != nil:
			b.WriteString(line.String() + last + "\n")
		case width-indent < 30:
			b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
			for _, l := range wrap(last, width-4) {
				b.WriteString("    " + l + "\n")
			}
		default:
			for j, l := range wrap(last, width-indent) {
				if j == 0 {
					b.WriteString(line.String() + l + "\n")
				} else {
					b.WriteString(strings.Repeat(" ", indent) + l + "\n")
				}
			}
			if last == "" {
				b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
