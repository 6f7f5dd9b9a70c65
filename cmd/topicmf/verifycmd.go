package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/verify"
)

// verifyReports is report --verify (see its help): it recomputes a sample
// of the committed full runs of the experiments named and compares their
// metrics exactly with the committed provenance.json files.
func verifyReports(ctx context.Context, out io.Writer, root string, args []string, budget time.Duration) error {
	var exps []*experiments.Experiment
	seen := map[string]bool{}
	for _, a := range args {
		pat := a
		if !strings.Contains(pat, "/") {
			pat += "/*" // a paper
		}
		es, err := experiments.Get(pat)
		if err != nil {
			return fmt.Errorf("report --verify: no experiment matches %q%s (topicmf list shows them)", a, suggest(a))
		}
		for _, e := range es {
			if !seen[e.ID] {
				seen[e.ID] = true
				exps = append(exps, e)
			}
		}
	}
	committed, without, err := verify.Load(root, exps)
	if err != nil {
		return fmt.Errorf("report --verify: %w", err)
	}
	if len(committed)+len(without) == 0 {
		return fmt.Errorf("report --verify: no committed report of %s under %s (give the results root with --results)", strings.Join(args, ", "), root)
	}
	res, err := verify.Run(ctx, committed, budget, func(c verify.Check) {
		if len(c.Diffs) == 0 {
			fmt.Fprintf(out, "same     %s (%d metrics; recorded %s)\n", c.Job, c.Metrics, c.Recorded.Round(time.Millisecond))
			return
		}
		for _, d := range c.Diffs {
			fmt.Fprintf(out, "DIFFER   %s\n", d)
		}
	})
	if err != nil {
		return fmt.Errorf("report --verify: %w", err)
	}
	for _, d := range res.Unmatched {
		fmt.Fprintf(out, "DIFFER   %s\n", d)
	}
	for _, id := range res.Unsampled {
		fmt.Fprintf(out, "unsampled %s: its cheapest job's recorded time exceeds what is left of the budget\n", id)
	}
	for _, id := range without {
		fmt.Fprintf(out, "MISSING  %s: the committed section has no provenance.json (rendered before provenance was recorded); recompute it with \"topicmf run %s\"\n", id, id)
	}
	differ := 0
	for _, c := range res.Checks {
		if len(c.Diffs) > 0 {
			differ++
		}
	}
	fmt.Fprintf(out, "%d jobs of %d experiments recomputed: %d agree, %d differ; %d experiments not sampled within %v, %d without provenance.json\n",
		len(res.Checks), len(committed)-len(res.Unsampled), len(res.Checks)-differ, differ, len(res.Unsampled), budget, len(without))
	switch {
	case res.Failed():
		return fmt.Errorf("report --verify: %d recomputed jobs differ from the committed reports, %d jobs are on one side only", differ, len(res.Unmatched))
	case len(without) > 0:
		return fmt.Errorf("report --verify: %d committed sections have no provenance.json and cannot be verified", len(without))
	case len(res.Checks) == 0:
		return errors.New("report --verify: nothing was recomputed within the budget")
	}
	return nil
}

// useDataDir points $TOPICMF_DATA, which the experiments read, at
// --data-dir when given; the returned function restores it.
func useDataDir(cmd *cobra.Command) (func(), error) {
	d := dataDirFlag(cmd)
	if d == "" {
		return func() {}, nil
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("--data-dir %s: not an existing directory", d)
	}
	old, had := os.LookupEnv(datasets.EnvDataDir)
	os.Setenv(datasets.EnvDataDir, d)
	return func() {
		if had {
			os.Setenv(datasets.EnvDataDir, old)
		} else {
			os.Unsetenv(datasets.EnvDataDir)
		}
	}, nil
}
