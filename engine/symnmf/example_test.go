package symnmf_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/symnmf"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// Cluster the documents of a corpus drawn from 4 planted topics by SymNMF
// (Kuang, Ding, Park, SDM 2012): A ≈ HHᵀ on their cosine similarities,
// each document's cluster the largest entry of its row of H.
func Example() {
	c, _, err := synthetic.Generate(synthetic.Config{M: 300, N: 400, P: 1, Ks: 4, Length: synthetic.LengthSpec{Mean: 80}, Weighting: "tfidf", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := symnmf.Defaults() // the declared defaults, as `topicmf models symnmf` lists them
	opts.K = 4
	opts.Seed = 1
	model, status, err := opts.Fit(context.Background(), c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(status.Reason)
	H := model.DocTopics()
	n, k := H.Dims()
	sizes := make([]int, k)
	for i := 0; i < n; i++ {
		best := 0
		for j := 1; j < k; j++ {
			if H.At(i, j) > H.At(i, best) {
				best = j
			}
		}
		sizes[best]++
	}
	fmt.Println("cluster sizes:", sizes)
	// Output:
	// iteration limit
	// cluster sizes: [94 111 78 117]
}
