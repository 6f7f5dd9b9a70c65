// Package datasets reads the public collections topicmf uses into one
// Collection shape (documents with classes, queries, graded judgments,
// splits), keeps the registry of their files with download locations and
// SHA-256 digests, and finds the data directory.
//
// Readers stream the archives as shipped (.tar.gz, .zip, .gz) and never
// unpack them to disk. Every quirk listed in a collection's SOURCE.md is
// handled in its reader and named in a comment there.
//
// ReadUser reads a user's own collection into the same shape: a folder of
// text files, CSV/TSV, JSON Lines, or SMART files with TREC qrels (see
// usercorpus.go).
package datasets
