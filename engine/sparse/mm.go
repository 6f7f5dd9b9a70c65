package sparse

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Matrix Market exchange format (NIST, Boisvert, Pozo & Remington 1996,
// "The Matrix Market Exchange Formats: Initial Design"):
//
//	%%MatrixMarket matrix <format> <field> <symmetry>
//	% any number of comment lines
//	<size line>
//	<entries>
//
// Supported here:
//   - coordinate (sparse): field real, integer or pattern (every entry 1);
//     symmetry general or symmetric. The size line is "rows cols entries",
//     then one "i j [value]" line per entry with 1-based indices. A
//     symmetric file stores the lower triangle (i ≥ j) and is expanded on
//     reading.
//   - array (dense): field real or integer; symmetry general or symmetric.
//     The size line is "rows cols", then one value per line in column-major
//     order (for symmetric, the lower triangle column by column).
//
// Header keywords are case-insensitive; blank lines and "%" comment lines
// are skipped anywhere after the header. Stored zeros are dropped from
// sparse matrices. NaN and ±Inf are rejected on reading and writing.
// Writers emit "real general" with full-precision floats (strconv 'g', -1),
// so two matrices with the same bits give byte-identical files.

// Limits. A Matrix Market size line can declare any size in a few bytes, so
// the readers check it before they allocate anything: against a ceiling
// (MMOptions.MaxDim and MaxEntries, DefaultMaxDim and DefaultMaxEntries when
// unset), and against the byte size of the input when it is known (a file,
// or a reader with a Len method such as bytes.Reader). An entry line takes at
// least 6 bytes ("1 1 1\n"; 4 for pattern), an array value at least 2
// ("1\n"), so a declared count that the input cannot hold is an error naming
// the count and the size. Storage then grows only with the entries actually
// read; the one allocation sized by the size line alone is the CSR row
// pointer (rows+1 ints), bounded by MaxDim.
const (
	// DefaultMaxDim is the default ceiling on rows and on columns:
	// 2²⁴ = 16,777,216, five times the 3.2 million documents of GMF's Web-I
	// (the largest collection any paper here uses).
	DefaultMaxDim = 1 << 24
	// DefaultMaxEntries is the default ceiling on the values of one matrix:
	// 2³⁰ ≈ 1.07·10⁹ (8 GiB of float64), three times a 100-topic factor of
	// Web-I's 3.2 million documents.
	DefaultMaxEntries = 1 << 30
)

// Minimum bytes of one line: "i j v\n", "i j\n" (pattern), "v\n" (array).
const (
	minEntryLine   = 6
	minPatternLine = 4
	minValueLine   = 2
)

// MMOptions configures the Matrix Market readers. The zero value gives the
// defaults, which ReadMM, ReadDenseMM, ReadMMFile and ReadDenseMMFile use.
type MMOptions struct {
	// MaxDim is the largest row or column count accepted; 0 means
	// DefaultMaxDim. Values above 2³¹−1 (the int32 index limit) act as
	// 2³¹−1.
	MaxDim int
	// MaxEntries is the largest number of values accepted: the stored
	// entries of a coordinate file (a symmetric file's off-diagonal entries
	// count twice, as they are mirrored) or rows·cols of an array file;
	// 0 means DefaultMaxEntries.
	MaxEntries int
	// NonNegative rejects a negative value, naming its line (a
	// term-document matrix holds counts or non-negative weights).
	NonNegative bool
}

func (o MMOptions) maxDim() int {
	if o.MaxDim <= 0 {
		return DefaultMaxDim
	}
	return min(o.MaxDim, math.MaxInt32)
}

func (o MMOptions) maxEntries() uint64 {
	if o.MaxEntries <= 0 {
		return DefaultMaxEntries
	}
	return uint64(o.MaxEntries)
}

// inputSize is the number of bytes left in r when r can tell (a regular
// file, or a reader with a Len method), else -1.
func inputSize(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len())
	case *os.File:
		st, err := r.Stat()
		if err != nil || !st.Mode().IsRegular() {
			return -1
		}
		off, err := r.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1
		}
		return st.Size() - off
	}
	return -1
}

