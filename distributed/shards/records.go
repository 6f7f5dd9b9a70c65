package shards

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Doc is one document of a corpus shard: column N of D, its class-major
// position Pos (filled by ReadDocs from the manifest; equal to N for a
// corpus without classes), and its stored entries d_mn (Terms ascending).
type Doc struct {
	N, Pos int64
	ID     string
	Class  int64
	Terms  []int32
	Vals   []float64
}

// Row is one row of a factor: U's row for term Index, or v_n for document
// Index.
type Row struct {
	Index int64
	Vals  []float64
}

// FormatFloat writes x so that ParseFloat reads back the same bits.
func FormatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// AppendDoc appends the line of d (with its newline) to b.
func AppendDoc(b []byte, d Doc) []byte {
	b = strconv.AppendInt(b, d.N, 10)
	b = append(b, '\t')
	b = append(b, d.ID...)
	b = append(b, '\t')
	b = strconv.AppendInt(b, d.Class, 10)
	b = append(b, '\t')
	for i, m := range d.Terms {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, ':')
		b = strconv.AppendFloat(b, d.Vals[i], 'g', -1, 64)
	}
	return append(b, '\n')
}

// AppendRow appends the line of r (with its newline) to b.
func AppendRow(b []byte, r Row) []byte {
	b = strconv.AppendInt(b, r.Index, 10)
	b = append(b, '\t')
	for i, x := range r.Vals {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	return append(b, '\n')
}

// ParseDoc reads a document line of a corpus with terms terms and classes
// classes (0: no classes). Errors say what is wrong, not where: callers
// prefix the file and line.
func ParseDoc(line string, terms, classes int) (Doc, error) {
	f := strings.Split(line, "\t")
	if len(f) != 4 {
		return Doc{}, fmt.Errorf("want 4 tab-separated fields (n, id, class, entries), got %d", len(f))
	}
	var d Doc
	var err error
	if d.N, err = strconv.ParseInt(f[0], 10, 64); err != nil || d.N < 0 {
		return Doc{}, fmt.Errorf("document column %q is not a non-negative integer", f[0])
	}
	d.ID = f[1]
	if d.Class, err = strconv.ParseInt(f[2], 10, 64); err != nil || d.Class < -1 || d.Class >= int64(classes) {
		return Doc{}, fmt.Errorf("class %q is not −1 or a class index 0..%d", f[2], classes-1)
	}
	if f[3] == "" {
		return d, nil
	}
	ents := strings.Split(f[3], " ")
	d.Terms = make([]int32, len(ents))
	d.Vals = make([]float64, len(ents))
	for i, e := range ents {
		ms, ws, ok := strings.Cut(e, ":")
		if !ok {
			return Doc{}, fmt.Errorf("entry %d %q: want term:weight", i+1, e)
		}
		m, err := strconv.ParseInt(ms, 10, 32)
		if err != nil || m < 0 || m >= int64(terms) {
			return Doc{}, fmt.Errorf("entry %d %q: term %q is not in 0..%d", i+1, e, ms, terms-1)
		}
		if i > 0 && int32(m) <= d.Terms[i-1] {
			return Doc{}, fmt.Errorf("entry %d %q: terms must be strictly ascending (previous %d)", i+1, e, d.Terms[i-1])
		}
		w, err := strconv.ParseFloat(ws, 64)
		if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
			return Doc{}, fmt.Errorf("entry %d %q: weight %q is not a finite number", i+1, e, ws)
		}
		d.Terms[i], d.Vals[i] = int32(m), w
	}
	return d, nil
}

// ParseRow reads a factor row of k values whose index must be below limit.
func ParseRow(line string, k int, limit int64) (Row, error) {
	is, vs, ok := strings.Cut(line, "\t")
	if !ok {
		return Row{}, fmt.Errorf("want <index> TAB <%d values>", k)
	}
	var r Row
	var err error
	if r.Index, err = strconv.ParseInt(is, 10, 64); err != nil || r.Index < 0 || r.Index >= limit {
		return Row{}, fmt.Errorf("row index %q is not in 0..%d", is, limit-1)
	}
	f := strings.Fields(vs)
	if len(f) != k {
		return Row{}, fmt.Errorf("row %d has %d values, want K = %d", r.Index, len(f), k)
	}
	r.Vals = make([]float64, k)
	for i, s := range f {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Row{}, fmt.Errorf("row %d value %d %q is not a finite number", r.Index, i+1, s)
		}
		r.Vals[i] = x
	}
	return r, nil
}

// maxLine bounds a line (a document with ~10⁶ distinct terms).
const maxLine = 64 << 20

// EachLine calls f for every line of r with its 1-based number; an error
// from f or from reading is returned as "name:line: error".
func EachLine(r io.Reader, name string, f func(line string, no int) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	no := 0
	for sc.Scan() {
		no++
		if err := f(sc.Text(), no); err != nil {
			return fmt.Errorf("%s:%d: %w", name, no, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, no+1, err)
	}
	return nil
}

// ReadFactorShard reads shard i of nshards of a factor of rows rows of k
// values from r, named name in errors, and calls emit for each row. Shard i
// holds exactly the rows i, i+nshards, i+2·nshards, … below rows, in that
// order (package doc): a missing, repeated, misplaced or extra row, and a
// shard that ends early, is an error "name:line: what" or "name: what".
func ReadFactorShard(r io.Reader, name string, i, nshards int, rows int64, k int, emit func(Row) error) error {
	next := int64(i)
	err := EachLine(r, name, func(line string, _ int) error {
		row, err := ParseRow(line, k, rows)
		if err != nil {
			return err
		}
		if row.Index != next {
			return fmt.Errorf("row %d, want row %d (shard %d of %d holds rows %d, %d, … in order)", row.Index, next, i, nshards, i, i+nshards)
		}
		next += int64(nshards)
		return emit(row)
	})
	if err != nil {
		return err
	}
	if next < rows {
		return fmt.Errorf("%s: ends before row %d of 0..%d (shard %d of %d)", name, next, rows-1, i, nshards)
	}
	return nil
}
