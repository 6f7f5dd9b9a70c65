// Package corpora builds the model-ready corpus of a registered collection
// through the text pipeline, once: the result is kept in the on-disk corpus
// cache (datasets/cache) under a key made of the SHA-256 of every data file
// read (the collection's files and the stop list) and the pipeline options'
// canonical string, so repeated runs skip reading and tokenizing.
package corpora

import (
	"fmt"
	"os"
	"path/filepath"

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
// reads: the collection's files, then the stop list's file, if any.
func Files(src datasets.Source, opts text.Options) ([]datasets.File, error) {
	files := append([]datasets.File(nil), src.Files...)
	rel, err := text.StopListPath(opts.StopList)
	if err != nil || rel == "" {
		return files, err
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

// Build verifies the files of src in dataDir, reads the collection and
// builds its corpus with opts, or reads it from the corpus cache in
// cacheDir (no cache when cacheDir is ""). A damaged cache file is a miss
// and is rebuilt. opts.DataDir is set to dataDir.
func Build(dataDir string, src datasets.Source, opts text.Options, cacheDir string) (*Result, error) {
	opts.DataDir = dataDir
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	key, err := Key(src, opts)
	if err != nil {
		return nil, err
	}
	var c *cache.Cache
	if cacheDir != "" {
		c = cache.Open(cacheDir)
		corpus, ok, err := c.Get(key)
		if err != nil {
			return nil, fmt.Errorf("corpus cache %s: %w", cacheDir, err)
		}
		if ok {
			return &Result{Corpus: corpus, Cached: true,
				Warnings: []string{fmt.Sprintf("corpus of %s read from the cache %s (its reader and pipeline warnings were shown when it was built)", src.Name, c.Path(key))}}, nil
		}
	}
	files, err := Files(src, opts)
	if err != nil {
		return nil, err
	}
	for _, st := range datasets.VerifyFiles(dataDir, files) {
		if !st.OK() {
			return nil, fmt.Errorf("data set %s: %s", src.Name, st)
		}
	}
	col, err := src.Read(dataDir)
	if err != nil {
		return nil, err
	}
	corpus, rep, err := text.Build(col, opts)
	if err != nil {
		return nil, err
	}
	if c != nil {
		if err := c.Put(key, corpus); err != nil {
			return nil, fmt.Errorf("corpus cache %s: %w", cacheDir, err)
		}
	}
	return &Result{Corpus: corpus, Warnings: append(append([]string(nil), col.Warnings...), rep.Warnings...)}, nil
}
