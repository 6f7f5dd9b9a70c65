// Package cache stores built corpora on disk so that the text pipeline runs
// once per (data files, pipeline options): a versioned, compact binary file
// per key, written atomically.
//
// # Key
//
// Key(parts...) is the hex SHA-256 of the format version and the given
// parts, each length-prefixed: callers pass the SHA-256 of every data file
// read (the collection's files and the stop list) and the pipeline options'
// canonical string (text.Options.Canonical or synthetic.Config.Canonical).
//
// # Inputs
//
// An entry also records the files the corpus was built from (Input: path,
// size, modification time and the SHA-256 verified when it was built). The
// caller uses a hit only while its inputs still match: Input.Unchanged is
// the cheap size+mtime test; a file that changed, or every file under an
// explicit verify, is hashed again (datasets/corpora does this).
//
// # File format (FormatVersion 3)
//
// All integers little-endian; a string is a uint32 byte length and the
// bytes:
//
//	magic        8 bytes  "TMFCORP\x00"
//	version      uint32   FormatVersion
//	key          string   the key the file was stored under
//	inputs       uint32 count, then per file: path string, size uint64,
//	             mtime int64 (Unix ns), sha256 string
//	notes        uint32 count, then the strings of Entry.Notes
//	name         string   Corpus.Name
//	M, N, NNZ    uint64 ×3
//	vocab        M strings
//	RowPtr       (M+1) uint64
//	ColIdx       NNZ int32
//	Val          NNZ uint64 (IEEE-754 bits of the float64)
//	DocIDs       N strings
//	labels       uint8 (0: nil, 1: present) then N int32 if present
//	class names  uint8 (0: nil, 1: present) then uint32 count and strings
//	checksum     uint32   CRC-32C (Castagnoli) of every byte before it
//
// Dᵀ is not stored; it is rebuilt on reading (engine.NewCorpus). A corpus
// reads back bit-exact (reflect.DeepEqual to what was stored), except that
// arrays are never nil: an empty matrix comes back with empty slices.
//
// A file that is truncated, fails its checksum, has another magic, version
// or key, or does not decode to a valid corpus is not used: Get removes it
// (so the next Put rewrites it) and returns a *CorruptError saying why, so
// that the caller reports the damage rather than rebuilding silently.
package cache
