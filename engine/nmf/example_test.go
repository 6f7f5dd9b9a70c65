package nmf_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/nmf"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// Fit NMF to a corpus drawn from 4 planted topics (300 terms, 400
// documents, tf-idf weights) and compare the learned topics, the columns
// of U, with the planted ones; then fold the training documents in again.
func Example() {
	c, truth, err := synthetic.Generate(synthetic.Config{M: 300, N: 400, P: 1, Ks: 4,
		Length: synthetic.LengthSpec{Mean: 80}, Weighting: "tfidf", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := nmf.Defaults() // the declared defaults, as `topicmf models nmf` lists them
	opts.K = 4
	opts.Seed = 1
	model, status, err := opts.Fit(context.Background(), c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	cos, _ := synthetic.MatchTopics(truth.Topics(), model.TermTopics())
	fmt.Println(status.Reason)
	fmt.Printf("planted topics recovered: mean cosine %.2f\n", cos)

	X, err := c.Transposed("example") // documents as rows, N × M
	if err != nil {
		fmt.Println(err)
		return
	}
	V, err := model.FoldIn(context.Background(), X)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, k := V.Dims()
	fmt.Printf("fold-in: %d documents × %d topics\n", n, k)
	// Output:
	// converged
	// planted topics recovered: mean cosine 0.90
	// fold-in: 400 documents × 4 topics
}
