package sparse

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"gonum.org/v1/gonum/mat"
)

func denseEq(t *testing.T, name string, got *CSR, want [][]float64) {
	t.Helper()
	if got.Rows != len(want) || (len(want) > 0 && got.Cols != len(want[0])) {
		t.Fatalf("%s: shape %d×%d, want %d×%d", name, got.Rows, got.Cols, len(want), len(want[0]))
	}
	for i := range want {
		for j := range want[i] {
			if g := got.At(i, j); g != want[i][j] {
				t.Errorf("%s: (%d,%d) = %v, want %v", name, i, j, g, want[i][j])
			}
		}
	}
}

// TestReadHandWritten reads the hand-written files of testdata/, whose
// comments show the matrices they hold.
func TestReadHandWritten(t *testing.T) {
	m, err := ReadMMFile("testdata/small.mtx")
	if err != nil {
		t.Fatal(err)
	}
	denseEq(t, "small.mtx", m, [][]float64{
		{1.5, 0, 0, 0, 2},
		{0, 0, 0, 0, 0},
		{0, 0.25, 0, 1e-3, 0},
		{3, 0, 0, 0, -4},
	})
	if m.NNZ() != 6 {
		t.Errorf("small.mtx: %d stored entries, want 6", m.NNZ())
	}
	if _, err := New(m.Rows, m.Cols, m.RowPtr, m.ColIdx, m.Val); err != nil {
		t.Errorf("small.mtx: invalid CSR: %v", err)
	}

	s, err := ReadMMFile("testdata/sym_int.mtx")
	if err != nil {
		t.Fatal(err)
	}
	denseEq(t, "sym_int.mtx", s, [][]float64{{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}})

	p, err := ReadMMFile("testdata/pattern.mtx")
	if err != nil {
		t.Fatal(err)
	}
	denseEq(t, "pattern.mtx", p, [][]float64{{0, 1, 0}, {1, 0, 1}})

	f, err := ReadDenseMMFile("testdata/factor.mtx")
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 2, []float64{1, 4, 2.5, 0, -3, 1e-20})
	if !mat.Equal(f, want) {
		t.Errorf("factor.mtx = %v, want %v", mat.Formatted(f), mat.Formatted(want))
	}
}

// TestWriteGolden checks the exact bytes written for the hand-written
// matrices: row-major coordinate entries, column-major array values.
func TestWriteGolden(t *testing.T) {
	m, err := ReadMMFile("testdata/small.mtx")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteMM(&b, m); err != nil {
		t.Fatal(err)
	}
	want := "%%MatrixMarket matrix coordinate real general\n4 5 6\n" +
		"1 1 1.5\n1 5 2\n3 2 0.25\n3 4 0.001\n4 1 3\n4 5 -4\n"
	if b.String() != want {
		t.Errorf("WriteMM wrote\n%s\nwant\n%s", b.String(), want)
	}

	f := mat.NewDense(3, 2, []float64{1, 4, 2.5, 0, -3, 1e-20})
	b.Reset()
	if err := WriteDenseMM(&b, f); err != nil {
		t.Fatal(err)
	}
	want = "%%MatrixMarket matrix array real general\n3 2\n1\n2.5\n-3\n4\n0\n1e-20\n"
	if b.String() != want {
		t.Errorf("WriteDenseMM wrote\n%s\nwant\n%s", b.String(), want)
	}
}

