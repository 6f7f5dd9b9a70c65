package experiments

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/store"
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

// The corpus spec is part of the store key: jobs whose specs differ only
// in a text option (or a transform) get different data checksums, and the
// same spec the same ones; the collection's file digests come first, and
// a spec naming another collection than the job's adds that one's.
func TestCorpusSpecInStoreKey(t *testing.T) {
	const ds = "cranfield"
	files := func(name string) int {
		src, err := datasets.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return len(src.Files)
	}
	sumsOf := func(spec CorpusSpec) []store.Checksum {
		t.Helper()
		e := &Experiment{ID: "toy/spec", Corpus: func(*Job) (CorpusSpec, error) { return spec, nil }}
		sums, err := checksums(e, &Job{Experiment: e, Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		if sums[len(sums)-1].Name != "corpus" {
			t.Fatalf("checksums %v: want the corpus last", sums)
		}
		return sums
	}
	base := CorpusSpec{Collection: ds, Text: text.Bare(text.Options{StopList: "smart", Weighting: text.WeightTFIDF})}
	if got, want := len(sumsOf(base)), files(ds)+1; got != want {
		t.Errorf("%d checksums, want %d (the files of %s and the corpus)", got, want, ds)
	}
	if a, b := sumsOf(base), sumsOf(base); !reflect.DeepEqual(a, b) {
		t.Errorf("same spec, different checksums: %v, %v", a, b)
	}
	minDF, unit, other := base, base, base
	minDF.Text.MinDF = 2
	unit.UnitDocs = true
	other.Collection = "med"
	for name, s := range map[string]CorpusSpec{"MinDF": minDF, "UnitDocs": unit, "Collection": other} {
		if reflect.DeepEqual(sumsOf(base), sumsOf(s)) {
			t.Errorf("%s: the spec changed but not its checksums", name)
		}
	}
	if got, want := len(sumsOf(other)), files(ds)+files("med")+1; got != want {
		t.Errorf("spec of med in a job of %s: %d checksums, want %d", ds, got, want)
	}
}

// CorpusChecksums puts every spec a Task builds into the store key.
func TestCorpusChecksums(t *testing.T) {
	a := CorpusSpec{Collection: "cranfield", Text: text.Bare(text.Options{MinDF: 1})}
	b := a
	b.Text.MinDF = 10
	sums, err := CorpusChecksums(func(*Job) ([]CorpusSpec, error) { return []CorpusSpec{a, b}, nil })(&Job{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 2 || sums[0] != a.Checksums()[0] || sums[1] != b.Checksums()[0] || sums[0] == sums[1] {
		t.Errorf("checksums %v: want those of both specs, distinct", sums)
	}
}

// DescribedChecksum is the SHA-256 of the lines joined by newlines
// (python3: hashlib.sha256(b"a\nb").hexdigest()).
func TestDescribedChecksum(t *testing.T) {
	got := DescribedChecksum("pipeline", "a", "b")
	want := store.Checksum{Name: "pipeline", SHA256: "7e18f737311b2dc3b2f269dd78396b0351f14fb66efa879f768cb23181883c78"}
	if got != want {
		t.Errorf("DescribedChecksum = %v, want %v", got, want)
	}
}
