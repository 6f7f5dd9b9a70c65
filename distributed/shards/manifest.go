package shards

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"math"
	"strconv"
	"strings"
)

// FS opens files by path and tells their sizes; Beam's
// filesystem.Interface (local, gs://, s3://) satisfies it.
type FS interface {
	OpenRead(ctx context.Context, name string) (io.ReadCloser, error)
	OpenWrite(ctx context.Context, name string) (io.WriteCloser, error)
	Size(ctx context.Context, name string) (int64, error)
}

// Join joins a directory and a file name with "/" (valid for local paths
// and for URLs such as gs://bucket/dir).
func Join(dir, name string) string {
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// Format names of the two manifests.
const (
	CorpusFormat  = "topicmf-docs/1"
	FactorsFormat = "topicmf-factors/3"
)

// CorpusManifest is corpus.json.
type CorpusManifest struct {
	Format    string `json:"format"`
	Name      string `json:"name"`
	Terms     int    `json:"terms"`     // M, rows of D
	Documents int    `json:"documents"` // N, columns of D
	Nonzeros  int64  `json:"nonzeros"`
	// DataScale is ŝ = ‖D‖_F/√N as engine/rlsi.DataScale computes it (the
	// same bits), for λ relative to the data and the balanced V⁽⁰⁾.
	DataScale float64    `json:"data_scale,omitempty"`
	Vocab     string     `json:"vocab"`             // file of M terms, one per line
	Classes   []string   `json:"classes,omitempty"` // class names; empty: no classes
	Shards    []DocShard `json:"shards"`
}

// DocShard is one document shard: documents First … First+Count−1, of
// which ClassCounts[p] are of class p (nil without classes).
type DocShard struct {
	File        string `json:"file"`
	First       int    `json:"first"`
	Count       int    `json:"count"`
	ClassCounts []int  `json:"class_counts,omitempty"`
}

// Bounds of a corpus: a term is an int32 in a document line, and a
// document index stays far from overflowing int64 products such as N·K.
const (
	MaxTerms     = math.MaxInt32
	MaxDocuments = 1 << 40
)

// plainName reports whether name is a file name in the corpus directory,
// not a path.
func plainName(name string) bool { return name != "" && !strings.ContainsAny(name, "/\\") }

// Validate checks that the sizes are within bounds, that the shards cover
// documents 0 … N−1 in order and that their class counts add up. It reads
// no file: ReadCorpus also checks the sizes against the files.
func (c *CorpusManifest) Validate() error {
	if c.Format != CorpusFormat {
		return fmt.Errorf("format %q, want %q", c.Format, CorpusFormat)
	}
	if c.Terms < 1 || c.Terms > MaxTerms {
		return fmt.Errorf("terms %d: want 1..%d", c.Terms, MaxTerms)
	}
	if c.Documents < 1 || c.Documents > MaxDocuments {
		return fmt.Errorf("documents %d: want 1..%d", c.Documents, MaxDocuments)
	}
	if !plainName(c.Vocab) {
		return fmt.Errorf("vocab %q must be a plain name in the corpus directory", c.Vocab)
	}
	next := 0
	for i, s := range c.Shards {
		if !plainName(s.File) {
			return fmt.Errorf("shard %d: file %q must be a plain name in the corpus directory", i, s.File)
		}
		if s.First != next || s.Count < 0 || s.Count > c.Documents-next {
			return fmt.Errorf("shard %d (%s): documents %d+%d, want to start at %d and end by %d", i, s.File, s.First, s.Count, next, c.Documents)
		}
		next += s.Count
		if len(s.ClassCounts) != len(c.Classes) {
			return fmt.Errorf("shard %d (%s): %d class counts, want one per class (%d)", i, s.File, len(s.ClassCounts), len(c.Classes))
		}
		left := s.Count
		for p, n := range s.ClassCounts {
			if n < 0 || n > left {
				return fmt.Errorf("shard %d (%s): class counts %v: want non-negative counts adding up to at most %d documents (class %d)", i, s.File, s.ClassCounts, s.Count, p)
			}
			left -= n
		}
	}
	if next != c.Documents {
		return fmt.Errorf("shards hold %d documents, want %d", next, c.Documents)
	}
	return nil
}

// ClassOffsets returns, for every shard s and class p, the class-major
// position of shard s's first document of class p: the documents of class
// p come after all documents of classes < p and after class p's documents
// in earlier shards (the order of engine/grouping.Layout).
func (c *CorpusManifest) ClassOffsets() [][]int64 {
	np := len(c.Classes)
	out := make([][]int64, len(c.Shards))
	if np == 0 {
		return out
	}
	total := make([]int64, np)
	for _, s := range c.Shards {
		for p, n := range s.ClassCounts {
			total[p] += int64(n)
		}
	}
	start := make([]int64, np)
	for p := 1; p < np; p++ {
		start[p] = start[p-1] + total[p-1]
	}
	for i, s := range c.Shards {
		out[i] = append([]int64(nil), start...)
		for p, n := range s.ClassCounts {
			start[p] += int64(n)
		}
	}
	return out
}

// ClassSizes is the number of documents of each class.
func (c *CorpusManifest) ClassSizes() []int {
	out := make([]int, len(c.Classes))
	for _, s := range c.Shards {
		for p, n := range s.ClassCounts {
			out[p] += n
		}
	}
	return out
}

// ReadDocs reads shard i of the corpus from r, checking that it holds
// documents First … First+Count−1 in order with the recorded class counts,
// sets each document's class-major position (offsets from ClassOffsets)
// and calls emit. Errors are "file:line: what".
func (c *CorpusManifest) ReadDocs(r io.Reader, i int, offsets []int64, emit func(Doc) error) error {
	s := c.Shards[i]
	next := int64(s.First)
	var seen []int64
	if len(c.Classes) > 0 {
		seen = make([]int64, len(c.Classes))
	}
	err := EachLine(r, s.File, func(line string, no int) error {
		d, err := ParseDoc(line, c.Terms, len(c.Classes))
		if err != nil {
			return err
		}
		if d.N != next || d.N >= int64(s.First+s.Count) {
			return fmt.Errorf("document column %d, want %d (shard holds %d+%d)", d.N, next, s.First, s.Count)
		}
		next++
		d.Pos = d.N
		if seen != nil {
			if d.Class < 0 {
				return fmt.Errorf("document %s has no class (−1) in a corpus with classes", d.ID)
			}
			d.Pos = offsets[d.Class] + seen[d.Class]
			seen[d.Class]++
		}
		return emit(d)
	})
	if err != nil {
		return err
	}
	if next != int64(s.First+s.Count) {
		return fmt.Errorf("%s: %d documents, want %d", s.File, next-int64(s.First), s.Count)
	}
	for p, n := range seen {
		if n != int64(s.ClassCounts[p]) {
			return fmt.Errorf("%s: %d documents of class %d, manifest says %d", s.File, n, p, s.ClassCounts[p])
		}
	}
	return nil
}

// IterManifest is manifest.json of a completed iteration.
type IterManifest struct {
	Format    string   `json:"format"`
	Iteration int      `json:"iteration"`
	Model     string   `json:"model"`
	Config    string   `json:"config"` // digest of the run configuration
	Terms     int      `json:"terms"`
	Documents int      `json:"documents"`
	UCols     int      `json:"u_cols"` // K (RLSI) or Ks + P·Kc (Group RLSI)
	VCols     int      `json:"v_cols"` // K (RLSI) or Ks + Kc (Group RLSI)
	U         []string `json:"u"`      // U shard files (none at iteration 0)
	V         []string `json:"v"`
	// SHA256 is the hex SHA-256 of every shard file of U and V, by name:
	// every reader of a shard (the next iteration's pipeline, a resumed
	// fit, export) hashes what it read and refuses a shard that differs.
	SHA256  map[string]string `json:"sha256"`
	Seconds float64           `json:"seconds"` // wall time of the iteration's pipeline
}

// MaxShards bounds the shards of a factor (ShardName has five digits).
const MaxShards = 99999

// Validate checks what an iteration manifest says on its own, before
// anything is sized or opened by it: the format, the sizes within bounds
// (1 ≤ v_cols ≤ min(M, N), v_cols ≤ u_cols ≤ MaxTerms),
// each factor's shards named U-i-of-T.tsv (V-…) for i = 0 … T−1 in order
// (T ≤ MaxShards; U may have none), and a well-formed SHA-256 for exactly
// the listed shards. The driver checks the rest against the run's
// configuration and corpus.
func (m *IterManifest) Validate() error {
	if m.Format != FactorsFormat {
		return fmt.Errorf("format %q, want %q", m.Format, FactorsFormat)
	}
	if m.Iteration < 0 || m.Terms < 1 || m.Terms > MaxTerms || m.Documents < 1 || m.Documents > MaxDocuments ||
		m.VCols < 1 || m.VCols > min(m.Terms, m.Documents) || m.UCols < m.VCols || m.UCols > MaxTerms {
		return fmt.Errorf("iteration %d, %d terms × %d documents, u_cols %d, v_cols %d: out of bounds", m.Iteration, m.Terms, m.Documents, m.UCols, m.VCols)
	}
	for _, f := range []struct {
		factor string
		files  []string
	}{{"U", m.U}, {"V", m.V}} {
		if len(f.files) > MaxShards || f.factor == "V" && len(f.files) == 0 {
			return fmt.Errorf("%s lists %d shards, want 1..%d", strings.ToLower(f.factor), len(f.files), MaxShards)
		}
		for i, name := range f.files {
			if want := ShardName(f.factor, i, len(f.files)); name != want {
				return fmt.Errorf("%s shard %d is %.80q, want %s", strings.ToLower(f.factor), i, name, want)
			}
			if !isSHA256(m.SHA256[name]) {
				return fmt.Errorf("sha256 of %s: %.80q, want 64 lower-case hex digits", name, m.SHA256[name])
			}
		}
	}
	if n := len(m.U) + len(m.V); len(m.SHA256) != n {
		return fmt.Errorf("sha256 lists %d files, want one per shard (%d)", len(m.SHA256), n)
	}
	return nil
}

// isSHA256 reports whether s is a hex SHA-256 as this package writes it.
func isSHA256(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// HashingReader reads a shard while hashing it; Check, once the reader
// has consumed the shard, reads what is left and compares the whole
// file's SHA-256 with the manifest's.
type HashingReader struct {
	r    io.Reader
	h    hash.Hash
	name string
	want string
}

// NewHashingReader reads the shard name (as the error will call it) from
// r; want is its SHA-256 from the iteration manifest.
func NewHashingReader(r io.Reader, name, want string) *HashingReader {
	h := sha256.New()
	return &HashingReader{r: io.TeeReader(r, h), h: h, name: name, want: want}
}

func (h *HashingReader) Read(p []byte) (int, error) { return h.r.Read(p) }

// Check reads the rest of the shard and reports, in one line naming it, a
// shard whose SHA-256 is not the manifest's.
func (h *HashingReader) Check() error {
	if _, err := io.Copy(io.Discard, h.r); err != nil {
		return fmt.Errorf("%s: %w", h.name, err)
	}
	if got := hex.EncodeToString(h.h.Sum(nil)); got != h.want {
		return fmt.Errorf("%s: SHA-256 %.12s…, the iteration manifest says %.12s…: the shard changed after it was written; delete this iteration directory and the later ones to recompute them", h.name, got, h.want)
	}
	return nil
}

// HashFile returns the hex SHA-256 of the file name.
func HashFile(ctx context.Context, fs FS, name string) (string, error) {
	r, err := fs.OpenRead(ctx, name)
	if err != nil {
		return "", err
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ReadJSON decodes the JSON file name into v, naming the file in errors.
func ReadJSON(ctx context.Context, fs FS, name string, v any) error {
	f, err := fs.OpenRead(ctx, name)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// WriteJSON writes v as indented JSON to name.
func WriteJSON(ctx context.Context, fs FS, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	f, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// ReadCorpus reads and validates dir/corpus.json, and checks it against
// the files it lists before anyone sizes anything by it: the vocabulary
// file must hold exactly Terms lines, and every document shard must be
// large enough for its Count lines — a document line of column n takes at
// least len(n) + 5 bytes (three tabs, a one-character class, the newline;
// the last newline may be missing). The shards' lines themselves are
// checked when they are read (ReadDocs).
func ReadCorpus(ctx context.Context, fs FS, dir string) (*CorpusManifest, error) {
	var c CorpusManifest
	name := Join(dir, "corpus.json")
	if err := ReadJSON(ctx, fs, name, &c); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	vocab := Join(dir, c.Vocab)
	r, err := fs.OpenRead(ctx, vocab)
	if err != nil {
		return nil, err
	}
	lines := 0
	err = EachLine(r, vocab, func(string, int) error {
		if lines++; lines > c.Terms {
			return fmt.Errorf("more lines than the %d terms of %s", c.Terms, name)
		}
		return nil
	})
	r.Close()
	if err != nil {
		return nil, err
	}
	if lines != c.Terms {
		return nil, fmt.Errorf("%s: terms %d, but %s has %d lines", name, c.Terms, vocab, lines)
	}
	for i, s := range c.Shards {
		size, err := fs.Size(ctx, Join(dir, s.File))
		if err != nil {
			return nil, fmt.Errorf("%s: shard %d: %w", name, i, err)
		}
		if most := (size + 1) / int64(len(strconv.Itoa(s.First))+5); int64(s.Count) > most {
			return nil, fmt.Errorf("%s: shard %d (%s) lists %d documents, but its %d bytes hold at most %d", name, i, s.File, s.Count, size, most)
		}
	}
	return &c, nil
}

// ShardName is the name of shard i of t of a factor ("U" or "V").
func ShardName(factor string, i, t int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.tsv", factor, i, t)
}
