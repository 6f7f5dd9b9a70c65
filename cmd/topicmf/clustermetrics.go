package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/metrics/cluster"
)

// This file gives a labelled corpus its clustering numbers: each document
// goes to its argmax topic (cluster.ArgmaxTopics) and the clusters are
// scored against the labels (purity, NMI, ARI; metrics/cluster), by fit
// for the corpus it fits (rows of metrics.csv, printed) and by eval
// --labels for an existing run.

// labelMetricRows are metrics.csv's clustering rows for a corpus with
// labels (none without): vt is the N×K document-topic matrix.
func labelMetricRows(corpus *engine.Corpus, vt mat.Matrix) [][]string {
	if corpus.Labels == nil {
		return nil
	}
	labels := make([]string, len(corpus.Labels))
	for i, l := range corpus.Labels {
		if l >= 0 {
			labels[i] = corpus.ClassNames[l]
		}
	}
	s, err := cluster.LabelScores(labels, argmaxTopics(vt))
	if err != nil { // no labelled document: nothing to score
		return nil
	}
	return clusterRows(s)
}

// argmaxTopics is each row's argmax of the N×K matrix vt.
func argmaxTopics(vt mat.Matrix) []int {
	n, k := vt.Dims()
	row := make([]float64, k)
	return cluster.ArgmaxTopics(n, func(i int) []float64 {
		for t := range k {
			row[t] = vt.At(i, t)
		}
		return row
	})
}

// clusterRows are the metrics.csv rows of s.
func clusterRows(s cluster.Scores) [][]string {
	return [][]string{
		{"labelled_documents", fmt.Sprint(s.N)},
		{"classes", fmt.Sprint(s.Classes)},
		{"purity", store.FormatFloat(s.Purity)},
		{"nmi", store.FormatFloat(s.NMI)},
		{"ari", store.FormatFloat(s.ARI)},
	}
}

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
	lines, err := readLines(path, "metric")
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
	ids, err := readLines(filepath.Join(dir, "doc_ids.txt"), "document id")
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
	s, err := cluster.LabelScores(labels, argmaxTopics(v.T()))
	if err != nil {
		return errors.New(labelsPath + ": no document of the run has a label")
	}
	out := cmd.OutOrStdout()
	for _, r := range clusterRows(s) {
		if _, err := fmt.Fprintf(out, "%-22s\t%s\n", r[0], r[1]); err != nil {
			return err
		}
	}
	return nil
}
