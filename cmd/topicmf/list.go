package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/experiments"
	_ "github.com/topicmf/topicmf/experiments/all" // registers every experiment
	"github.com/topicmf/topicmf/experiments/report"
)

func newListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the registered experiments by paper: id, title, where in the paper",
		Long: `list shows every registered experiment, grouped by the paper it reproduces
(the paper's citation and title head each group), with its title and where in
the paper it comes from, wrapped to the terminal's width (100 columns when
the output is not a terminal). "topicmf run ID" runs one; "topicmf run
PAPER" (e.g. rlsi2011) runs a paper's.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			width := listWidth(out)
			var groups [][]*experiments.Experiment
			for _, e := range experiments.All() {
				if n := len(groups); n > 0 && groups[n-1][0].PaperKey() == e.PaperKey() {
					groups[n-1] = append(groups[n-1], e)
				} else {
					groups = append(groups, []*experiments.Experiment{e})
				}
			}
			for i, g := range groups {
				if i > 0 {
					fmt.Fprintln(out)
				}
				// The paper heads the group when every experiment cites it.
				paper := g[0].Paper
				for _, e := range g {
					if e.Paper.Reference != paper.Reference || e.Paper.Cite != paper.Cite {
						paper = experiments.PaperRef{}
					}
				}
				head := g[0].PaperKey()
				if t := report.ShortTitle(paper); t != "" {
					head += " — " + t
				}
				for _, l := range wrap(head, width) {
					fmt.Fprintln(out, l)
				}
				var rows [][]string
				for _, e := range g {
					where := e.Paper.Where
					if paper.Cite == "" {
						where = e.Paper.String()
					}
					text := e.Title
					if where = strings.TrimSpace(where); where != "" {
						text += " [" + where + "]"
					}
					rows = append(rows, []string{"  " + e.ID, text})
				}
				if err := writeWrapped(out, width, nil, rows); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