// TestRoundTrip writes and reads back random matrices (including values that
// need all 17 significant digits) and checks the bits, and that writing the
// result again gives the same bytes.
func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct{ r, c int }{{0, 0}, {1, 1}, {0, 3}, {3, 0}, {1, 7}, {50, 40}, {300, 20}} {
		var a *CSR
		if tc.r == 0 || tc.c == 0 {
			a, _ = New(tc.r, tc.c, make([]int, tc.r+1), nil, nil)
		} else {
			a = randomSparse(tc.r, tc.c, uint64(tc.r*tc.c))
			for q := range a.Val {
				a.Val[q] = math.Nextafter(a.Val[q]/3, 1) * float64(1-2*(q%2))
			}
		}
		var b1 bytes.Buffer
		if err := WriteMM(&b1, a); err != nil {
			t.Fatal(err)
		}
		got, err := ReadMM(bytes.NewReader(b1.Bytes()))
		if err != nil {
			t.Fatalf("%d×%d: %v", tc.r, tc.c, err)
		}
		if got.Rows != a.Rows || got.Cols != a.Cols || got.NNZ() != a.NNZ() {
			t.Fatalf("%d×%d: read back %d×%d with %d entries", tc.r, tc.c, got.Rows, got.Cols, got.NNZ())
		}
		for q := range a.Val {
			if math.Float64bits(a.Val[q]) != math.Float64bits(got.Val[q]) || a.ColIdx[q] != got.ColIdx[q] {
				t.Fatalf("%d×%d: entry %d changed in the round trip", tc.r, tc.c, q)
			}
		}
		var b2 bytes.Buffer
		WriteMM(&b2, got)
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Errorf("%d×%d: second write differs from the first", tc.r, tc.c)
		}
	}

	for _, tc := range []struct{ r, c int }{{1, 1}, {4, 3}, {100, 10}} {
		d := matcmp.RandomDense(tc.r, tc.c, 3)
		d.Set(0, 0, math.Pi*1e-300)
		var b bytes.Buffer
		if err := WriteDenseMM(&b, d); err != nil {
			t.Fatal(err)
		}
		got, err := ReadDenseMM(&b)
		if err != nil {
			t.Fatal(err)
		}
		if !matcmp.BitsEqual(got, d) {
			t.Errorf("dense %d×%d changed in the round trip", tc.r, tc.c)
		}
	}
	var b bytes.Buffer
	if err := WriteDenseMM(&b, &mat.Dense{}); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadDenseMM(&b); err != nil || !got.IsEmpty() {
		t.Errorf("empty dense round trip: %v, %v", got, err)
	}
}

func TestFileHelpers(t *testing.T) {
	dir := t.TempDir()
	a := randomSparse(30, 20, 5)
	path := filepath.Join(dir, "d.mtx")
	if err := WriteMMFile(path, a); err != nil {
		t.Fatal(err)
	}
	got, err := ReadMMFile(path)
	if err != nil || got.NNZ() != a.NNZ() {
		t.Fatalf("ReadMMFile: %v (nnz %d vs %d)", err, got.NNZ(), a.NNZ())
	}
	u := matcmp.RandomDense(5, 3, 1)
	if err := WriteDenseMMFile(filepath.Join(dir, "u.mtx"), u); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDenseMMFile(filepath.Join(dir, "u.mtx")); err != nil {
		t.Fatal(err)
	}
	// A failed write leaves no file and no temporary behind.
	bad := mat.NewDense(1, 1, []float64{math.NaN()})
	if err := WriteDenseMMFile(filepath.Join(dir, "bad.mtx"), bad); err == nil {
		t.Error("writing NaN succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %d files after a failed write, want 2", len(entries))
	}
	// Errors name the file.
	os.WriteFile(filepath.Join(dir, "broken.mtx"), []byte("hello\n"), 0o644)
	if _, err := ReadMMFile(filepath.Join(dir, "broken.mtx")); err == nil || !strings.Contains(err.Error(), "broken.mtx") {
		t.Errorf("error does not name the file: %v", err)
	}
}

