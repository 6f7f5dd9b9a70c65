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

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// FormatVersion is the version of the file format; it is part of every key
// and of every file header.
const FormatVersion = 3

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
}

// Entry is what a key holds: the corpus and the input files it was built
// from, as they were when their checksums were verified.
type Entry struct {
	Corpus *engine.Corpus
	Inputs []Input
	// Notes are the reader's and the text pipeline's warnings from when
	// the corpus was built, for a hit to report them again (a run's
	// notes.txt keeps them whether its corpus was built or read back).
	Notes []string
}

// Input is one file a corpus was built from: its path, its size and
// modification time when it was verified, and the verified SHA-256.
type Input struct {
	Path    string
	Size    int64
	ModTime int64 // Unix nanoseconds
	SHA256  string
}

// StatInput describes the file at path, whose content has been verified to
// have the digest sha256, by its current size and modification time.
func StatInput(path, sha256 string) (Input, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Input{}, err
	}
	return Input{Path: path, Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), SHA256: sha256}, nil
}

// Unchanged reports whether the file still has the recorded size and
// modification time: the cheap test that lets a cache hit skip re-hashing.
// A file that changed, or that cannot be stat'ed, must be verified again.
func (in Input) Unchanged() bool {
	fi, err := os.Stat(in.Path)
	return err == nil && fi.Mode().IsRegular() && fi.Size() == in.Size && fi.ModTime().UnixNano() == in.ModTime
}

// CorruptError is Get's error for a cache file that exists but cannot be
// used (truncated, failed checksum, another format or key). Get has removed
// the file; the caller reports it and builds the corpus again.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("corpus cache file %s is damaged (%v); it was removed", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Open returns the cache in dir. The directory is created by the first Put.
func Open(dir string) *Cache { return &Cache{dir: dir} }

// Dir is the cache directory.
func (c *Cache) Dir() string { return c.dir }

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

// Get returns the entry stored under key. A missing file is a miss
// (ok false, nil error). A file that exists but cannot be used is removed
// and reported as a *CorruptError, so that damage is never repaired
// silently. Other errors are for a malformed key or an unreadable file.
func (c *Cache) Get(key string) (e Entry, ok bool, err error) {
	if err := checkKey(key); err != nil {
		return Entry{}, false, err
	}
	path := c.Path(key)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Entry{}, false, nil
	}
	if err != nil {
		return Entry{}, false, fmt.Errorf("cache: %w", err)
	}
	e, err = decode(data, key)
	if err != nil {
		if rmErr := os.Remove(path); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			return Entry{}, false, fmt.Errorf("cache: removing unusable %s (%v): %w", path, err, rmErr)
		}
		return Entry{}, false, &CorruptError{Path: path, Err: err}
	}
	return e, true, nil
}

// Put stores e under key, atomically: it writes a temporary file in the
// cache directory and renames it over the key's file.
func (c *Cache) Put(key string, e Entry) (err error) {
	if err := checkKey(key); err != nil {
		return err
	}
	corpus := e.Corpus
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
	if err = encode(bw, key, e); err != nil {
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

// writeArray writes xs, chunk elements at a time; put appends the
// little-endian encoding of one element.
func writeArray[T any](w *writer, xs []T, put func([]byte, T) []byte) {
	for lo := 0; lo < len(xs); lo += chunk {
		w.buf = w.buf[:0]
		for _, x := range xs[lo:min(lo+chunk, len(xs))] {
			w.buf = put(w.buf, x)
		}
		w.write(w.buf)
	}
}

func encode(out io.Writer, key string, e Entry) error {
	c := e.Corpus
	if len(c.Vocab) != c.D.Rows || len(c.DocIDs) != c.D.Cols {
		return fmt.Errorf("corpus %q: %d terms and %d ids for a %d×%d matrix", c.Name, len(c.Vocab), len(c.DocIDs), c.D.Rows, c.D.Cols)
	}
	w := &writer{w: out, crc: crc32.New(castagnoli)}
	w.write([]byte(magic))
	w.u32(FormatVersion)
	w.str(key)
	w.u32(uint32(len(e.Inputs)))
	for _, in := range e.Inputs {
		w.str(in.Path)
		w.u64(uint64(in.Size))
		w.u64(uint64(in.ModTime))
		w.str(in.SHA256)
	}
	w.u32(uint32(len(e.Notes)))
	for _, n := range e.Notes {
		w.str(n)
	}
	w.str(c.Name)
	w.u64(uint64(c.D.Rows))
	w.u64(uint64(c.D.Cols))
	w.u64(uint64(c.D.NNZ()))
	for _, t := range c.Vocab {
		w.str(t)
	}
	writeArray(w, c.D.RowPtr, func(b []byte, x int) []byte { return binary.LittleEndian.AppendUint64(b, uint64(x)) })
	writeArray(w, c.D.ColIdx[:c.D.NNZ()], func(b []byte, x int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(x)) })
	writeArray(w, c.D.Val[:c.D.NNZ()], func(b []byte, x float64) []byte { return binary.LittleEndian.AppendUint64(b, math.Float64bits(x)) })
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

func decode(data []byte, key string) (Entry, error) {
	if len(data) < len(magic)+8 {
		return Entry{}, fmt.Errorf("truncated: %d bytes", len(data))
	}
	if string(data[:len(magic)]) != magic {
		return Entry{}, fmt.Errorf("not a topicmf corpus file (bad magic)")
	}
	if v := binary.LittleEndian.Uint32(data[len(magic):]); v != FormatVersion {
		return Entry{}, fmt.Errorf("format version %d, this build reads %d", v, FormatVersion)
	}
	body := data[:len(data)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[len(data)-4:]); got != want {
		return Entry{}, fmt.Errorf("checksum mismatch (%08x, header says %08x): corrupt or truncated", got, want)
	}
	r := &reader{b: body, off: len(magic) + 4}
	if k := r.str(); r.err == nil && k != key {
		return Entry{}, fmt.Errorf("holds key %q, not %s", k, key)
	}
	var inputs []Input
	ni := int(r.u32())
	if r.err == nil && ni > (len(body)-r.off)/24 {
		return Entry{}, fmt.Errorf("header says %d input files, more than the file can hold", ni)
	}
	for range ni {
		inputs = append(inputs, Input{Path: r.str(), Size: int64(r.u64()), ModTime: int64(r.u64()), SHA256: r.str()})
	}
	var notes []string
	nn := int(r.u32())
	if r.err == nil && nn > (len(body)-r.off)/4 {
		return Entry{}, fmt.Errorf("header says %d notes, more than the file can hold", nn)
	}
	for range nn {
		notes = append(notes, r.str())
	}
	corpus, err := decodeCorpus(r, body)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Corpus: corpus, Inputs: inputs, Notes: notes}, nil
}

// decodeCorpus decodes the corpus that follows the inputs.
func decodeCorpus(r *reader, body []byte) (*engine.Corpus, error) {
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
