package onlinelda_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/onlinelda"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// Fit online variational LDA (Hoffman, Blei, Bach, NIPS 2010) to raw counts
// drawn from 4 planted topics and compare its topics with the planted ones.
func Example() {
	c, truth, err := synthetic.Generate(synthetic.Config{M: 300, N: 400, P: 1, Ks: 4, Length: synthetic.LengthSpec{Mean: 80}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := onlinelda.Defaults() // the declared defaults, as `topicmf models onlinelda` lists them
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
	// iteration limit
	// planted topics recovered: mean cosine 0.81
	// fold-in: 400 documents × 4 topics
}