// TestReadErrors checks that malformed input gives an error naming the line
// and the problem.
func TestReadErrors(t *testing.T) {
	const hdr = "%%MatrixMarket matrix coordinate real general\n"
	for _, tc := range []struct {
		name, in, want string
		dense          bool
	}{
		{"empty", "", "line 1: empty input", false},
		{"not a header", "3 3 1\n", "line 1: bad header", false},
		{"short header", "%%MatrixMarket matrix coordinate real\n", "line 1: bad header", false},
		{"vector object", "%%MatrixMarket vector coordinate real general\n", "line 1: bad header: object", false},
		{"complex", "%%MatrixMarket matrix coordinate complex general\n", "line 1: bad header: complex", false},
		{"skew", "%%MatrixMarket matrix coordinate real skew-symmetric\n", "line 1: bad header: symmetry", false},
		{"array as sparse", "%%MatrixMarket matrix array real general\n2 2\n", "line 1: bad header: format array", false},
		{"coordinate as dense", hdr + "1 1 0\n", "line 1: bad header: format coordinate", true},
		{"pattern array", "%%MatrixMarket matrix array pattern general\n", "line 1: bad header: field pattern", true},
		{"no size", hdr + "% only a comment\n", "line 3: end of input, want the size line", false},
		{"bad size", hdr + "3 x 2\n", "line 2: size line", false},
		{"negative size", hdr + "3 -3 2\n", "line 2: size line", false},
		{"too many declared", hdr + "2 2 5\n", "line 2: 5 entries declared for a 2×2", false},
		{"out of range row", hdr + "2 2 1\n3 1 1.0\n", "line 3: entry (3, 1) out of range", false},
		{"zero index", hdr + "2 2 1\n0 1 1.0\n", "line 3: entry (0, 1) out of range", false},
		{"bad value", hdr + "2 2 1\n1 1 abc\n", "line 3: value \"abc\" is not a number", false},
		{"nan value", hdr + "2 2 1\n1 1 NaN\n", "line 3: value \"NaN\" is not finite", false},
		{"missing value", hdr + "2 2 1\n1 1\n", "line 3: entry \"1 1\": want 3 fields", false},
		{"float in integer", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", "line 3: value \"1.5\" is not an integer", false},
		{"too few", hdr + "2 2 3\n1 1 1\n\n2 2 2\n", "line 6: end of input after 2 of 3 declared entries", false},
		{"too many", hdr + "2 2 1\n1 1 1\n2 2 2\n", "line 4: more entries than the 1 declared", false},
		{"duplicate", hdr + "2 2 2\n1 2 1\n1 2 5\n", "line 4: duplicate entry (1, 2), first given on line 3", false},
		{"symmetric upper", "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", "line 3: entry (1, 2) above the diagonal", false},
		{"symmetric not square", "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", "line 2: symmetric matrix must be square", false},
		{"dense too few", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", "line 6: end of input after 3 of 4 values", true},
		{"dense too many", "%%MatrixMarket matrix array real general\n1 1\n1\n2\n", "line 4: more values than the 1 declared", true},
		{"dense two per line", "%%MatrixMarket matrix array real general\n1 2\n1 2\n", "line 3: want one value per line", true},
		{"dense inf", "%%MatrixMarket matrix array real general\n1 1\n-Inf\n", "line 3: value \"-Inf\" is not finite", true},
	} {
		var err error
		if tc.dense {
			_, err = ReadDenseMM(strings.NewReader(tc.in))
		} else {
			_, err = ReadMM(strings.NewReader(tc.in))
		}
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not contain %q", tc.name, err, tc.want)
		}
	}
}

func TestReadDetails(t *testing.T) {
	// CRLF line ends, blank lines and comments between entries, explicit
	// zeros dropped, symmetric array expanded.
	in := "%%MatrixMarket matrix coordinate real general\r\n% c\r\n\r\n2 2 3\r\n1 1 0\r\n% mid comment\r\n2 2 7\r\n1 2 -0.5\r\n"
	m, err := ReadMM(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	denseEq(t, "crlf", m, [][]float64{{0, -0.5}, {0, 7}})
	if m.NNZ() != 2 {
		t.Errorf("explicit zero kept: %d entries", m.NNZ())
	}
	sym := "%%MatrixMarket matrix array integer symmetric\n2 2\n1\n2\n3\n"
	d, err := ReadDenseMM(strings.NewReader(sym))
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(d, mat.NewDense(2, 2, []float64{1, 2, 2, 3})) {
		t.Errorf("symmetric array = %v", mat.Formatted(d))
	}
	if err := WriteMM(&bytes.Buffer{}, &CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 1}, ColIdx: []int32{0}, Val: []float64{math.Inf(1)}}); err == nil ||
		!strings.Contains(err.Error(), "(1, 1)") {
		t.Errorf("writing Inf: %v", err)
	}
}