// mmHeader is the parsed first line.
type mmHeader struct {
	format, field, symmetry string
}

// mmScanner reads lines and counts them, skipping blanks and comments after
// the header.
type mmScanner struct {
	sc   *bufio.Scanner
	line int
	opt  MMOptions
	size int64 // bytes in the input, -1 when unknown
}

func newMMScanner(r io.Reader, opt MMOptions) *mmScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	return &mmScanner{sc: sc, opt: opt, size: inputSize(r)}
}

// next returns the next non-blank, non-comment line, or io.EOF.
func (s *mmScanner) next() (string, error) {
	for s.sc.Scan() {
		s.line++
		t := strings.TrimSpace(s.sc.Text())
		if t == "" || t[0] == '%' {
			continue
		}
		return t, nil
	}
	if err := s.sc.Err(); err != nil {
		return "", fmt.Errorf("matrix market: line %d: %w", s.line+1, err)
	}
	return "", io.EOF
}

func (s *mmScanner) errorf(format string, args ...any) error {
	return fmt.Errorf("matrix market: line %d: %s", s.line, fmt.Sprintf(format, args...))
}

func (s *mmScanner) header() (mmHeader, error) {
	if !s.sc.Scan() {
		if err := s.sc.Err(); err != nil {
			return mmHeader{}, fmt.Errorf("matrix market: line 1: %w", err)
		}
		return mmHeader{}, errors.New("matrix market: line 1: empty input, want a %%MatrixMarket header")
	}
	s.line = 1
	f := strings.Fields(s.sc.Text())
	if len(f) == 0 || !strings.EqualFold(f[0], "%%MatrixMarket") {
		return mmHeader{}, s.errorf("bad header %q: want \"%%%%MatrixMarket matrix <format> <field> <symmetry>\"", s.sc.Text())
	}
	if len(f) != 5 {
		return mmHeader{}, s.errorf("bad header %q: want 5 words, found %d", s.sc.Text(), len(f))
	}
	if !strings.EqualFold(f[1], "matrix") {
		return mmHeader{}, s.errorf("bad header: object %q not supported (want matrix)", f[1])
	}
	h := mmHeader{strings.ToLower(f[2]), strings.ToLower(f[3]), strings.ToLower(f[4])}
	if h.format != "coordinate" && h.format != "array" {
		return mmHeader{}, s.errorf("bad header: format %q (want coordinate or array)", f[2])
	}
	switch h.field {
	case "real", "integer":
	case "pattern":
		if h.format == "array" {
			return mmHeader{}, s.errorf("bad header: field pattern is not allowed with format array")
		}
	case "complex":
		return mmHeader{}, s.errorf("bad header: complex matrices are not supported (want real, integer or pattern)")
	default:
		return mmHeader{}, s.errorf("bad header: field %q (want real, integer or pattern)", f[3])
	}
	switch h.symmetry {
	case "general", "symmetric":
	case "skew-symmetric", "hermitian":
		return mmHeader{}, s.errorf("bad header: symmetry %q is not supported (want general or symmetric)", f[4])
	default:
		return mmHeader{}, s.errorf("bad header: symmetry %q (want general or symmetric)", f[4])
	}
	return h, nil
}

// open reads the header, checks that it declares format ("coordinate" or
// "array"; what the reader takes, e.g. "a sparse matrix", completes the
// message) and reads the size line of n integers (sizeLine).
func (s *mmScanner) open(format, what string, n int) (mmHeader, []int, error) {
	h, err := s.header()
	if err != nil {
		return h, nil, err
	}
	if h.format != format {
		return h, nil, s.errorf("bad header: format %s, want %s (this reader takes %s)", h.format, format, what)
	}
	size, err := s.sizeLine(n, h)
	return h, size, err
}

// item returns the line of item k (0-based) of the n declared, what naming
// them in the error at the end of input (e.g. "values").
func (s *mmScanner) item(k, n uint64, what string) (string, error) {
	t, err := s.next()
	if err == io.EOF {
		return "", fmt.Errorf("matrix market: line %d: end of input after %d of %d %s", s.line+1, k, n, what)
	}
	return t, err
}

