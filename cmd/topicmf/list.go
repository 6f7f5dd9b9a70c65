package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/experiments"
	_ "github.com/topicmf/topicmf/experiments/all" // registers every experiment
)

func newListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the registered experiments: id, paper reference, title",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPAPER\tTITLE")
			for _, e := range experiments.All() {
				ref := e.Paper.Cite
				if e.Paper.Where != "" {
					if ref != "" {
						ref += ", "
					}
					ref += e.Paper.Where
				}
				if ref == "" {
					ref = "–"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", e.ID, ref, e.Title)
			}
			return tw.Flush()
		},
	}
}
