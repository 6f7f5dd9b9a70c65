package plsi_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/plsi"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// Fit PLSI by EM (Hofmann, SIGIR 1999) to raw counts drawn from 4 planted
// topics and compare P(w|z) with the planted topics; fold-in runs EM with
// P(w|z) fixed.
func Example() {
	c, truth, err := synthetic.Generate(synthetic.Config{M: 300, N: 400, P: 1, Ks: 4, Length: synthetic.LengthSpec{Mean: 80}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := plsi.Defaults() // the declared defaults, as `topicmf models plsi` lists them
	opts.K = 4
	opts.Seed = 1
	model, status, err := opts.Fit(context.Background(), c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(status.Reason)
	cos, _ := synthetic.MatchTopics(truth.Topics(), model.TermTopics())
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
	// planted topics recovered: mean cosine 0.99
	// fold-in: 400 documents × 4 topics
}
