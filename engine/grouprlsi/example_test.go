package grouprlsi_test

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/grouprlsi"
	"github.com/topicmf/topicmf/engine/synthetic"
)

// Fit Group RLSI (Wang, Cao, Xu, Li, SIGIR 2012) to a labelled corpus of
// 3 classes drawn from 2 shared topics and 2 topics per class: K = Ks + P·Kc
// = 8 topics, each document represented on the shared topics and its own
// class's. A document's class is then predicted from which class's topics
// reconstruct it best (GMF §4.3).
func Example() {
	c, _, err := synthetic.Generate(synthetic.Config{M: 300, N: 450, P: 3, Ks: 2, Kc: 2, Length: synthetic.LengthSpec{Mean: 80}, Weighting: "tfidf", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := grouprlsi.Defaults() // the declared defaults, as `topicmf models grouprlsi` lists them
	opts.Ks, opts.Kc = 2, 2
	opts.Seed = 1
	model, status, err := opts.Fit(context.Background(), c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(status.Reason)
	X, err := c.Transposed("example") // documents as rows, N × M
	if err != nil {
		fmt.Println(err)
		return
	}
	classes, err := model.(*grouprlsi.Model).PredictClasses(context.Background(), X)
	if err != nil {
		fmt.Println(err)
		return
	}
	right := 0
	for n, p := range classes {
		if p == c.Labels[n] {
			right++
		}
	}
	fmt.Printf("class predicted from the topics alone: %d of %d documents\n", right, len(classes))
	// Output:
	// converged
	// class predicted from the topics alone: 445 of 450 documents
}
