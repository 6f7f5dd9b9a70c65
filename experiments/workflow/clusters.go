package workflow

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/metrics/cluster"
)

// A labelled corpus gets its clustering numbers: each document goes to its
// argmax topic (cluster.ArgmaxTopics) and the clusters are scored against
// the labels (purity, NMI, ARI; metrics/cluster), as rows of a fit run's
// metrics.csv.

// LabelMetricRows are metrics.csv's clustering rows for a corpus with
// labels (none without): vt is the N×K document-topic matrix.
func LabelMetricRows(corpus *engine.Corpus, vt mat.Matrix) [][]string {
	if corpus.Labels == nil {
		return nil
	}
	labels := make([]string, len(corpus.Labels))
	for i, l := range corpus.Labels {
		if l >= 0 {
			labels[i] = corpus.ClassNames[l]
		}
	}
	s, err := cluster.LabelScores(labels, ArgmaxTopics(vt))
	if err != nil { // no labelled document: nothing to score
		return nil
	}
	return ClusterRows(s)
}

// ArgmaxTopics is each row's argmax of the N×K matrix vt.
func ArgmaxTopics(vt mat.Matrix) []int {
	n, k := vt.Dims()
	row := make([]float64, k)
	return cluster.ArgmaxTopics(n, func(i int) []float64 {
		for t := range k {
			row[t] = vt.At(i, t)
		}
		return row
	})
}

// ClusterRows are the metrics.csv rows of s.
func ClusterRows(s cluster.Scores) [][]string {
	return [][]string{
		{"labelled_documents", fmt.Sprint(s.N)},
		{"classes", fmt.Sprint(s.Classes)},
		{"purity", store.FormatFloat(s.Purity)},
		{"nmi", store.FormatFloat(s.NMI)},
		{"ari", store.FormatFloat(s.ARI)},
	}
}
