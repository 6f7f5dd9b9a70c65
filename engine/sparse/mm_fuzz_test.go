package sparse

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/internal/fuzzcheck"
	"gonum.org/v1/gonum/mat"
)

// fuzzOptions keep the fuzzers' allocations small: a size line may declare
// anything, and the row pointer (rows+1 ints) is the one allocation sized by
// it alone.
var fuzzOptions = MMOptions{MaxDim: 1 << 12, MaxEntries: 1 << 16}

// checkMMError asserts what every Matrix Market error must be: one line
// naming the 1-based line, and no Go function.
func checkMMError(t *testing.T, err error) {
	t.Helper()
	fuzzcheck.OneLine(t, err)
	if !strings.HasPrefix(err.Error(), "matrix market: line ") || strings.HasPrefix(err.Error(), "matrix market: line 0") {
		t.Fatalf("error does not start with a 1-based line: %v", err)
	}
	if strings.Contains(err.Error(), "Read") {
		t.Fatalf("error names a Go function: %v", err)
	}
}

// FuzzReadMM reads arbitrary bytes as a sparse Matrix Market file. It must
// return within the bound; an error names its line; a matrix is a valid CSR
// with finite non-zero values, and survives WriteMM → ReadMM with the same
// bits and the same bytes on a second write. Seeds: testdata/fuzz/FuzzReadMM
// (the hand-written files, the size lines of issue 11, malformed entries).
func FuzzReadMM(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		var m *CSR
		var err error
		fuzzcheck.Within(t, func() { m, err = fuzzOptions.ReadMM(bytes.NewReader(in)) })
		if err != nil {
			checkMMError(t, err)
			return
		}
		if _, err := New(m.Rows, m.Cols, m.RowPtr, m.ColIdx, m.Val); err != nil {
			t.Fatalf("invalid CSR: %v", err)
		}
		for _, v := range m.Val {
			if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("stored value %v", v)
			}
		}
		var b1, b2 bytes.Buffer
		if err := WriteMM(&b1, m); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		got, err := fuzzOptions.ReadMM(bytes.NewReader(b1.Bytes()))
		if err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, b1.Bytes())
		}
		if got.Rows != m.Rows || got.Cols != m.Cols || got.NNZ() != m.NNZ() {
			t.Fatalf("round trip changed the shape or the entries")
		}
		for q := range m.Val {
			if math.Float64bits(got.Val[q]) != math.Float64bits(m.Val[q]) || got.ColIdx[q] != m.ColIdx[q] {
				t.Fatalf("round trip changed entry %d", q)
			}
		}
		if WriteMM(&b2, got); !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("second write differs")
		}
	})
}

// FuzzReadDenseMM is FuzzReadMM for the dense (array) reader and writer.
// Seeds: testdata/fuzz/FuzzReadDenseMM.
func FuzzReadDenseMM(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		var a *mat.Dense
		var err error
		fuzzcheck.Within(t, func() { a, err = fuzzOptions.ReadDenseMM(bytes.NewReader(in)) })
		if err != nil {
			checkMMError(t, err)
			return
		}
		var b1, b2 bytes.Buffer
		if err := WriteDenseMM(&b1, a); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		got, err := fuzzOptions.ReadDenseMM(bytes.NewReader(b1.Bytes()))
		if err != nil {
			t.Fatalf("reading what was written: %v", err)
		}
		if a.IsEmpty() != got.IsEmpty() || (!a.IsEmpty() && !matcmp.BitsEqual(a, got)) {
			t.Fatalf("round trip changed the matrix")
		}
		if WriteDenseMM(&b2, got); !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("second write differs")
		}
	})
}
