package cache

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// FormatVersion is the version of the file format; it is part of every key
// and of every file header.
const FormatVersion = 1

const magic = "TMFCORP\x00"

// ext is the file name extension of cached corpora.
const ext = ".corpus"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Key returns the cache key of the given parts: the hex SHA-256 over the
// format version and each part (length-prefixed, so ("ab","c") and
// ("a","bc") differ).
func Key(parts ...string) string {
	h := sha256.New()
	var b [8]byte
	h.Write([]byte("topicmf corpus cache"))
	binary.LittleEndian.PutUint64(b[:], FormatVersion)
	h.Write(b[:])
	for _, p := range parts {
		binary.LittleEndian.PutUint64(b[:], uint64(len(p)))
		h.Write(b[:])
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Cache is a directory of cached corpora. It is safe for concurrent use,
// including by several processes (writes are atomic renames).
type Cache struct {
	dir string

	mu        sync.Mutex
	discarded []string
}

// Open returns the cache in dir. The directory is created by the first Put.
func Open(dir string) *Cache { return &Cache{dir: dir} }

// Dir is the cache directory.
func (c *Cache) Dir() string { return c.dir }

// Discarded lists the files Get found unusable and removed, with the
// reason, oldest first.
func (c *Cache) Discarded() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.discarded...)
}

func checkKey(key string) error {
	if len(key) != 2*sha256.Size {
		return fmt.Errorf("cache: key %q is not a 64-digit hex SHA-256 (use cache.Key)", key)
	}
	for _, r := range key {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return fmt.Errorf("cache: key %q is not a 64-digit lower-case hex SHA-256 (use cache.Key)", key)
		}
	}
	return nil
}

// Path is the file that holds key.
func (c *Cache) Path(key string) string { return filepath.Join(c.dir, key+ext) }

// Get returns the corpus stored under key. A missing file is a miss
// (nil, false, nil); so is an unusable one, which is removed and recorded in
// Discarded. Errors are for a malformed key or a file that exists but
// cannot be read.
func (c *Cache) Get(key string) (*engine.Corpus, bool, error) {
	if err := checkKey(key); err != nil {
		return nil, false, err
	}
	path := c.Path(key)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cache: %w", err)
	}
	corpus, err := decode(data, key)
	if err != nil {
		c.mu.Lock()
		c.discarded = append(c.discarded, fmt.Sprintf("%s: %v", path, err))
		c.mu.Unlock()
		if rmErr := os.Remove(path); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			return nil, false, fmt.Errorf("cache: removing unusable %s (%v): %w", path, err, rmErr)
		}
		return nil, false, nil
	}
	return corpus, true, nil
}

