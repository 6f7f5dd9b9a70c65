package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/experiments/workflow"
)

// addFactorsFlag adds --factors DIR to transform or rank, which then take
// either RUN or --factors. The choice is checked as the command's Args,
// before its RunE reads any documents, so that a forgotten RUN is reported
// as such and not as an error about --data or --queries.
func addFactorsFlag(cmd *cobra.Command, dir *string) {
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		switch {
		case *dir != "" && len(args) > 0:
			return fmt.Errorf("%s: give a RUN or --factors DIR, not both", cmd.Name())
		case *dir == "" && len(args) != 1:
			return fmt.Errorf("%s: give a RUN (a run directory or id) or --factors DIR", cmd.Name())
		}
		return nil
	}
	cmd.Flags().StringVar(dir, "factors", "", "instead of RUN: factors exported by topicmf-beam export (U.mtx, V.mtx, vocab.txt, doc_ids.txt, vectorizer.json, counts.mtx, factors.json)")
}

// locateFitted finds what transform and rank fold documents into, before
// they read any documents, so that a mistyped RUN or --factors is reported
// as such and at once: the run directory of args[0] (runDir), or
// factorsDir, whose factors.json must read. The command's Args
// (addFactorsFlag) has checked that exactly one is given.
func locateFitted(args []string, root, factorsDir string) (string, error) {
	if factorsDir != "" {
		_, err := workflow.ReadExportManifest(factorsDir)
		return factorsDir, err
	}
	return runDir(args[0], root)
}

// openFitted restores the model of dir, which locateFitted returned: the
// exported factors when fromFactors (workflow.OpenExport), else the fit run's
// saved model (workflow.OpenRun);
// needCounts says that the training counts are needed.
func openFitted(cmd *cobra.Command, dir string, fromFactors, needCounts bool) (*workflow.Run, error) {
	if fromFactors {
		return workflow.OpenExport(dir, dataDirFlag(cmd), needCounts)
	}
	r, err := workflow.OpenRun(dir, dataDirFlag(cmd))
	if damaged, ok := errors.AsType[*store.DamagedError](err); ok {
		_, root, _ := store.RunOf(dir)
		return nil, damagedRun(dir, root, damaged.Err)
	}
	return r, err
}
