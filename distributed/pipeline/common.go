package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs:// paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
)

// ErrPrefix starts the message of every data error a pipeline step
// returns, so that the driver can pick the one line out of a runner's
// wrapped failure report.
const ErrPrefix = "topicmf-beam: "

// dataErr is a data error of a pipeline step.
func dataErr(format string, args ...any) error {
	return fmt.Errorf(ErrPrefix+format, args...)
}

// Contrib is one shuffled record of a product's row: an entry W = d_mn of D
// at the other index Index (document n — or its class-major position for
// Group RLSI — in Map-1, term m in Map-2) with the factor row it multiplies
// (v_n, or ū_m; empty when ū_m is zero). Group RLSI's Map-1 records also
// carry the document's column Doc and class Class.
type Contrib struct {
	Index int64
	W     float64
	Vec   []float64
	Doc   int64
	Class int64
}

// Partial is row x of one block's partial Gram matrix; Order is the
// block's place in the engine's order of additions.
type Partial struct {
	Order int64
	Vals  []float64
}

// serial runs the engine kernels inside one bundle on the calling
// goroutine: parallelism comes from the runner's workers.
var serial = parallel.NewPool(1)

func init() {
	beam.RegisterType(typeOf[shards.Doc]())
	beam.RegisterType(typeOf[shards.Row]())
	beam.RegisterType(typeOf[Contrib]())
	beam.RegisterType(typeOf[Partial]())
	register.DoFn3x1[context.Context, int, func(int64, shards.Doc), error](&readDocsFn{})
	register.DoFn3x1[context.Context, int, func(int64, []float64), error](&readRowsFn{})
	register.DoFn3x0[int64, []float64, func(int64, shards.Row)](&blockKeyFn{})
	register.DoFn3x1[int64, func(*shards.Row) bool, func(int64, Partial), error](&gramBlockFn{})
	register.Function2x1(foldFn)
	register.DoFn3x1[int, func(*shards.Row) bool, func([]float64), error](&assembleFn{})
	register.DoFn3x0[int64, []float64, func(int, shards.Row)](&shardKeyFn{})
	register.Function2x0(shardMarkFn)
	register.DoFn3x1[context.Context, int, func(*shards.Row) bool, error](&writeRowsFn{})
	register.Emitter2[int64, shards.Doc]()
	register.Emitter2[int64, []float64]()
	register.Emitter2[int64, shards.Row]()
	register.Emitter2[int64, Partial]()
	register.Emitter2[int, shards.Row]()
	register.Emitter2[int64, Contrib]()
	register.Emitter1[[]float64]()
	register.Iter1[shards.Row]()
	register.Iter1[Partial]()
	register.Iter1[shards.Doc]()
	register.Iter1[[]float64]()
	register.Iter1[Contrib]()
	register.Iter1[int64]()
}

// readDocsFn reads corpus shard i and emits ⟨n, document⟩.
type readDocsFn struct {
	Dir     string
	Corpus  shards.CorpusManifest
	Offsets [][]int64
}

func (f *readDocsFn) ProcessElement(ctx context.Context, i int, emit func(int64, shards.Doc)) error {
	name := shards.Join(f.Dir, f.Corpus.Shards[i].File)
	return readShard(ctx, name, func(r *bufio.Reader) error {
		err := f.Corpus.ReadDocs(r, i, f.Offsets[i], func(d shards.Doc) error {
			emit(d.N, d)
			return nil
		})
		if err != nil {
			return dataErr("corpus %s/%v", f.Dir, err)
		}
		return nil
	})
}

// previousRow copies the previous iteration's row m of U, when there is
// one (prev yields at most one), into dst, which otherwise stays as it is;
// a row of another length than dst is a data error, whose wanted length is
// described as size followed by len(dst).
func previousRow(m int64, prev func(*[]float64) bool, dst []float64, size string) error {
	var p []float64
	for prev(&p) {
		if len(p) != len(dst) {
			return dataErr("previous U row %d has %d values, want %s%d", m, len(p), size, len(dst))
		}
		copy(dst, p)
	}
	return nil
}

