package lsi_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/lsi"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// LSI is the truncated SVD D ≈ U Σ Vᵀ (Deerwester et al., JASIS 1990),
// computed by a randomized range finder (Halko, Martinsson, Tropp, SIAM
// Review 2011). On a corpus drawn from 4 planted topics the first 4
// singular values stand out.
func Example() {
	c, _, err := synthetic.Generate(synthetic.Config{M: 300, N: 400, P: 1, Ks: 4, Length: synthetic.LengthSpec{Mean: 80}, Weighting: "tfidf", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := lsi.Defaults() // the declared defaults, as `topicmf models lsi` lists them
	opts.K = 6
	opts.Seed = 1
	model, status, err := opts.Fit(context.Background(), c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(status.Reason)
	m := model.(*lsi.Model)
	for i, s := range m.SingularValues() {
		fmt.Printf("σ%d = %.1f\n", i+1, s)
	}
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
	// σ1 = 127.9
	// σ2 = 64.4
	// σ3 = 61.9
	// σ4 = 59.6
	// σ5 = 26.5
	// σ6 = 26.0
	// fold-in: 400 documents × 6 topics
}
