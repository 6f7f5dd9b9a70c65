package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/store"
)

// Input names what to fit: a registered collection or a user's collection
// (Data) built through the text pipeline, or a Matrix Market
// term-document matrix (MTX). Exactly one of Data and MTX.Path is given.
type Input struct {
	// Data is a registered collection's name (datasets.Lookup) or the path
	// of a user's collection: a folder of text files (sub-folders as
	// classes), a CSV/TSV file with a header, a JSON Lines file or a SMART
	// document file (datasets.ReadUser).
	Data string
	// Read says how a user's collection is read (format, CSV/TSV columns).
	Read datasets.UserOptions
	// Text is the text pipeline (TextOptions gives a family's).
	Text text.Options
	// Split keeps the documents of one split; "" or "all" keeps every one.
	Split string
	// DataDir is the data directory of the registered collections and of
	// the stop lists that are not embedded; "" means $TOPICMF_DATA, else
	// the user cache's.
	DataDir string
	// CacheDir is the corpus cache of the registered collections
	// (datasets/corpora): "" the default one, "none" no cache.
	CacheDir string
	// Verify re-hashes a cached corpus's source files before using it.
	Verify bool
	// MTX is a Matrix Market input.
	MTX MTX
}

// MTX is a Matrix Market term-document input.
type MTX struct {
	// Path holds D, terms as rows and documents as columns (documents as
	// rows with Transpose).
	Path      string
	Transpose bool
	// Vocab names one term per line, in row order ("" numbers them t0, t1, …).
	Vocab string
	// Labels names one class per line, in document order (for the group
	// models); "" gives none.
	Labels string
}

// Data kinds of DataConfig.
const (
	KindDataset = "dataset" // a registered collection through the text pipeline
	KindUser    = "user"    // a user's collection through the text pipeline
	KindMTX     = "mtx"     // a Matrix Market file
)

// DataConfig is the "data" of a run's config.json: what was fitted.
type DataConfig struct {
	// Kind is KindDataset, KindUser or KindMTX.
	Kind      string          `json:"kind"`
	Name      string          `json:"name,omitempty"`
	Text      json.RawMessage `json:"text,omitempty"` // text.Options.Canonical
	Transpose bool            `json:"transpose,omitempty"`
	HasVocab  bool            `json:"has_vocab,omitempty"`
	HasLabels bool            `json:"has_labels,omitempty"`
	// Format and Columns say how a user collection was read (format, and
	// the text, id and label column names for CSV/TSV).
	Format  string   `json:"format,omitempty"`
	Columns []string `json:"columns,omitempty"`
	// Split is the split fitted ("" for all documents).
	Split string `json:"split,omitempty"`
}

// Source is a resolved input: what a run records of it, the checksums
// that identify it, and how to build its corpus.
type Source struct {
	Data DataConfig
	Sums []store.Checksum
	// Format is the format a user's collection is read in.
	Format string
	text   text.Options
	load   func() (corpus, counts *engine.Corpus, warnings []string, err error)
	// collection reads the documents of the corpus (nil for a Matrix
	// Market input).
	collection func() (*datasets.Collection, error)
}

// Collection reads the documents the corpus is built from (all of a
// registered collection's, whatever the split), for what needs their text
// (the topic quality's reference); an error for a Matrix Market input.
func (s *Source) Collection() (*datasets.Collection, error) {
	if s.collection == nil {
		return nil, errors.New("a Matrix Market input has no documents' text")
	}
	return s.collection()
}

// Built is the corpus of a Source.
type Built struct {
	// Corpus is the corpus to fit.
	Corpus *engine.Corpus
	// Counts are the raw term counts of the same documents and vocabulary
	// (nil for a Matrix Market input): the index of the term models of
	// Rank and what a restored run is rebuilt from.
	Counts *engine.Corpus
	// Vectorizer weights new text as Corpus was weighted (nil for a
	// Matrix Market input).
	Vectorizer *text.Vectorizer
	// Warnings are the collection's and the pipeline's warnings.
	Warnings []string
}

// TextOptions is the text pipeline a front end builds for family: the
// declared defaults of text.Options, raw counts (weighting tf, norm none)
// for a family of word counts (catalog.FrontEnd.Counts), then the given
// parameters (by their declared keys, e.g. "min-df": "1") on top, checked
// against their declared ranges and text.Options.Validate. family may be
// "" for none.
func TextOptions(family string, given map[string]string) (text.Options, error) {
	o := text.Default()
	if family != "" {
		fam, err := catalog.Lookup(family)
		if err != nil {
			return o, err
		}
		if fam.FrontEnd.Counts {
			o.Weighting, o.Norm = text.WeightTF, text.NormNone
		}
	}
	if err := text.ParseParams(&o, given); err != nil {
		return o, err
	}
	// --stop FILE or LIST+FILE: the list and the file's words.
	list, extra, err := text.StopSpec(o.StopList)
	if err != nil {
		return o, fmt.Errorf("stop list %s: %w", o.StopList, err)
	}
	o.StopList, o.ExtraStopWords = list, append(o.ExtraStopWords, extra...)
	return o, o.Validate()
}