// end checks that no line follows the n declared items (what names them).
func (s *mmScanner) end(n uint64, what string) error {
	if t, err := s.next(); err == nil {
		return s.errorf("more %s than the %d declared: %q", what, n, t)
	} else if err != io.EOF {
		return err
	}
	return nil
}

// sizeLine parses n non-negative integers from the size line and checks
// that the first two (rows, cols) are within MaxDim, and square when the
// matrix is symmetric.
func (s *mmScanner) sizeLine(n int, h mmHeader) ([]int, error) {
	t, err := s.next()
	if err == io.EOF {
		return nil, fmt.Errorf("matrix market: line %d: end of input, want the size line", s.line+1)
	}
	if err != nil {
		return nil, err
	}
	f := strings.Fields(t)
	if len(f) != n {
		return nil, s.errorf("size line %q: want %d integers, found %d fields", t, n, len(f))
	}
	out := make([]int, n)
	for i, x := range f {
		v, err := strconv.Atoi(x)
		if err != nil || v < 0 {
			return nil, s.errorf("size line %q: %q is not a non-negative integer", t, x)
		}
		out[i] = v
	}
	rows, cols := out[0], out[1]
	if m := s.opt.maxDim(); rows > m || cols > m {
		return nil, s.errorf("declared size %d×%d exceeds the limit of %d rows or columns", rows, cols, m)
	}
	if h.symmetry == "symmetric" && rows != cols {
		return nil, s.errorf("symmetric matrix must be square, size line says %d×%d", rows, cols)
	}
	return out, nil
}

// fits checks that count declared values, each on a line of at least
// minLine bytes, can be held by the input, and returns a capacity for the
// slice that will receive them: never more than the input can fill.
func (s *mmScanner) fits(count uint64, what string, minLine int) (capHint int, err error) {
	if s.size < 0 {
		return int(min(count, 4096)), nil
	}
	// count·minLine − 1 bytes at least (the last line needs no newline).
	room := (uint64(s.size) + 1) / uint64(minLine)
	if count > room {
		return 0, s.errorf("size line declares %d %s of at least %d bytes each, but the input has only %d bytes",
			count, what, minLine, s.size)
	}
	return int(count), nil
}

func (s *mmScanner) value(field, tok string) (float64, error) {
	var v float64
	if field == "integer" {
		x, err := strconv.ParseInt(tok, 10, 64)
		if err != nil {
			return 0, s.errorf("value %q is not an integer", tok)
		}
		v = float64(x)
	} else {
		x, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return 0, s.errorf("value %q is not a number", tok)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, s.errorf("value %q is not finite", tok)
		}
		v = x
	}
	if s.opt.NonNegative && v < 0 {
		return 0, s.errorf("value %q is negative, want a non-negative matrix", tok)
	}
	return v, nil
}

// ReadMM reads a sparse matrix in Matrix Market coordinate format with the
// default options; see MMOptions.ReadMM.
func ReadMM(r io.Reader) (*CSR, error) { return MMOptions{}.ReadMM(r) }

