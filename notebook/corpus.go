package notebook

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

// Corpus is a built corpus (the term-document matrix D, its vocabulary,
// document ids and labels, and the vectorizer that weights new text the
// same way) with the collection it came from.
type Corpus struct {
	*experiments.Corpus
	// Collection is the collection the corpus was built from: its
	// documents (with titles and text), queries and relevance judgments.
	// Nil for a synthetic corpus.
	Collection *datasets.Collection
	// Sums identify the corpus in the results store key of a sweep: the
	// digests of its files (the registry's, or the user's) and of the
	// corpus declaration or reading and pipeline options.
	Sums []store.Checksum
}

// Load reads a registered collection (see `topicmf data list`) from the
// data directory ($TOPICMF_DATA) and builds it with the default text
// pipeline (text.Default: SMART stop list, min-df 2, max-df 0.95, tf-idf,
// unit-length documents), keeping the documents of every split.
func Load(name string) (*Corpus, error) {
	return LoadSpec(experiments.CorpusSpec{Collection: name})
}

// LoadSpec builds the corpus a paper experiment would declare: a
// registered collection with a split, transforms and text options, or a
// synthetic configuration. Each distinct spec is built once per process.
func LoadSpec(spec experiments.CorpusSpec) (*Corpus, error) {
	c, err := experiments.BuildCorpus(spec)
	if err != nil {
		return nil, err
	}
	out := &Corpus{Corpus: c}
	if spec.Synthetic == nil {
		if out.Collection, err = corpora.Collection(spec.Collection); err != nil {
			return nil, err
		}
	}
	canon, err := store.Canonical(spec)
	if err != nil {
		return nil, err
	}
	out.Sums = []store.Checksum{digest("corpus spec", canon)}
	if spec.Synthetic != nil {
		out.Sums = append(out.Sums, spec.Checksums()...)
		return out, nil
	}
	src, err := datasets.Lookup(spec.Collection)
	if err != nil {
		return nil, err
	}
	for _, f := range src.Files {
		out.Sums = append(out.Sums, store.Checksum{Name: f.Path, SHA256: f.SHA256})
	}
	return out, nil
}

// LoadUser reads a collection of one's own (a folder of text files with
// sub-folders as labels, CSV/TSV, JSON Lines or SMART, see
// datasets.ReadUser) and builds it with the text options (text.Options{}
// is the default pipeline).
func LoadUser(path string, o datasets.UserOptions, opts text.Options) (*Corpus, error) {
	col, err := datasets.ReadUser(path, o)
	if err != nil {
		return nil, err
	}
	c, vec, rep, err := text.Fit(col, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sums, err := userSums(path, o, opts)
	if err != nil {
		return nil, err
	}
	return &Corpus{
		Corpus:     &experiments.Corpus{Corpus: c, Report: rep, Vectorizer: vec},
		Collection: col,
		Sums:       sums,
	}, nil
}

// userSums are the digests of every file the collection was read from
// and of the reading and pipeline options.
func userSums(path string, o datasets.UserOptions, opts text.Options) ([]store.Checksum, error) {
	var files []string
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	} else {
		files = []string{path}
	}
	for _, p := range []string{o.Queries, o.Qrels} {
		if p != "" {
			files = append(files, p)
		}
	}
	var sums []store.Checksum
	for _, p := range files {
		s, err := datasets.UserSHA256(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(path, p)
		if err != nil || rel == "." {
			rel = filepath.Base(p)
		}
		sums = append(sums, store.Checksum{Name: rel, SHA256: s})
	}
	o.Queries, o.Qrels = filepath.Base(o.Queries), filepath.Base(o.Qrels)
	canon, err := store.Canonical(struct {
		Read     datasets.UserOptions
		Pipeline string
	}{o, opts.Canonical()})
	if err != nil {
		return nil, err
	}
	return append(sums, digest("corpus options", canon)), nil
}

func digest(name string, b []byte) store.Checksum {
	s := sha256.Sum256(b)
	return store.Checksum{Name: name, SHA256: hex.EncodeToString(s[:])}
}

// Describe is a one-row dataframe: name, terms, documents, non-zeros,
// density, classes, queries, judgments.
func Describe(c *Corpus) dataframe.DataFrame {
	var queries, judgments int
	if c.Collection != nil {
		queries, judgments = len(c.Collection.Queries), len(c.Collection.Qrels)
	}
	return dataframe.New(
		series.New([]string{c.Name}, series.String, "name"),
		series.New([]int{c.Terms()}, series.Int, "terms"),
		series.New([]int{c.Docs()}, series.Int, "documents"),
		series.New([]int{c.D.NNZ()}, series.Int, "nonzeros"),
		series.New([]float64{c.D.Density()}, series.Float, "density"),
		series.New([]int{c.Classes()}, series.Int, "classes"),
		series.New([]int{queries}, series.Int, "queries"),
		series.New([]int{judgments}, series.Int, "judgments"),
	)
}
