// Package shards defines the on-disk formats of distributed topicmf: a
// corpus as sharded document files with a manifest, and the factors of
// every iteration as sharded row files with a manifest. The formats are
// plain UTF-8 text, one record per line, so that any tool (and any Beam
// runner's file system: local paths, gs://, s3://) can produce and read
// them.
//
// # Corpus (topicmf-docs/1)
//
// A corpus directory holds corpus.json (CorpusManifest), vocab.txt (one
// term per line; line m+1 is term m, the row m of the term-document matrix
// D) and the document shards the manifest lists. A document line is
//
//	<n> TAB <id> TAB <class> TAB <m>:<w> <m>:<w> …
//
// with n the document's column of D (0-based), id its identifier (no tab or
// newline), class its class index into the manifest's classes (−1 when
// unknown or when the corpus has no classes) and the stored entries d_mn = w
// of column n, terms strictly ascending, every w finite (written with
// strconv 'g' −1, so a value survives a round trip bit for bit). A shard
// holds the documents First … First+Count−1 in order; the manifest records,
// per shard, how many documents of each class it holds, so that a reader of
// one shard knows every document's position in class-major order (the
// order in which Group RLSI sums, engine/grouping) without reading the
// others.
//
// A corpus converted from text (topicmf-beam convert) also holds
// vectorizer.json (Vectorizer: the text pipeline's options and document
// frequencies, which weight new text as D was weighted) and counts.mtx
// (the raw term counts, Matrix Market), both read by topicmf transform and
// rank --factors after an export.
//
// # Factors (topicmf-factors/3)
//
// Iteration t of a run lives in <run>/iter-NNNN/ with shards
// U-SSSSS-of-TTTTT.tsv and V-SSSSS-of-TTTTT.tsv and manifest.json
// (IterManifest). A row line is
//
//	<index> TAB <x_1> <x_2> … <x_k>
//
// (index the term m for U, the document n for V; k values in 'g' −1 form).
// Shard i of T holds exactly the rows i, i+T, i+2T, … of its factor, in
// that order — every term's row of U (an all-zero row too) and every
// document's row of V — so that a reader checks each shard on its own
// (ReadFactorShard) and a lost or repeated row cannot pass as a zero.
// (topicmf-factors/1 omitted U's zero rows.) manifest.json is written last,
// by the driver, once every shard of the iteration exists: an iteration
// directory without a readable manifest is incomplete and is recomputed.
// It records every shard's SHA-256 (IterManifest.SHA256), and every reader
// hashes a shard as it reads it (HashingReader) and refuses one that
// differs, so that a shard changed without a change of size or row count
// is not read as good. (topicmf-factors/2 had no checksums.)
package shards
