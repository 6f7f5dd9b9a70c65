package jtd_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/jtd"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// Fit the noisy joint topic-document model (Min & Ma, ICASSP 2013, Eq. 4)
// to a corpus drawn from 4 planted topics: D = BS + E + N with topics B,
// mixtures S, sparse keywords E and dense noise N.
func Example() {
	c, truth, err := synthetic.Generate(synthetic.Config{M: 200, N: 300, P: 1, Ks: 4, Length: synthetic.LengthSpec{Mean: 80}, Weighting: "tfidf", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := jtd.Defaults() // the declared defaults, as `topicmf models jtd` lists them
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
	m := model.(*jtd.Model)
	fmt.Printf("relative residual ‖D − BS − E − N‖/‖D‖ below 1e-6: %v\n", m.Residual < 1e-6)
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
	// planted topics recovered: mean cosine 0.88
	// relative residual ‖D − BS − E − N‖/‖D‖ below 1e-6: true
	// fold-in: 300 documents × 4 topics
}
