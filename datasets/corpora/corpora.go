// Package corpora builds the model-ready corpus of a registered collection
// through the text pipeline, once: the result is kept in the on-disk corpus
// cache (datasets/cache) under a key made of the SHA-256 of every data file
// read (the collection's files and the stop list) and the pipeline options'
// canonical string, so repeated runs skip reading and tokenizing.
package corpora

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/cache"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
)

// DefaultCacheDir is <user cache dir>/topicmf/corpora.
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no per-user cache directory: %w", err)
	}
	return filepath.Join(dir, "topicmf", "corpora"), nil
}

// Files returns the registered data files a corpus of src built with opts
// reads from the data directory: the collection's files, then the stop
// list's file when the list is not embedded in the binary (cacm; the
// embedded lists are byte-identical to their registered files and change
// only with the code).
func Files(src datasets.Source, opts text.Options) ([]datasets.File, error) {
	files := append([]datasets.File(nil), src.Files...)
	rel, err := text.StopListPath(opts.StopList)
	if err != nil || rel == "" {
		return files, err
	}
	if _, err := text.StopList(opts.StopList); err == nil {
		return files, nil // embedded
	}
	for _, s := range datasets.Sources() {
		for _, f := range s.Files {
			if f.Path == rel {
				return append(files, f), nil
			}
		}
	}
	return nil, fmt.Errorf("stop list %s: file %s is not registered", opts.StopList, rel)
}

// Key is the cache key of the corpus of src built with opts.
func Key(src datasets.Source, opts text.Options) (string, error) {
	files, err := Files(src, opts)
	if err != nil {
		return "", err
	}
	parts := []string{src.Name}
	for _, f := range files {
		parts = append(parts, f.Path, f.SHA256)
	}
	parts = append(parts, opts.Canonical())
	return cache.Key(parts...), nil
}

// Result is a built corpus and where it came from.
type Result struct {
	Corpus *engine.Corpus
	// Warnings are the reader's and the pipeline's warnings. A corpus read
	// from the cache carries only a note saying so: its warnings were
	// reported when it was built.
	Warnings []string
	// Cached reports a cache hit.
	Cached bool
}

// CacheOptions says where built corpora are kept and how a hit is checked.
type CacheOptions struct {
	// Dir is the corpus cache directory; "" builds without a cache.
	Dir string
	// Verify re-hashes every data file on a cache hit, instead of only
	// those whose size or modification time changed since they were
	// verified.
	Verify bool
}

// Build verifies the files of src in dataDir, reads the collection and
// builds its corpus with opts, or reads it from the corpus cache. A cache
// hit is used only while the data files still match the checksums verified
// when it was built: a file whose size or modification time changed (every
// file under cc.Verify) is hashed again, and a missing or damaged file is
// an error naming it, as it is without the cache. A damaged cache file is
// reported in the warnings and the corpus is built again. opts.DataDir is
// set to dataDir.
func Build(dataDir string, src datasets.Source, opts text.Options, cc CacheOptions) (*Result, error) {
	opts.DataDir = dataDir
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	key, err := Key(src, opts)
	if err != nil {
		return nil, err
	}
	files, err := Files(src, opts)
	if err != nil {
		return nil, err
	}
	var c *cache.Cache
	var warnings []string
	if cc.Dir != "" {
		c = cache.Open(cc.Dir)
		e, ok, err := c.Get(key)
		var corrupt *cache.CorruptError
		switch {
		case errors.As(err, &corrupt):
			warnings = append(warnings, corrupt.Error()+"; building the corpus again")
		case err != nil:
			return nil, fmt.Errorf("corpus cache %s: %w", cc.Dir, err)
		case ok:
			if err := checkInputs(dataDir, src, files, e.Inputs, cc.Verify); err != nil {
				return nil, err
			}
			// The notes of the build, then where the corpus came from.
			notes := append(slices.Clone(e.Notes), fmt.Sprintf("corpus of %s read from the cache %s", src.Name, c.Path(key)))
			return &Result{Corpus: e.Corpus, Cached: true, Warnings: notes}, nil
		}
	}
	var inputs []cache.Input
	for _, f := range files {
		st := datasets.VerifyFile(dataDir, f)
		if !st.OK() {
			return nil, fmt.Errorf("data set %s: %s", src.Name, st)
		}
		local, _ := datasets.LocalPath(dataDir, f)
		in, err := cache.StatInput(local, f.SHA256)
		if err != nil {
			return nil, fmt.Errorf("data set %s: %w", src.Name, err)
		}
		inputs = append(inputs, in)
	}
	col, err := src.Read(dataDir)
	if err != nil {
		return nil, err
	}
	corpus, rep, err := text.Build(col, opts)
	if err != nil {
		return nil, err
	}
	notes := append(slices.Clone(col.Warnings), rep.Warnings...)
	if c != nil {
		if err := c.Put(key, cache.Entry{Corpus: corpus, Inputs: inputs, Notes: notes}); err != nil {
			return nil, fmt.Errorf("corpus cache %s: %w", cc.Dir, err)
		}
	}
	return &Result{Corpus: corpus, Warnings: append(warnings, notes...)}, nil
}

// checkInputs checks that the data files of a cache hit still hold what
// was verified when the corpus was built: a file with the recorded path,
// digest, size and modification time passes unread (unless verify); any
// other is verified in full.
func checkInputs(dataDir string, src datasets.Source, files []datasets.File, recorded []cache.Input, verify bool) error {
	for _, f := range files {
		local, err := datasets.LocalPath(dataDir, f)
		if err != nil {
			return fmt.Errorf("data set %s: %w", src.Name, err)
		}
		unchanged := false
		for _, in := range recorded {
			if in.Path == local && in.SHA256 == f.SHA256 {
				unchanged = in.Unchanged()
			}
		}
		if unchanged && !verify {
			continue
		}
		if st := datasets.VerifyFile(dataDir, f); !st.OK() {
			return fmt.Errorf("data set %s: %s", src.Name, st)
		}
	}
	return nil
}
