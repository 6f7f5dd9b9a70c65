package modelio_test

import (
	"context"
	"fmt"
	"os"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/lda"
	"github.com/topicmf/topicmf/engine/modelio"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// A fitted model saved to a directory and loaded back folds new documents
// in exactly as the fitted one.
func Example() {
	// Six documents over four terms, as counts (rows: terms).
	d, _ := sparse.FromTriplets(4, 6, []sparse.Triplet{
		{Row: 0, Col: 0, Val: 3}, {Row: 1, Col: 0, Val: 1}, {Row: 0, Col: 1, Val: 2}, {Row: 1, Col: 1, Val: 2},
		{Row: 1, Col: 2, Val: 1}, {Row: 0, Col: 2, Val: 4}, {Row: 2, Col: 3, Val: 3}, {Row: 3, Col: 3, Val: 1},
		{Row: 2, Col: 4, Val: 2}, {Row: 3, Col: 4, Val: 3}, {Row: 2, Col: 5, Val: 1}, {Row: 3, Col: 5, Val: 2},
	})
	c, _ := engine.NewCorpus("tiny", []string{"wing", "flow", "film", "plot"}, d, nil, nil, nil)
	o := lda.Defaults()
	o.K, o.Iters = 2, 50
	fitted, _, _ := o.Fit(context.Background(), c, nil)

	dir, _ := os.MkdirTemp("", "model")
	defer os.RemoveAll(dir)
	if err := modelio.WriteDir(dir, fitted); err != nil {
		fmt.Println(err)
		return
	}
	loaded, header, err := modelio.ReadDir(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	q, _ := sparse.FromTriplets(1, 4, []sparse.Triplet{{Row: 0, Col: 2, Val: 2}, {Row: 0, Col: 3, Val: 1}})
	a, _ := fitted.FoldIn(context.Background(), q)
	b, _ := loaded.FoldIn(context.Background(), q)
	fmt.Println(header.Family, header.Params["alpha"], mat.Equal(a, b))
	// Output: lda 25 true
}
