package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/experiments"
	_ "github.com/topicmf/topicmf/experiments/all" // registers every experiment
	"github.com/topicmf/topicmf/experiments/report"
)

func newReportCmd() *cobra.Command {
	var (
		quick      bool
		resultsDir string
	)
	cmd := &cobra.Command{
		Use:   "report PAPER... [--results DIR] [--quick]",
		Short: "Re-assemble <results>/<paper>/REPORT.md from the experiment sections present",
		Long: `report rewrites <results>/<paper>/REPORT.md from the sections
(<results>/<paper>/<experiment>/section.md) that are there, listing the
registered experiments without one as not run yet. It computes nothing: use it
after copying sections rendered by runs on other machines or at other times
into one results tree. run does the same after every experiment.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := resultsDir
			if quick {
				root = filepath.Join(root, "quick")
			}
			for _, paper := range args {
				exps, err := experiments.Get(paper + "/*")
				if err != nil {
					return err
				}
				dir := report.PaperDir(root, exps[0])
				if _, err := os.Stat(dir); err != nil {
					return fmt.Errorf("report %s: %w", paper, err)
				}
				if err := report.Assemble(dir, exps, quick); err != nil {
					return fmt.Errorf("report %s: %w", paper, err)
				}
				fmt.Fprintln(cmd.OutOrStdout(), filepath.Join(dir, report.ReportFile))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&quick, "quick", false, "assemble the quick report (<results>/quick/<paper>/)")
	f.StringVar(&resultsDir, "results", "results", "results root holding <paper>/<experiment>/section.md")
	return cmd
}