// readShard opens the shard file name on the runner's file system (local,
// gs://, …) and hands it to read, buffered; failing to open it is a data
// error naming the file.
func readShard(ctx context.Context, name string, read func(*bufio.Reader) error) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return dataErr("%s: %v", name, err)
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, name)
	if err != nil {
		return dataErr("%v", err)
	}
	defer r.Close()
	return read(bufio.NewReaderSize(r, 1<<20))
}

// ReadDocs is the corpus as ⟨n, document⟩.
func ReadDocs(s beam.Scope, dir string, c *shards.CorpusManifest) beam.PCollection {
	s = s.Scope("ReadDocs")
	idx := make([]int, len(c.Shards))
	for i := range idx {
		idx[i] = i
	}
	return beam.ParDo(s, &readDocsFn{Dir: dir, Corpus: *c, Offsets: c.ClassOffsets()}, beam.CreateList(s, idx))
}

// readRowsFn reads factor shard Files[i], shard i of len(Files) of a
// factor of Limit rows of K values (shards.ReadFactorShard), and emits
// ⟨index, row⟩.
type readRowsFn struct {
	Files  []string
	SHA256 []string // of each file, from the iteration manifest
	K      int
	Limit  int64
}

func (f *readRowsFn) ProcessElement(ctx context.Context, i int, emit func(int64, []float64)) error {
	name := f.Files[i]
	return readShard(ctx, name, func(r *bufio.Reader) error {
		hr := shards.NewHashingReader(r, name, f.SHA256[i])
		err := shards.ReadFactorShard(bufio.NewReader(hr), name, i, len(f.Files), f.Limit, f.K, func(row shards.Row) error {
			emit(row.Index, row.Vals)
			return nil
		})
		if err == nil {
			err = hr.Check()
		}
		if err != nil {
			return dataErr("%v", err)
		}
		return nil
	})
}

// ReadRows is a factor's shards as ⟨index, row⟩ (empty for no files),
// each checked against its SHA-256 in sums (a failed check fails the
// pipeline with a data error naming the shard).
func ReadRows(s beam.Scope, files, sums []string, k int, limit int64) beam.PCollection {
	s = s.Scope("ReadRows")
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	return beam.ParDo(s, &readRowsFn{Files: files, SHA256: sums, K: k, Limit: limit}, beam.CreateList(s, idx))
}

// blockKeyFn keys a row by its block of dense.RowBlock rows.
type blockKeyFn struct{}

func (blockKeyFn) ProcessElement(i int64, v []float64, emit func(int64, shards.Row)) {
	emit(i/dense.RowBlock, shards.Row{Index: i, Vals: v})
}

// gramBlockFn forms block b's partial Gram matrix AᵀA from its rows (rows
// Total of K columns in all; missing rows are zero) with dense.Gram, and
// emits its rows keyed by row x.
type gramBlockFn struct {
	K     int
	Total int64
}

func (f *gramBlockFn) ProcessElement(b int64, rows func(*shards.Row) bool, emit func(int64, Partial)) error {
	a, err := blockMatrix(b, f.Total, f.K, rows)
	if err != nil {
		return err
	}
	g := mat.NewDense(f.K, f.K, nil)
	dense.Gram(serial, g, a)
	for x := 0; x < f.K; x++ {
		emit(int64(x), Partial{Order: b, Vals: g.RawRowView(x)})
	}
	return nil
}

// blockMatrix is block b (rows b·RowBlock …) of a total×k matrix from its
// stored rows, zero rows in place.
func blockMatrix(b, total int64, k int, rows func(*shards.Row) bool) (*mat.Dense, error) {
	lo := b * dense.RowBlock
	hi := min(lo+dense.RowBlock, total)
	a := mat.NewDense(int(hi-lo), k, nil)
	seen := make([]bool, hi-lo)
	var r shards.Row
	for rows(&r) {
		i := r.Index - lo
		if len(r.Vals) != k {
			return nil, dataErr("row %d has %d values, want %d", r.Index, len(r.Vals), k)
		}
		if seen[i] {
			return nil, dataErr("row %d appears twice", r.Index)
		}
		seen[i] = true
		a.SetRow(int(i), r.Vals)
	}
	return a, nil
}

