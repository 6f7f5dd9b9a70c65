package tnmf_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/engine/tnmf"
)

// Fit TNMF (Yan, Guo, Liu, Cheng, Wang, SDM 2013) to short documents (8
// tokens on average) drawn from 4 planted topics: the topics factorize the
// term correlation matrix, S ≈ UUᵀ, which short texts estimate better than
// the sparse term-document matrix.
func Example() {
	c, truth, err := synthetic.Generate(synthetic.Config{M: 200, N: 1000, P: 1, Ks: 4, Length: synthetic.LengthSpec{Mean: 8}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := tnmf.Defaults() // the declared defaults, as `topicmf models tnmf` lists them
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
	// planted topics recovered: mean cosine 0.72
	// fold-in: 1000 documents × 4 topics
}
