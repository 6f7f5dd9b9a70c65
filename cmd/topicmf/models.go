package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/report"
)

// modelsWidth is the width the models listing wraps to.
const modelsWidth = 80

func newModelsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "models [NAME]",
		Short: "List the model families with their parameters, defaults, ranges and docs",
		Long: `models lists every model family that fit and the experiments accept, with
each parameter's key, default, accepted range and one-line doc; with NAME,
only that family. Give a parameter to fit as --param key=value, the seed as
--seed. DEFAULT is the value fit (and the notebook API) uses for an absent key; one
marked * is the front ends' own, declared with the family (engine/catalog),
and the note under the table gives the declared default, which the paper
experiments use. An explicit 0 means 0. A range [a,inf) is an
interval of numbers, a|b|c the accepted words; "any" is any finite number.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fams := catalog.Families()
			if len(args) == 1 {
				f, err := catalog.Lookup(args[0])
				if err != nil {
					return fmt.Errorf("models: %w", err)
				}
				fams = []catalog.Family{f}
			}
			w := cmd.OutOrStdout()
			for i, f := range fams {
				if i > 0 {
					fmt.Fprintln(w)
				}
				writeFamily(w, f)
			}
			return nil
		},
	}
}

// writeFamily writes a family's name, its doc wrapped and indented, and a
// table of its parameters whose doc column wraps within modelsWidth.
func writeFamily(w io.Writer, f catalog.Family) {
	fmt.Fprintln(w, f.Name)
	for _, line := range wrap(f.Doc, modelsWidth-2) {
		fmt.Fprintln(w, "  "+line)
	}
	fmt.Fprintln(w)
	rows := [][3]string{{"PARAMETER", "DEFAULT", "RANGE"}}
	var library []string // key=default of the library where fit's differs
	for _, p := range f.Params {
		r := p.Range
		if r == "" {
			r = "any"
		}
		def, own := f.FrontEnd.Params[p.Key]
		if own {
			library = append(library, p.Key+"="+p.Default)
			def += "*"
		} else {
			def = p.Default
		}
		rows = append(rows, [3]string{p.Key, def, r})
	}
	var width [3]int
	for _, r := range rows {
		for c, s := range r {
			width[c] = max(width[c], utf8.RuneCountInString(s))
		}
	}
	indent := 2 + width[0] + 2 + width[1] + 2 + width[2] + 2
	for i, r := range rows {
		line := "  " + pad(r[0], width[0]) + "  " + pad(r[1], width[1]) + "  " + pad(r[2], width[2])
		if i == 0 {
			fmt.Fprintln(w, line+"  DOC")
			continue
		}
		// A doc too narrow to read beside the table goes on its own lines.
		if modelsWidth-indent < 30 {
			fmt.Fprintln(w, strings.TrimRight(line, " "))
			for _, d := range wrap(f.Params[i-1].Doc, modelsWidth-6) {
				fmt.Fprintln(w, "      "+d)
			}
			continue
		}
		for j, d := range wrap(f.Params[i-1].Doc, modelsWidth-indent) {
			if j == 0 {
				fmt.Fprintln(w, line+"  "+d)
			} else {
				fmt.Fprintln(w, strings.Repeat(" ", indent)+d)
			}
		}
	}
	// Notes: the front-end defaults, as a hanging paragraph under the "*".
	if len(library) > 0 {
		note := "* the front ends' default (fit, the notebook API, experiments/workflow): " + f.FrontEnd.Why +
			"; the declared default, which the paper experiments use: " + strings.Join(library, ", ") + "."
		for j, line := range wrap(note, modelsWidth-4) {
			fmt.Fprintln(w, strings.Repeat(" ", 2+2*min(j, 1))+line)
		}
	}
	if f.FrontEnd.Counts {
		for _, line := range wrap("fit builds "+f.Name+"'s text corpus of raw word counts (--weighting tf --norm none), "+f.FrontEnd.Why+", unless --weighting or --norm is given.", modelsWidth-2) {
			fmt.Fprintln(w, "  "+line)
		}
	}
}

// pad right-pads s with spaces to n runes.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(n-utf8.RuneCountInString(s), 0))
}

// wrap breaks text into lines of at most width runes at spaces; a word
// longer than width has a line of its own.
func wrap(text string, width int) []string {
	return report.WrapWords(text, func(line string) bool { return utf8.RuneCountInString(line) <= width })
}