// foldFn adds the partials of output row x in block order, entry by entry,
// from +0: the engine's reduction of block partials.
func foldFn(x int64, parts func(*Partial) bool) shards.Row {
	var ps []Partial
	var p Partial
	for parts(&p) {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b Partial) int { return int(a.Order - b.Order) })
	out := make([]float64, len(ps[0].Vals))
	for _, p := range ps {
		for y, v := range p.Vals {
			out[y] += v
		}
	}
	return shards.Row{Index: x, Vals: out}
}

// assembleFn gathers Groups matrices of K×K from their rows (row index
// g·K + x) into one flat slice; absent rows are zero. The sentinel row
// −1 makes sure there is always one element.
type assembleFn struct {
	Groups, K int
}

func (f *assembleFn) ProcessElement(_ int, rows func(*shards.Row) bool, emit func([]float64)) error {
	out := make([]float64, f.Groups*f.K*f.K)
	var r shards.Row
	for rows(&r) {
		if r.Index < 0 {
			continue
		}
		copy(out[r.Index*int64(f.K):], r.Vals)
	}
	emit(out)
	return nil
}

// Grams computes, as a singleton []float64 of groups·k·k entries, the
// block-reduced Gram matrices from block partials keyed by g·k + x.
func Grams(s beam.Scope, partials beam.PCollection, groups, k int) beam.PCollection {
	rows := beam.ParDo(s, foldFn, beam.GroupByKey(s, partials))
	rows = beam.Flatten(s, rows, beam.Create(s, shards.Row{Index: -1}))
	return beam.ParDo(s, &assembleFn{Groups: groups, K: k}, beam.GroupByKey(s, beam.AddFixedKey(s, rows)))
}

// Gram is AᵀA (k×k, flat) of the ⟨index, row⟩ collection of a total×k
// matrix, bit for bit dense.Gram of the whole matrix.
func Gram(s beam.Scope, rows beam.PCollection, total int64, k int) beam.PCollection {
	s = s.Scope("Gram")
	blocks := beam.GroupByKey(s, beam.ParDo(s, blockKeyFn{}, rows))
	return Grams(s, beam.ParDo(s, &gramBlockFn{K: k, Total: total}, blocks), 1, k)
}

// rowProduct is Σ_q w_q·b_q over the records sorted by Index, by the
// engine's sparse row kernel (sparse.MulDense on a one-row matrix): the
// additions are grouped exactly as for the corresponding row of D. Records
// with an empty Vec stand for zero rows.
func rowProduct(cs []Contrib, k int) []float64 { return rowProductCols(cs, 0, k) }

// rowProductCols is rowProduct over the columns [lo, hi) of the records'
// rows.
func rowProductCols(cs []Contrib, lo, hi int) []float64 {
	k := hi - lo
	out := make([]float64, k)
	if len(cs) == 0 {
		return out
	}
	idx := make([]int32, len(cs))
	val := make([]float64, len(cs))
	b := mat.NewDense(len(cs), k, nil)
	for q, c := range cs {
		idx[q], val[q] = int32(q), c.W
		if len(c.Vec) > 0 {
			b.SetRow(q, c.Vec[lo:hi])
		}
	}
	a := &sparse.CSR{Rows: 1, Cols: len(cs), RowPtr: []int{0, len(cs)}, ColIdx: idx, Val: val}
	sparse.MulDense(serial, mat.NewDense(1, k, out), a, b)
	return out
}