// ReadMM reads a sparse matrix in Matrix Market coordinate format (real,
// integer or pattern; general or symmetric, the latter expanded). Errors
// name the 1-based line and the problem: a bad header, a size line that is
// not integers or declares more than the limits or the input can hold, an
// entry outside the declared shape, a duplicate entry, an entry above the
// diagonal of a symmetric matrix, a value that is not finite (or negative
// under NonNegative), or fewer or more entries than declared.
func (o MMOptions) ReadMM(r io.Reader) (*CSR, error) {
	s := newMMScanner(r, o)
	h, size, err := s.open("coordinate", "a sparse matrix", 3)
	if err != nil {
		return nil, err
	}
	rows, cols, nnz := size[0], size[1], size[2]
	room := uint64(rows) * uint64(cols)
	stored := uint64(nnz)
	if h.symmetry == "symmetric" {
		room = uint64(rows) * uint64(rows+1) / 2
		stored *= 2
	}
	if uint64(nnz) > room {
		return nil, s.errorf("%d entries declared for a %d×%d %s matrix", nnz, rows, cols, h.symmetry)
	}
	if stored > o.maxEntries() {
		return nil, s.errorf("size line declares %d entries, more than the limit of %d values", nnz, o.maxEntries())
	}
	want, minLine := 3, minEntryLine
	if h.field == "pattern" {
		want, minLine = 2, minPatternLine
	}
	capHint, err := s.fits(uint64(nnz), "entries", minLine)
	if err != nil {
		return nil, err
	}
	type entry struct {
		row, col int32
		line     int
		val      float64
	}
	ents := make([]entry, 0, capHint)
	for k := 0; k < nnz; k++ {
		t, err := s.item(uint64(k), uint64(nnz), "declared entries")
		if err != nil {
			return nil, err
		}
		f := strings.Fields(t)
		if len(f) != want {
			return nil, s.errorf("entry %q: want %d fields (%s), found %d", t, want, map[int]string{2: "row col", 3: "row col value"}[want], len(f))
		}
		i, err1 := strconv.Atoi(f[0])
		j, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return nil, s.errorf("entry %q: row and column must be integers", t)
		}
		if i < 1 || i > rows || j < 1 || j > cols {
			return nil, s.errorf("entry (%d, %d) out of range: the matrix is %d×%d (indices are 1-based)", i, j, rows, cols)
		}
		v := 1.0
		if want == 3 {
			if v, err = s.value(h.field, f[2]); err != nil {
				return nil, err
			}
		}
		if h.symmetry == "symmetric" && i < j {
			return nil, s.errorf("entry (%d, %d) above the diagonal: a symmetric file stores the lower triangle only", i, j)
		}
		ents = append(ents, entry{int32(i - 1), int32(j - 1), s.line, v})
		if h.symmetry == "symmetric" && i != j {
			ents = append(ents, entry{int32(j - 1), int32(i - 1), s.line, v})
		}
	}
	if err := s.end(uint64(nnz), "entries"); err != nil {
		return nil, err
	}
	less := func(a, b entry) int {
		if a.row != b.row {
			return int(a.row) - int(b.row)
		}
		return int(a.col) - int(b.col)
	}
	if !slices.IsSortedFunc(ents, less) {
		slices.SortStableFunc(ents, less)
	}
	m := &CSR{Rows: rows, Cols: cols, RowPtr: make([]int, rows+1)}
	m.ColIdx = make([]int32, 0, len(ents))
	m.Val = make([]float64, 0, len(ents))
	for q, e := range ents {
		if q > 0 && less(ents[q-1], e) == 0 {
			return nil, fmt.Errorf("matrix market: line %d: duplicate entry (%d, %d), first given on line %d",
				max(e.line, ents[q-1].line), e.row+1, e.col+1, min(e.line, ents[q-1].line))
		}
		if e.val == 0 {
			continue
		}
		m.ColIdx = append(m.ColIdx, e.col)
		m.Val = append(m.Val, e.val)
		m.RowPtr[e.row+1]++
	}
	for i := 0; i < rows; i++ {
		m.RowPtr[i+1] += m.RowPtr[i]
	}
	return m, nil
}