// Resolve reads nothing but what identifies the input: a registered
// collection's declared files, a user's collection's checksum, a Matrix
// Market file and its vocabulary and labels (read now, so that a bad file
// is reported before anything is written). Build then builds the corpus.
func Resolve(in Input) (*Source, error) {
	if (in.Data == "") == (in.MTX.Path == "") {
		return nil, errors.New("give exactly one of a data set and a Matrix Market file")
	}
	if in.MTX.Path != "" {
		return resolveMTX(in.MTX)
	}
	if in.MTX != (MTX{}) {
		return nil, errors.New("a vocabulary, labels or transposition apply to a Matrix Market file only")
	}
	if IsPath(in.Data) {
		return resolveUser(in)
	}
	if in.Read != (datasets.UserOptions{}) {
		return nil, errors.New("the format and CSV/TSV columns apply to a file or folder, not to a registered data set")
	}
	return resolveDataset(in)
}

// IsPath reports whether data names an existing file or folder (a user's
// collection) rather than a registered data set.
func IsPath(data string) bool {
	_, err := os.Stat(data)
	return err == nil
}

// Build builds the source's corpus (a registered collection through the
// corpus cache) with its raw counts and vectorizer.
func (s *Source) Build() (*Built, error) {
	corpus, counts, warnings, err := s.load()
	if err != nil {
		return nil, err
	}
	if counts != nil && (!slices.Equal(counts.Vocab, corpus.Vocab) || !slices.Equal(counts.DocIDs, corpus.DocIDs)) {
		return nil, errors.New("the count corpus and the weighted corpus differ in vocabulary or documents")
	}
	b := &Built{Corpus: corpus, Counts: counts, Warnings: warnings}
	if s.Data.Kind != KindMTX {
		if b.Vectorizer, err = text.VectorizerFromCorpus(corpus, s.text); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func resolveMTX(m MTX) (*Source, error) {
	c, sums, err := loadMTX(m.Path, m.Vocab, m.Labels, m.Transpose)
	if err != nil {
		return nil, err
	}
	return &Source{
		Data: DataConfig{Kind: KindMTX, Transpose: m.Transpose, HasVocab: m.Vocab != "", HasLabels: m.Labels != ""},
		Sums: sums,
		load: func() (*engine.Corpus, *engine.Corpus, []string, error) { return c, nil, nil, nil },
	}, nil
}

func resolveUser(in Input) (*Source, error) {
	format, err := datasets.UserFormat(in.Data, in.Read.Format)
	if err != nil {
		return nil, err
	}
	in.Read.Format = format
	in.Text.DataDir = in.DataDir // a stop list that is not embedded (cacm); "" means $TOPICMF_DATA
	col, err := datasets.ReadUser(in.Data, in.Read)
	if err != nil {
		return nil, err
	}
	if col, err = SplitDocs(col, in.Split); err != nil {
		return nil, err
	}
	sum, err := datasets.UserSHA256(in.Data)
	if err != nil {
		return nil, err
	}
	s := &Source{
		Data: DataConfig{Kind: KindUser, Name: filepath.Base(in.Data), Format: format,
			Text: json.RawMessage(in.Text.Canonical()), Split: splitKey(in.Split)},
		Sums:   []store.Checksum{{Name: filepath.Base(in.Data), SHA256: sum}},
		Format: format,
		text:   in.Text,
		load: func() (*engine.Corpus, *engine.Corpus, []string, error) {
			return buildWithCounts(col, in.Text)
		},
		collection: func() (*datasets.Collection, error) { return col, nil },
	}
	s.Data.Columns = userColumnsKey(format, in.Read)
	return s, nil
}

func resolveDataset(in Input) (*Source, error) {
	src, err := datasets.Lookup(in.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: neither a registered data set (topicmf data list shows them) nor an existing file or folder", in.Data)
	}
	dir, err := datasets.DataDir(in.DataDir)
	if err != nil {
		return nil, err
	}
	in.Text.DataDir = dir
	files, err := corpora.Files(src, in.Text)
	if err != nil {
		return nil, err
	}
	s := &Source{
		Data: DataConfig{Kind: KindDataset, Name: in.Data, Text: json.RawMessage(in.Text.Canonical()), Split: splitKey(in.Split)},
		text: in.Text,
	}
	for _, f := range files {
		s.Sums = append(s.Sums, store.Checksum{Name: f.Path, SHA256: f.SHA256})
	}
	s.collection = func() (*datasets.Collection, error) { return src.Read(dir) }
	cache := corpora.CacheOptions{Dir: in.CacheDir, Verify: in.Verify}
	switch in.CacheDir {
	case "":
		if cache.Dir, err = corpora.DefaultCacheDir(); err != nil {
			return nil, err
		}
	case "none":
		cache.Dir = ""
	}
	s.load = func() (*engine.Corpus, *engine.Corpus, []string, error) {
		if in.Split != "" && in.Split != "all" {
			// One split: read, keep the split, build (not cached).
			col, err := src.Read(dir)
			if err != nil {
				return nil, nil, nil, err
			}
			if col, err = SplitDocs(col, in.Split); err != nil {
				return nil, nil, nil, err
			}
			return buildWithCounts(col, in.Text)
		}
		res, err := corpora.Build(dir, src, in.Text, cache)
		if err != nil {
			return nil, nil, nil, err
		}
		if isCounts(in.Text) {
			return res.Corpus, res.Corpus, res.Warnings, nil
		}
		counts, err := corpora.Build(dir, src, countOptions(in.Text), cache)
		if err != nil {
			return nil, nil, nil, err
		}
		return res.Corpus, counts.Corpus, res.Warnings, nil
	}
	return s, nil
}

// SplitDocs keeps the documents of col in split ("" or "all" keeps every
// one); it is an error when the collection has no document of that split.
func SplitDocs(col *datasets.Collection, split string) (*datasets.Collection, error) {
	if split == "" || split == "all" {
		return col, nil
	}
	sub := *col
	sub.Docs = nil
	present := map[string]bool{}
	for _, d := range col.Docs {
		present[d.Split] = true
		if d.Split == split {
			sub.Docs = append(sub.Docs, d)
		}
	}
	if len(sub.Docs) > 0 {
		return &sub, nil
	}
	var have []string
	for s := range present {
		if s != "" {
			have = append(have, s)
		}
	}
	slices.Sort(have)
	if len(have) == 0 {
		return nil, fmt.Errorf("split %q: %s has no splits (split \"all\" keeps every document)", split, col.Name)
	}
	return nil, fmt.Errorf("split %q: %s has no document in that split (splits: %s)", split, col.Name, strings.Join(have, ", "))
}

// countOptions are opts giving raw term counts with the same tokens,
// vocabulary and documents (counts.mtx of a run: the index of BM25 and LM
// in Rank, and the corpus a restored run is rebuilt from).
func countOptions(opts text.Options) text.Options {
	opts.Weighting, opts.Norm = text.WeightTF, text.NormNone
	return opts
}

// isCounts reports whether opts already give raw term counts (a count
// model's pipeline), so that the counts need no second build.
func isCounts(opts text.Options) bool {
	return opts.Canonical() == countOptions(opts).Canonical()
}

// buildWithCounts builds col's corpus under opts and its raw counts
// (countOptions), with the collection's and the pipeline's warnings.
func buildWithCounts(col *datasets.Collection, opts text.Options) (*engine.Corpus, *engine.Corpus, []string, error) {
	corpus, rep, err := text.Build(col, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	counts := corpus
	if !isCounts(opts) {
		if counts, _, err = text.Build(col, countOptions(opts)); err != nil {
			return nil, nil, nil, err
		}
	}
	warnings := append(slices.Clone(col.Warnings), rep.Warnings...)
	if w := spacedIDsWarning(corpus.DocIDs); w != "" {
		warnings = append(warnings, w)
	}
	return corpus, counts, warnings, nil
}

// spacedIDsWarning returns the warning, "" when none, for document ids
// that hold white space (or are empty): transform writes them, but rank
// cannot, since a TREC run's fields are separated by white space
// (ir.CheckDocID). It names the first such id and how many there are.
func spacedIDsWarning(ids []string) string {
	n, first := 0, ""
	for _, id := range ids {
		if id == "" || strings.IndexFunc(id, unicode.IsSpace) >= 0 {
			if n == 0 {
				first = id
			}
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d document ids hold white space or are empty (the first: %q): transform writes them, but rank cannot put them in a TREC run", n, first)
}

// splitKey is the config value of a split ("" for all documents, so that
// runs of all documents keep their ids).
func splitKey(split string) string {
	if split == "all" {
		return ""
	}
	return split
}

// userColumnsKey is the part of a run's key that says how a user's file
// was read beyond its format: the CSV/TSV columns (and "no-header"), or
// the JSONL keys when any was named. nil when nothing is said.
func userColumnsKey(format string, o datasets.UserOptions) []string {
	cols := []string{orDefault(o.TextCol, "text"), orDefault(o.IDCol, "id"), orDefault(o.LabelCol, "label")}
	switch format {
	case datasets.FormatCSV, datasets.FormatTSV:
		if o.NoHeader {
			cols = append(cols, "no-header")
		}
		return cols
	case datasets.FormatJSONL:
		if o.TextCol != "" || o.IDCol != "" || o.LabelCol != "" {
			return cols
		}
	case datasets.FormatTRECTopics:
		return []string{"topic-fields=" + orDefault(o.TopicFields, "title")}
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
