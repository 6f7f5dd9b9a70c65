package solve

import (
	"context"
	"errors"
	"testing"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
)

func TestFoldRowsSameForAnyWorkers(t *testing.T) {
	// Each row's vector is (row index, Σ values, stored entries): the
	// result must not depend on the pool or the block a row falls in.
	x, err := sparse.FromTriplets(7, 3, []sparse.Triplet{
		{Row: 0, Col: 1, Val: 2}, {Row: 2, Col: 0, Val: 1}, {Row: 2, Col: 2, Val: 4}, {Row: 6, Col: 1, Val: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	fold := func() RowFolder {
		return func(i int, dst []float64, idx []int32, val []float64) {
			dst[0] = float64(i)
			for _, v := range val {
				dst[1] += v
			}
			dst[2] = float64(len(idx))
		}
	}
	want := [][]float64{{0, 2, 1}, {1, 0, 0}, {2, 5, 2}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}, {6, 0.5, 1}}
	for _, workers := range []int{1, 3} {
		out, err := FoldRows(context.Background(), parallel.NewPool(workers), x, 3, 2, fold)
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range want {
			for j, v := range row {
				if out.At(i, j) != v {
					t.Errorf("%d workers: out[%d,%d] = %v, want %v", workers, i, j, out.At(i, j), v)
				}
			}
		}
	}
}

func TestFoldRowsCancelledInsideARow(t *testing.T) {
	// A row that watches ctx and returns early leaves its vector
	// unfinished: FoldRows must return ctx.Err(), not the matrix.
	x, err := sparse.FromTriplets(4, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 3, Col: 1, Val: 1}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, err := FoldRows(ctx, parallel.NewPool(1), x, 2, 4, func() RowFolder {
		return func(i int, dst []float64, _ []int32, _ []float64) {
			dst[0] = 1
			cancel() // cancelled while folding row 0: dst[1] never written
			if ctx.Err() != nil {
				return
			}
			dst[1] = 1
		}
	})
	if !errors.Is(err, context.Canceled) || out != nil {
		t.Errorf("FoldRows cancelled inside a row: %v, %v; want nil and context.Canceled", out, err)
	}
}
