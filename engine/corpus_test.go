package engine

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/sparse"
)

func TestTransposed(t *testing.T) {
	d, err := sparse.FromTriplets(3, 2, []sparse.Triplet{{Row: 0, Col: 1, Val: 2}, {Row: 2, Col: 0, Val: 1}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCorpus("c", []string{"a", "b", "c"}, d, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if dt, err := c.Transposed("m"); err != nil || dt != c.DT {
		t.Errorf("built corpus: %v, %v; want its own DT", dt, err)
	}
	byHand := &Corpus{D: d}
	if dt, err := byHand.Transposed("m"); err != nil || dt.Rows != 2 || dt.Cols != 3 || dt.At(1, 0) != 2 {
		t.Errorf("corpus without DT: %v, %v; want Dᵀ", dt, err)
	}
	for _, tc := range []struct {
		name string
		c    *Corpus
		want string
	}{
		{"nil corpus", nil, "m: nil corpus or term-document matrix"},
		{"nil D", &Corpus{}, "m: nil corpus or term-document matrix"},
		{"DT of D", &Corpus{D: d, DT: d}, "m: corpus DT is 3×2 with 2 non-zeros, want the transpose of the 3×2 D with 2"},
		{"other non-zeros", &Corpus{D: d, DT: &sparse.CSR{Rows: 2, Cols: 3, RowPtr: []int{0, 0, 0}}}, "m: corpus DT is 2×3 with 0 non-zeros, want the transpose of the 3×2 D with 2"},
		{"no documents", &Corpus{D: &sparse.CSR{Rows: 3, RowPtr: []int{0, 0, 0, 0}}}, "m: empty corpus (3 terms × 0 documents)"},
		{"no entry", &Corpus{D: &sparse.CSR{Rows: 3, Cols: 2, RowPtr: []int{0, 0, 0, 0}}}, "m: the term-document matrix (3 terms × 2 documents) has no non-zero entry: there is nothing to factor"},
		{"stored zeros", &Corpus{D: &sparse.CSR{Rows: 3, Cols: 2, RowPtr: []int{0, 1, 1, 2}, ColIdx: []int32{1, 0}, Val: []float64{0, 0}}}, "m: the term-document matrix (3 terms × 2 documents) has no non-zero entry"},
		{"NaN", &Corpus{D: &sparse.CSR{Rows: 3, Cols: 2, RowPtr: []int{0, 1, 1, 2}, ColIdx: []int32{1, 0}, Val: []float64{1, math.NaN()}}}, "m: D[2,0] = NaN, want finite"},
		{"-Inf", &Corpus{D: &sparse.CSR{Rows: 3, Cols: 2, RowPtr: []int{0, 1, 1, 2}, ColIdx: []int32{1, 0}, Val: []float64{math.Inf(-1), 1}}}, "m: D[0,1] = -Inf, want finite"},
	} {
		if _, err := tc.c.Transposed("m"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestPrepare(t *testing.T) {
	d, err := sparse.FromTriplets(3, 2, []sparse.Triplet{{Row: 0, Col: 1, Val: 1}, {Row: 2, Col: 0, Val: 2}})
	if err != nil {
		t.Fatal(err)
	}
	c := &Corpus{D: d}
	var gotM, gotN int
	dt, k, err := Prepare(c, "m", func(m, n int) (int, error) { gotM, gotN = m, n; return 7, nil })
	if err != nil || k != 7 || gotM != 3 || gotN != 2 || dt.Rows != 2 || dt.Cols != 3 || dt.At(1, 0) != 1 {
		t.Errorf("Prepare: DT %v, settings %d, resolve saw %d×%d, error %v", dt, k, gotM, gotN, err)
	}
	if _, _, err := Prepare(nil, "m", func(int, int) (int, error) { t.Error("resolve called for a nil corpus"); return 0, nil }); err == nil || err.Error() != "m: nil corpus or term-document matrix" {
		t.Errorf("nil corpus: %v", err)
	}
	if _, _, err := Prepare(c, "m", func(int, int) (int, error) { return 0, errors.New("m: K = -1") }); err == nil || err.Error() != "m: K = -1" {
		t.Errorf("resolve error: %v", err)
	}
}