// WriteMM writes m as "matrix coordinate real general": the size line, then
// one "i j value" line per stored entry in row-major order, 1-based, values
// in full precision. A non-finite value is an error naming the entry.
func WriteMM(w io.Writer, m *CSR) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", m.Rows, m.Cols, m.NNZ())
	buf := make([]byte, 0, 64)
	for i := 0; i < m.Rows; i++ {
		idx, val := m.Row(i)
		for q, c := range idx {
			v := val[q]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("matrix market: entry (%d, %d) is %v: only finite values can be written", i+1, c+1, v)
			}
			buf = strconv.AppendInt(buf[:0], int64(i+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(c)+1, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// ReadDenseMM reads a dense matrix in Matrix Market array format with the
// default options; see MMOptions.ReadDenseMM.
func ReadDenseMM(r io.Reader) (*mat.Dense, error) { return MMOptions{}.ReadDenseMM(r) }

// ReadDenseMM reads a dense matrix in Matrix Market array format (real or
// integer; general, or symmetric with the lower triangle given), values in
// column-major order, one per line. A 0-row or 0-column matrix is returned
// as an empty mat.Dense. Errors name the 1-based line: a bad header, a bad
// size line or one declaring more than the limits or the input can hold, a
// value that is not a finite number (or negative under NonNegative), too few
// or too many values.
func (o MMOptions) ReadDenseMM(r io.Reader) (*mat.Dense, error) {
	s := newMMScanner(r, o)
	h, size, err := s.open("array", "a dense matrix", 2)
	if err != nil {
		return nil, err
	}
	rows, cols := size[0], size[1]
	if elems := uint64(rows) * uint64(cols); elems > o.maxEntries() {
		return nil, s.errorf("declared size %d×%d is %d values, more than the limit of %d", rows, cols, elems, o.maxEntries())
	}
	n := uint64(rows) * uint64(cols)
	if h.symmetry == "symmetric" {
		n = uint64(rows) * uint64(rows+1) / 2
	}
	capHint, err := s.fits(n, "values", minValueLine)
	if err != nil {
		return nil, err
	}
	// Read the values as given (column by column), then place them.
	vals := make([]float64, 0, capHint)
	for k := uint64(0); k < n; k++ {
		t, err := s.item(k, n, "values")
		if err != nil {
			return nil, err
		}
		if f := strings.Fields(t); len(f) != 1 {
			return nil, s.errorf("want one value per line, found %d fields in %q", len(f), t)
		}
		v, err := s.value(h.field, t)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	if err := s.end(n, "values"); err != nil {
		return nil, err
	}
	if rows == 0 || cols == 0 {
		return &mat.Dense{}, nil
	}
	data := make([]float64, rows*cols)
	k := 0
	for j := 0; j < cols; j++ {
		i0 := 0
		if h.symmetry == "symmetric" {
			i0 = j
		}
		for i := i0; i < rows; i++ {
			data[i*cols+j] = vals[k]
			if h.symmetry == "symmetric" {
				data[j*cols+i] = vals[k]
			}
			k++
		}
	}
	return mat.NewDense(rows, cols, data), nil
}

// WriteDenseMM writes a as "matrix array real general": the size line, then
// the values in column-major order (as the format requires), one per line,
// in full precision. An empty mat.Dense is written as 0×0. A non-finite
// value is an error naming the entry.
func WriteDenseMM(w io.Writer, a *mat.Dense) error {
	rows, cols := 0, 0
	if !a.IsEmpty() {
		rows, cols = a.Dims()
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix array real general\n%d %d\n", rows, cols)
	buf := make([]byte, 0, 32)
	for j := 0; j < cols; j++ {
		for i := 0; i < rows; i++ {
			v := a.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("matrix market: entry (%d, %d) is %v: only finite values can be written", i+1, j+1, v)
			}
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// ReadMMFile reads a sparse Matrix Market file with the default options;
// errors name the file.
func ReadMMFile(path string) (*CSR, error) { return MMOptions{}.ReadMMFile(path) }

// ReadMMFile reads a sparse Matrix Market file; errors name the file.
func (o MMOptions) ReadMMFile(path string) (*CSR, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := o.ReadMM(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ReadDenseMMFile reads a dense Matrix Market file with the default
// options; errors name the file.
func ReadDenseMMFile(path string) (*mat.Dense, error) { return MMOptions{}.ReadDenseMMFile(path) }

// ReadDenseMMFile reads a dense Matrix Market file; errors name the file.
func (o MMOptions) ReadDenseMMFile(path string) (*mat.Dense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := o.ReadDenseMM(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// WriteMMFile writes m to path atomically (a temporary file in the same
// directory, then rename).
func WriteMMFile(path string, m *CSR) error {
	return writeAtomic(path, func(w io.Writer) error { return WriteMM(w, m) })
}

// WriteDenseMMFile writes a to path atomically.
func WriteDenseMMFile(path string, a *mat.Dense) error {
	return writeAtomic(path, func(w io.Writer) error { return WriteDenseMM(w, a) })
}

func writeAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = write(f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
