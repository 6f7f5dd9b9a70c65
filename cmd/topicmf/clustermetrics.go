package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/metrics/cluster"
)

// This file prints a labelled corpus's clustering numbers (each document
// in its argmax topic, scored against the labels: purity, NMI, ARI;
// workflow.LabelMetricRows): fit prints the rows of metrics.csv, and eval
// --labels scores an existing run.

// printClusterMetrics prints the clustering rows of the run in dir's
// metrics.csv, if it has them, after fit's status line.
func printClusterMetrics(w io.Writer, dir string) error {
	rows, err := readMetricsCSV(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		return err
	}
	if rows["nmi"] == "" {
		return nil
	}
	_, err = fmt.Fprintf(w, "labels: %s documents in %s classes, argmax topic as cluster: purity %s, NMI %s, ARI %s\n",
		rows["labelled_documents"], rows["classes"], rows["purity"], rows["nmi"], rows["ari"])
	return err
}

// readMetricsCSV reads a run's metrics.csv ("metric,value" rows).
func readMetricsCSV(path string) (map[string]string, error) {
	lines, err := workflow.ReadLines(path, "metric")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, l := range lines[min(1, len(lines)):] {
		name, value, ok := strings.Cut(l, ",")
		if ok {
			out[name] = value
		}
	}
	return out, nil
}

// evalLabels is eval --labels FILE --run RUN: the clustering numbers of a
// fitted run's argmax topics against the labels.
func evalLabels(cmd *cobra.Command, labelsPath, runArg, root string) error {
	dir, err := runDir(runArg, root)
	if err != nil {
		return err
	}
	ids, err := workflow.ReadLines(filepath.Join(dir, "doc_ids.txt"), "document id")
	if err != nil {
		return err
	}
	labels, warnings, err := datasets.ReadLabelsFile(labelsPath, ids)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "topicmf eval: warning:", w)
	}
	v, err := readRunDense(dir, "V.mtx") // K×N
	if err != nil {
		return err
	}
	if _, n := v.Dims(); n != len(ids) {
		return fmt.Errorf("%s: %d documents, doc_ids.txt has %d", filepath.Join(dir, "V.mtx"), n, len(ids))
	}
	s, err := cluster.LabelScores(labels, workflow.ArgmaxTopics(v.T()))
	if err != nil {
		return errors.New(labelsPath + ": no document of the run has a label")
	}
	out := cmd.OutOrStdout()
	for _, r := range workflow.ClusterRows(s) {
		if _, err := fmt.Fprintf(out, "%-22s\t%s\n", r[0], r[1]); err != nil {
			return err
		}
	}
	return nil
}
