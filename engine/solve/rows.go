package solve

import (
	"context"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// RowFolder folds in one row of X: its stored column indices and values
// given, it writes the row's k-vector into dst (zeroed before the call). A
// row whose work has no fixed bound (an iterative fold-in running as many
// iterations as the caller asks) watches the ctx of FoldRows itself,
// captured by newFolder's closure, and returns early when it is done:
// FoldRows never returns such an unfinished row.
type RowFolder func(i int, dst []float64, idx []int32, val []float64)

// FoldRows returns the n×k fold-in of the rows of X (checked by the
// caller), over fixed blocks of block rows run in parallel on p: each block
// calls newFolder once, for the scratch space of its own RowFolder, and then
// folds its rows in order. A row's result depends on that row alone, so it
// is the same bits for any number of workers. Zero rows give an empty
// matrix. A cancelled ctx stops the blocks between rows (and inside a row
// that checks it, see RowFolder) and returns ctx.Err(), never the rows
// folded so far.
func FoldRows(ctx context.Context, p *parallel.Pool, x *sparse.CSR, k, block int, newFolder func() RowFolder) (*mat.Dense, error) {
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	out := mat.NewDense(x.Rows, k, nil)
	p.For(x.Rows, block, func(_, lo, hi int) {
		fold := newFolder()
		for i := lo; i < hi; i++ {
			if ctx.Err() != nil {
				return
			}
			idx, val := x.Row(i)
			fold(i, out.RawRowView(i), idx, val)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
