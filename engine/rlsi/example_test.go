package rlsi_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// Fit RLSI (Wang, Xu, Li, Craswell, SIGIR 2011, Eq. 1: ℓ1 on the topics,
// squared ℓ2 on the documents) to a corpus drawn from 4 planted topics, with
// λ1 read relative to the data's scale: the ℓ1 penalty sets term weights of
// the topics exactly to zero. Fold-in solves the ridge problem of Eq. 5 for
// each new document with U fixed.
func Example() {
	c, _, err := synthetic.Generate(synthetic.Config{M: 300, N: 400, P: 1, Ks: 4, Length: synthetic.LengthSpec{Mean: 80}, Weighting: "tfidf", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := rlsi.Defaults() // the declared defaults, as `topicmf models rlsi` lists them
	opts.K = 4
	opts.Lambda1 = 0.05
	opts.RelativeLambda = true
	opts.BalancedInit = true
	opts.Seed = 1
	model, status, err := opts.Fit(context.Background(), c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(status.Reason)
	zeros, n := 0, 0
	U := model.TermTopics()
	for _, x := range U.RawMatrix().Data {
		n++
		if x == 0 {
			zeros++
		}
	}
	fmt.Printf("zero term weights in U: %.2f\n", float64(zeros)/float64(n))
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
	// zero term weights in U: 0.27
	// fold-in: 400 documents × 4 topics
}