// sortContribs gathers and sorts a key's records by Index, rejecting
// duplicates and rows of the wrong length.
func sortContribs(key string, it func(*Contrib) bool, k int) ([]Contrib, error) {
	var cs []Contrib
	var c Contrib
	for it(&c) {
		if len(c.Vec) != 0 && len(c.Vec) != k {
			return nil, dataErr("%s: a row of %d values, want %d", key, len(c.Vec), k)
		}
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b Contrib) int { return int(a.Index - b.Index) })
	for q := 1; q < len(cs); q++ {
		if cs[q].Index == cs[q-1].Index {
			return nil, dataErr("%s: index %d appears twice (a document listed in two shards?)", key, cs[q].Index)
		}
	}
	return cs, nil
}

// finite reports the first non-finite entry of x.
func finite(x []float64) (int, bool) {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i, false
		}
	}
	return 0, true
}

// isZero reports whether every entry of x is zero.
func isZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}

// shardKeyFn keys a row by its output shard (index mod Shards).
type shardKeyFn struct{ Shards int }

func (f *shardKeyFn) ProcessElement(i int64, v []float64, emit func(int, shards.Row)) {
	emit(int(i%int64(f.Shards)), shards.Row{Index: i, Vals: v})
}

// shardMarkFn emits the marker row (index −1) of shard sh, so that every
// shard is written, also one that receives no row.
func shardMarkFn(sh int, emit func(int, shards.Row)) { emit(sh, shards.Row{Index: -1}) }

// writeRowsFn writes shard sh of a factor of Total rows of K values: the
// rows sh, sh+Shards, … below Total in order (the layout
// shards.ReadFactorShard reads). A row it did not receive is written as
// zeros when ZeroFill (U: the pipeline emits only ū_m ≠ 0) and is an error
// otherwise (V: every document has a row).
type writeRowsFn struct {
	Dir, Factor string
	Shards, K   int
	Total       int64
	ZeroFill    bool
}

func (f *writeRowsFn) ProcessElement(ctx context.Context, sh int, rows func(*shards.Row) bool) error {
	var rs []shards.Row
	var r shards.Row
	for rows(&r) {
		if r.Index >= 0 {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(a, b shards.Row) int { return int(a.Index - b.Index) })
	name := shards.Join(f.Dir, shards.ShardName(f.Factor, sh, f.Shards))
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	zero := shards.Row{Vals: make([]float64, f.K)}
	var line []byte
	for n := int64(sh); n < f.Total || len(rs) > 0; n += int64(f.Shards) {
		row := zero
		switch {
		case len(rs) > 0 && rs[0].Index == n:
			row, rs = rs[0], rs[1:]
		case len(rs) > 0 && rs[0].Index < n, n >= f.Total:
			w.Close()
			return dataErr("%s: row %d is not one of rows %d, %d, … below %d, once each", name, rs[0].Index, sh, sh+f.Shards, f.Total)
		case !f.ZeroFill:
			w.Close()
			return dataErr("%s: no row %d", name, n)
		}
		row.Index = n
		line = shards.AppendRow(line[:0], row)
		if _, err := bw.Write(line); err != nil {
			w.Close()
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := bw.Flush(); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return w.Close()
}

// WriteRows writes ⟨index, row⟩ of a factor of total rows of k values as
// nshards shards Factor-SSSSS-of-TTTTT.tsv in dir (writeRowsFn), zeros for
// rows it lacks when zeroFill.
func WriteRows(s beam.Scope, rows beam.PCollection, dir, factor string, nshards int, total int64, k int, zeroFill bool) {
	s = s.Scope("Write" + factor)
	idx := make([]int, nshards)
	for i := range idx {
		idx[i] = i
	}
	keyed := beam.Flatten(s, beam.ParDo(s, &shardKeyFn{Shards: nshards}, rows), beam.ParDo(s, shardMarkFn, beam.CreateList(s, idx)))
	beam.ParDo0(s, &writeRowsFn{Dir: dir, Factor: factor, Shards: nshards, K: k, Total: total, ZeroFill: zeroFill}, beam.GroupByKey(s, keyed))
}

// typeOf is the reflect.Type of T, for beam.RegisterType.
func typeOf[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }
