package experiments

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Subsamples of one seed are nested prefixes of one permutation.
func TestSubsampleNested(t *testing.T) {
	col := &datasets.Collection{Name: "toy"}
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		col.Docs = append(col.Docs, datasets.Document{ID: id, Text: "w" + id})
	}
	ids := func(c *datasets.Collection) []string {
		var out []string
		for _, d := range c.Docs {
			out = append(out, d.ID)
		}
		return out
	}
	full, err := Subsample(col, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	half, err := Subsample(col, 0.5, 7)
	if err != nil {
		t.Fatal(err)
	}
	// ⌈0.5·7⌉ = 4 documents, the first 4 of the full order.
	if len(half.Docs) != 4 || !slices.Equal(ids(half), ids(full)[:4]) {
		t.Fatalf("half %v, full %v", ids(half), ids(full))
	}
	sorted := slices.Clone(ids(full))
	slices.Sort(sorted)
	if !slices.Equal(sorted, []string{"a", "b", "c", "d", "e", "f", "g"}) {
		t.Fatalf("full prefix is not a permutation: %v", ids(full))
	}
	for _, f := range []float64{0, -1, 1.5} {
		if _, err := Subsample(col, f, 7); err == nil {
			t.Errorf("fraction %v accepted", f)
		}
	}
}

// keepRows and UnitRows on a hand-made D (3 terms × 4 documents): terms a
// (docs 0, 1), b (docs 0, 2, 3), c (doc 3).
func TestKeepRowsUnitRows(t *testing.T) {
	d, err := sparse.FromTriplets(3, 4, []sparse.Triplet{
		{Row: 0, Col: 0, Val: 1}, {Row: 0, Col: 1, Val: 2},
		{Row: 1, Col: 0, Val: 1}, {Row: 1, Col: 2, Val: 1}, {Row: 1, Col: 3, Val: 3},
		{Row: 2, Col: 3, Val: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := struct {
		D     *sparse.CSR
		Vocab []string
	}{d, []string{"a", "b", "c"}}
	// keepRows drops term b and keeps a and c whole.
	k, names := keepRows(c.D, c.Vocab, []bool{true, false, true})
	if k.Rows != 2 || k.Cols != 4 || !reflect.DeepEqual(names, []string{"a", "c"}) ||
		!reflect.DeepEqual(k.RowPtr, []int{0, 2, 3}) || !reflect.DeepEqual(k.Val, []float64{1, 2, 1}) {
		t.Errorf("keepRows: %+v %v", k, names)
	}
	// UnitRows: document 3 of Dᵀ has weights (b 3, c 1) → (3, 1)/√10.
	dt := c.D.T()
	UnitRows(dt)
	lo := dt.RowPtr[3]
	if math.Abs(dt.Val[lo]-3/math.Sqrt(10)) > 1e-15 || math.Abs(dt.Val[lo+1]-1/math.Sqrt(10)) > 1e-15 {
		t.Errorf("unit row 3: %v", dt.Val[lo:dt.RowPtr[4]])
	}
}
