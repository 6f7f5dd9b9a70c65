package sparse

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// onlyReader hides the Len method of its reader, so the size of the input is
// unknown to the Matrix Market readers.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestReadSizeLimits checks the size line against the limits and the input
// size before anything is allocated (issue 11, failures 1 and 2). On the
// code before the check, "4294967296 4294967296" panicked (rows·cols wrapped
// to 0), a symmetric 65000×65000 header passed the guard and allocated
// 34 GB, "2000000000 2000000000 1" allocated 16 GB for the row pointer, and a
// declared count of 10⁶ entries allocated 24 MB before reading one. Each case
// must now fail with one line naming the line and the size, having allocated
// less than 1 MiB, whether the input size is known (bytes.Reader) or not.
func TestReadSizeLimits(t *testing.T) {
	const (
		coord = "%%MatrixMarket matrix coordinate real general\n"
		array = "%%MatrixMarket matrix array real general\n"
		symar = "%%MatrixMarket matrix array real symmetric\n"
	)
	for _, tc := range []struct {
		name, in string
		dense    bool
		opt      MMOptions
		want     string // in both the known-size and unknown-size errors
		wantSize string // extra text when the size is known
	}{
		{"dense wraps", array + "4294967296 4294967296\n1\n", true, MMOptions{},
			"line 2: declared size 4294967296×4294967296 exceeds the limit of 16777216 rows or columns", ""},
		{"dense symmetric 34 GB", symar + "65000 65000\n1\n", true, MMOptions{},
			"line 2: declared size 65000×65000 is 4225000000 values, more than the limit of 1073741824", ""},
		{"sparse 16 GB row pointer", coord + "2000000000 2000000000 1\n1 1 1\n", false, MMOptions{},
			"line 2: declared size 2000000000×2000000000 exceeds the limit of 16777216", ""},
		{"sparse 20M", coord + "20000000 20000000 1\n1 1 1\n", false, MMOptions{},
			"line 2: declared size 20000000×20000000 exceeds the limit", ""},
		{"sparse entries beyond the input", coord + "1000 1000 1000000\n1 1 1\n", false, MMOptions{},
			"line ", "line 2: size line declares 1000000 entries of at least 6 bytes each, but the input has only 70 bytes"},
		{"pattern entries beyond the input", "%%MatrixMarket matrix coordinate pattern general\n1000 1000 1000000\n", false, MMOptions{},
			"line ", "line 2: size line declares 1000000 entries of at least 4 bytes each, but the input has only 67 bytes"},
		{"dense values beyond the input", array + "30000 30000\n1\n", true, MMOptions{},
			"line ", "line 2: size line declares 900000000 values of at least 2 bytes each, but the input has only 55 bytes"},
		{"max dim option", coord + "11 1 0\n", false, MMOptions{MaxDim: 10},
			"line 2: declared size 11×1 exceeds the limit of 10 rows or columns", ""},
		{"max entries option", array + "2 2\n1\n2\n3\n4\n", true, MMOptions{MaxEntries: 3},
			"line 2: declared size 2×2 is 4 values, more than the limit of 3", ""},
		{"max entries symmetric counts twice", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n3 1 1\n", false, MMOptions{MaxEntries: 3},
			"line 2: size line declares 2 entries, more than the limit of 3 values", ""},
	} {
		for _, known := range []bool{true, false} {
			var r io.Reader = bytes.NewReader([]byte(tc.in))
			if !known {
				r = onlyReader{r}
			}
			var err error
			n := allocated(func() {
				if tc.dense {
					_, err = tc.opt.ReadDenseMM(r)
				} else {
					_, err = tc.opt.ReadMM(r)
				}
			})
			if err == nil {
				t.Errorf("%s (size known %v): no error", tc.name, known)
				continue
			}
			if !strings.Contains(err.Error(), tc.want) || (known && !strings.Contains(err.Error(), tc.wantSize)) {
				t.Errorf("%s (size known %v): error %q, want %q %q", tc.name, known, err, tc.want, tc.wantSize)
			}
			if n > 1<<20 {
				t.Errorf("%s (size known %v): allocated %d bytes before failing", tc.name, known, n)
			}
		}
	}
}

// TestReadFileSizeLimit reads the 76-byte file of issue 11 (declaring
// 2000000000×2000000000 with one entry) and a file whose declared entries
// cannot fit its size: one line naming the file and the size.
func TestReadFileSizeLimit(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, in, want string }{
		{"huge.mtx", "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1\n1 1 1\n",
			"huge.mtx: matrix market: line 2: declared size 2000000000×2000000000 exceeds the limit of 16777216 rows or columns"},
		{"short.mtx", "%%MatrixMarket matrix coordinate real general\n100 100 5000\n1 1 1\n",
			"short.mtx: matrix market: line 2: size line declares 5000 entries of at least 6 bytes each, but the input has only 65 bytes"},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadMMFile(p)
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line ending %q", tc.name, err, tc.want)
		}
	}
}

// TestReadLimitsAdmit checks that the limits admit what they should: sizes
// at the limits, and an input exactly as long as its declared entries need.
func TestReadLimitsAdmit(t *testing.T) {
	m, err := MMOptions{MaxDim: 3, MaxEntries: 2}.ReadMM(strings.NewReader(
		"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n3 3 1"))
	if err != nil || m.NNZ() != 2 {
		t.Errorf("at the limits: %v", err)
	}
	d, err := MMOptions{MaxEntries: 4}.ReadDenseMM(strings.NewReader(
		"%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n4"))
	if err != nil || d.At(1, 0) != 2 || d.At(0, 1) != 3 {
		t.Errorf("dense at the limits: %v", err)
	}
}

// TestReadNonNegative: a negative entry of a term-document matrix is
// reported with its 1-based line and the value (issue 11: it was reported
// 0-based, as D[0,0], with no line, by the corpus check after reading).
func TestReadNonNegative(t *testing.T) {
	opt := MMOptions{NonNegative: true}
	_, err := opt.ReadMM(strings.NewReader("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n% c\n2 1 -0.5\n"))
	if err == nil || err.Error() != `matrix market: line 5: value "-0.5" is negative, want a non-negative matrix` {
		t.Errorf("sparse: %v", err)
	}
	_, err = opt.ReadDenseMM(strings.NewReader("%%MatrixMarket matrix array integer general\n1 2\n0\n-3\n"))
	if err == nil || err.Error() != `matrix market: line 4: value "-3" is negative, want a non-negative matrix` {
		t.Errorf("dense: %v", err)
	}
	if _, err := ReadMM(strings.NewReader("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 -1\n")); err != nil {
		t.Errorf("negative value without NonNegative: %v", err)
	}
}

// TestReadErrorsNameNoGoFunction: a message a user sees names the format,
// never a Go function of this package.
func TestReadErrorsNameNoGoFunction(t *testing.T) {
	_, err1 := ReadMM(strings.NewReader("%%MatrixMarket matrix array real general\n1 1\n1\n"))
	_, err2 := ReadDenseMM(strings.NewReader("%%MatrixMarket matrix coordinate real general\n1 1 0\n"))
	for _, err := range []error{err1, err2} {
		if err == nil || strings.Contains(err.Error(), "Read") || !strings.Contains(err.Error(), "line 1:") {
			t.Errorf("error %v", err)
		}
	}
}
