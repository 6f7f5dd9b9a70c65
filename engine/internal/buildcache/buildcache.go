// Package buildcache keeps the matrix a model family last built from a
// corpus (a document graph, a term-correlation matrix), so that the fits of
// a sweep over K, a regularization weight or seeds on one corpus build it
// once instead of once per fit. The key is the content of the inputs (the
// SHA-256 of the sparse matrix's shape, indices and value bits, and of the
// build's parameters), never their identity, so that a corpus changed in
// place never meets a matrix built from its old values. The builds are
// deterministic (the same bits for any number of workers), so a fit served
// from the cache computes the same bits as one that built its own.
//
// One entry per cache, and only a value of at most MaxHeldBytes: a sweep
// runs its fits corpus by corpus, and a process that fitted once holds at
// most one such matrix per family after its fits are gone.
package buildcache

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"math"
	"sync"

	"github.com/topicmf/topicmf/engine/sparse"
)

// Key is the SHA-256 of a build's inputs.
type Key [sha256.Size]byte

// KeyOf is the key of a build from the matrix a (its dimensions, row
// pointers, column indices and the bits of its values) with the given
// parameters (each a canonical text, e.g. "neighbors=5").
func KeyOf(a *sparse.CSR, params ...string) Key {
	h := sha256.New()
	writeInt(h, len(params))
	for _, p := range params {
		writeInt(h, len(p))
		h.Write([]byte(p))
	}
	writeInt(h, a.Rows)
	writeInt(h, a.Cols)
	buf := make([]byte, 0, 8*4096)
	flush := func() { h.Write(buf); buf = buf[:0] }
	for _, v := range a.RowPtr {
		if buf = binary.LittleEndian.AppendUint64(buf, uint64(v)); len(buf) == cap(buf) {
			flush()
		}
	}
	flush()
	for _, c := range a.ColIdx {
		if buf = binary.LittleEndian.AppendUint32(buf, uint32(c)); len(buf) == cap(buf) {
			flush()
		}
	}
	flush()
	for _, v := range a.Val {
		if buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v)); len(buf) == cap(buf) {
			flush()
		}
	}
	flush()
	var k Key
	h.Sum(k[:0])
	return k
}

func writeInt(h hash.Hash, n int) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	h.Write(b[:])
}

// MaxHeldBytes is the largest value a Last keeps: a larger one is built
// for each fit, as without the cache, rather than held by the process.
const MaxHeldBytes = 1 << 30

// CSRBytes is the memory of a's arrays.
func CSRBytes(a *sparse.CSR) int64 {
	if a == nil {
		return 0
	}
	return int64(8*len(a.RowPtr) + 4*len(a.ColIdx) + 8*len(a.Val))
}

// Last holds the value built for the last key asked for. The zero value
// is ready to use.
type Last[V any] struct {
	mu sync.Mutex
	e  *entry[V]
}

type entry[V any] struct {
	key  Key
	once sync.Once
	v    V
	err  error
}

// Get returns the value for key: the one held when key is the last key
// asked for, else build's, which then replaces it. Concurrent callers of
// the same key wait for one build; a build that fails, or whose value is
// larger than MaxHeldBytes (bytes says how large a value is), is not kept.
func (l *Last[V]) Get(key Key, build func() (V, error), bytes func(V) int64) (V, error) {
	l.mu.Lock()
	e := l.e
	if e == nil || e.key != key {
		e = &entry[V]{key: key}
		l.e = e
	}
	l.mu.Unlock()
	e.once.Do(func() { e.v, e.err = build() })
	if e.err != nil || bytes(e.v) > MaxHeldBytes {
		l.mu.Lock()
		if l.e == e {
			l.e = nil
		}
		l.mu.Unlock()
	}
	return e.v, e.err
}
