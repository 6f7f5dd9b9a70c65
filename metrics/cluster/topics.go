package cluster

import (
	"errors"
	"fmt"
)

// ArgmaxTopics assigns each document to the topic of its largest weight,
// the hard clustering a topic model gives (Xu, Liu, Gong, "Document
// clustering based on non-negative matrix factorization", SIGIR 2003, §3:
// document i goes to cluster argmax_k V_ik). weight(i) returns document
// i's K topic weights; ties go to the lowest topic; a document whose
// weights are all NaN is assigned −1 (unassigned).
func ArgmaxTopics(n int, weight func(i int) []float64) []int {
	out := make([]int, n)
	for i := range n {
		best := -1
		for k, w := range weight(i) {
			if w == w && (best < 0 || w > weight(i)[best]) {
				best = k
			}
		}
		out[i] = best
	}
	return out
}

// LabelScores scores the clusters of documents against their class labels:
// labels[i] is document i's class name, "" or "-" for none; such documents,
// and unassigned ones (cluster −1), are left out. It is an error when no
// document is left, or the two slices differ in length.
func LabelScores(labels []string, clusters []int) (Scores, error) {
	if len(labels) != len(clusters) {
		return Scores{}, fmt.Errorf("cluster: %d labels for %d documents", len(labels), len(clusters))
	}
	id := map[string]int{}
	var truth, pred []int
	for i, l := range labels {
		if l == "" || l == "-" || clusters[i] < 0 {
			continue
		}
		c, ok := id[l]
		if !ok {
			c = len(id)
			id[l] = c
		}
		truth = append(truth, c)
		pred = append(pred, clusters[i])
	}
	if len(truth) == 0 {
		return Scores{}, errors.New("cluster: no labelled document")
	}
	return Evaluate(truth, pred)
}