// Put stores corpus under key, atomically: it writes a temporary file in
// the cache directory and renames it over the key's file.
func (c *Cache) Put(key string, corpus *engine.Corpus) (err error) {
	if err := checkKey(key); err != nil {
		return err
	}
	if corpus == nil || corpus.D == nil {
		return fmt.Errorf("cache: Put(%s): nil corpus", key)
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	f, err := os.CreateTemp(c.dir, key+".tmp-*")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err = encode(bw, key, corpus); err != nil {
		return fmt.Errorf("cache: writing %s: %w", f.Name(), err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("cache: writing %s: %w", f.Name(), err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err = os.Rename(f.Name(), c.Path(key)); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// writer encodes little-endian values and keeps the running CRC.
type writer struct {
	w   io.Writer
	crc hash.Hash32
	buf []byte
	err error
}

func (w *writer) write(b []byte) {
	if w.err != nil {
		return
	}
	w.crc.Write(b)
	_, w.err = w.w.Write(b)
}

func (w *writer) u8(x uint8) { w.write([]byte{x}) }

func (w *writer) u32(x uint32) {
	w.buf = binary.LittleEndian.AppendUint32(w.buf[:0], x)
	w.write(w.buf)
}

func (w *writer) u64(x uint64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf[:0], x)
	w.write(w.buf)
}

func (w *writer) str(s string) {
	w.u32(uint32(len(s)))
	w.write([]byte(s))
}

// chunk is the number of array elements encoded per write.
const chunk = 8192

func (w *writer) ints(xs []int) {
	for lo := 0; lo < len(xs); lo += chunk {
		w.buf = w.buf[:0]
		for _, x := range xs[lo:min(lo+chunk, len(xs))] {
			w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(x))
		}
		w.write(w.buf)
	}
}

func (w *writer) int32s(xs []int32) {
	for lo := 0; lo < len(xs); lo += chunk {
		w.buf = w.buf[:0]
		for _, x := range xs[lo:min(lo+chunk, len(xs))] {
			w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(x))
		}
		w.write(w.buf)
	}
}

func (w *writer) floats(xs []float64) {
	for lo := 0; lo < len(xs); lo += chunk {
		w.buf = w.buf[:0]
		for _, x := range xs[lo:min(lo+chunk, len(xs))] {
			w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(x))
		}
		w.write(w.buf)
	}
}

func encode(out io.Writer, key string, c *engine.Corpus) error {
	if len(c.Vocab) != c.D.Rows || len(c.DocIDs) != c.D.Cols {
		return fmt.Errorf("corpus %q: %d terms and %d ids for a %d×%d matrix", c.Name, len(c.Vocab), len(c.DocIDs), c.D.Rows, c.D.Cols)
	}
	w := &writer{w: out, crc: crc32.New(castagnoli)}
	w.write([]byte(magic))
	w.u32(FormatVersion)
	w.str(key)
	w.str(c.Name)
	w.u64(uint64(c.D.Rows))
	w.u64(uint64(c.D.Cols))
	w.u64(uint64(c.D.NNZ()))
	for _, t := range c.Vocab {
		w.str(t)
	}
	w.ints(c.D.RowPtr)
	w.int32s(c.D.ColIdx[:c.D.NNZ()])
	w.floats(c.D.Val[:c.D.NNZ()])
	for _, id := range c.DocIDs {
		w.str(id)
	}
	if c.Labels == nil {
		w.u8(0)
	} else {
		w.u8(1)
		for _, l := range c.Labels {
			w.u32(uint32(int32(l)))
		}
	}
	if c.ClassNames == nil {
		w.u8(0)
	} else {
		w.u8(1)
		w.u32(uint32(len(c.ClassNames)))
		for _, n := range c.ClassNames {
			w.str(n)
		}
	}
	if w.err != nil {
		return w.err
	}
	sum := w.crc.Sum32()
	w.u32(sum)
	return w.err
}

// reader decodes from a byte slice, failing on the first short read.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.off {
		r.err = fmt.Errorf("truncated at byte %d (want %d more of %d)", r.off, n, len(r.b))
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u8() uint8 {
	if s := r.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (r *reader) u32() uint32 {
	if s := r.take(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if s := r.take(8); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

func (r *reader) str() string { return string(r.take(int(r.u32()))) }

// count reads a uint64 count and checks that count items of at least
// minBytes each fit in what is left of the file.
func (r *reader) count(what string, minBytes int) int {
	n := r.u64()
	if r.err == nil && n > uint64(len(r.b)-r.off)/uint64(minBytes) {
		r.err = fmt.Errorf("header says %d %s, more than the file can hold", n, what)
	}
	return int(n)
}

func decode(data []byte, key string) (*engine.Corpus, error) {
	if len(data) < len(magic)+8 {
		return nil, fmt.Errorf("truncated: %d bytes", len(data))
	}
	if string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("not a topicmf corpus file (bad magic)")
	}
	if v := binary.LittleEndian.Uint32(data[len(magic):]); v != FormatVersion {
		return nil, fmt.Errorf("format version %d, this build reads %d", v, FormatVersion)
	}
	body := data[:len(data)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[len(data)-4:]); got != want {
		return nil, fmt.Errorf("checksum mismatch (%08x, header says %08x): corrupt or truncated", got, want)
	}
	r := &reader{b: body, off: len(magic) + 4}
	if k := r.str(); r.err == nil && k != key {
		return nil, fmt.Errorf("holds key %q, not %s", k, key)
	}
	name := r.str()
	m := r.count("terms", 4+8)
	n := r.count("documents", 4)
	nnz := r.count("non-zeros", 12)
	if r.err != nil {
		return nil, r.err
	}
	vocab := make([]string, m)
	for i := range vocab {
		vocab[i] = r.str()
	}
	rowPtr := make([]int, m+1)
	if s := r.take(8 * (m + 1)); s != nil {
		for i := range rowPtr {
			v := binary.LittleEndian.Uint64(s[8*i:])
			if v > uint64(nnz) {
				return nil, fmt.Errorf("RowPtr[%d] = %d beyond %d non-zeros", i, v, nnz)
			}
			rowPtr[i] = int(v)
		}
	}
	colIdx := make([]int32, nnz)
	if s := r.take(4 * nnz); s != nil {
		for i := range colIdx {
			colIdx[i] = int32(binary.LittleEndian.Uint32(s[4*i:]))
		}
	}
	val := make([]float64, nnz)
	if s := r.take(8 * nnz); s != nil {
		for i := range val {
			val[i] = math.Float64frombits(binary.LittleEndian.Uint64(s[8*i:]))
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = r.str()
	}
	var labels []int
	switch r.u8() {
	case 0:
	case 1:
		labels = make([]int, n)
		if s := r.take(4 * n); s != nil {
			for i := range labels {
				labels[i] = int(int32(binary.LittleEndian.Uint32(s[4*i:])))
			}
		}
	default:
		return nil, fmt.Errorf("bad labels flag")
	}
	var classNames []string
	switch r.u8() {
	case 0:
	case 1:
		k := int(r.u32())
		if r.err == nil && k > len(body)-r.off {
			return nil, fmt.Errorf("header says %d class names, more than the file can hold", k)
		}
		classNames = make([]string, 0, k)
		for range k {
			classNames = append(classNames, r.str())
		}
	default:
		return nil, fmt.Errorf("bad class-names flag")
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(body) {
		return nil, fmt.Errorf("%d bytes left over after the corpus", len(body)-r.off)
	}
	d, err := sparse.New(m, n, rowPtr, colIdx, val)
	if err != nil {
		return nil, err
	}
	return engine.NewCorpus(name, vocab, d, ids, labels, classNames)
}
