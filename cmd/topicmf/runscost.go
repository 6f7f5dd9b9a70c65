package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/topicmf/topicmf/experiments/cost"
)

// Sources of runs --cost (--from).
const (
	costFromAll     = "all"
	costFromRuns    = "runs"
	costFromReports = "reports"
)

// writeCost prints where the time of the runs under root went, per
// experiment and per paper (package cost), as aligned columns or, with
// markdown, as Markdown tables.
func writeCost(out io.Writer, root, from string, markdown bool) error {
	var reports, runs []cost.Group
	superseded := 0
	var err error
	switch from {
	case costFromAll, costFromReports:
		if reports, err = cost.FromReports(root); err != nil {
			return fmt.Errorf("runs --cost: %w", err)
		}
	case costFromRuns:
	default:
		return fmt.Errorf("runs --cost: --from %q: want %s, %s or %s", from, costFromAll, costFromRuns, costFromReports)
	}
	if from != costFromReports {
		fi, statErr := os.Stat(filepath.Join(root, "runs"))
		switch {
		case statErr == nil && fi.IsDir():
			if runs, superseded, err = cost.FromStore(root); err != nil {
				return fmt.Errorf("runs --cost: %w", err)
			}
		case from == costFromRuns:
			return fmt.Errorf("runs --cost: %s holds no runs/ directory (give the results root with --results)", root)
		}
	}
	groups := cost.Merge(reports, runs)
	if len(groups) == 0 {
		return fmt.Errorf("runs --cost: no job with a recorded time under %s (neither runs/<id>/provenance.json nor <paper>/<experiment>/provenance.json)", root)
	}
	t, err := cost.Summarize(groups)
	if err != nil {
		return fmt.Errorf("runs --cost: %w", err)
	}
	t.Superseded = superseded
	if markdown {
		t.WriteMarkdown(out)
	} else {
		t.WriteText(out)
	}
	return nil
}
