package rlsi2011

import (
	"math"

	"fmt"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"sync"

	"github.com/topicmf/topicmf/datasets"
)

// collections caches each collection read once per process: every job of
// an experiment reads the same files.
var collections struct {
	mu sync.Mutex
	m  map[string]*collectionEntry
}

type collectionEntry struct {
	once sync.Once
	col  *datasets.Collection
	err  error
}

// readCollection reads the named registered data set from the data
// directory (TOPICMF_DATA), once per process.
func readCollection(name string) (*datasets.Collection, error) {
	collections.mu.Lock()
	if collections.m == nil {
		collections.m = map[string]*collectionEntry{}
	}
	e := collections.m[name]
	if e == nil {
		e = &collectionEntry{}
		collections.m[name] = e
	}
	collections.mu.Unlock()
	e.once.Do(func() {
		src, err := datasets.Lookup(name)
		if err != nil {
			e.err = err
			return
		}
		dir, err := datasets.DataDir("")
		if err != nil {
			e.err = err
			return
		}
		e.col, e.err = src.Read(dir)
		if e.err != nil {
			e.err = fmt.Errorf("data set %s: %w", name, e.err)
		}
	})
	return e.col, e.err
}

// trainSplit returns the collection restricted to the documents of the
// named split (queries and judgments are dropped: topic tables only).
func trainSplit(col *datasets.Collection, split string) (*datasets.Collection, error) {
	out := &datasets.Collection{Name: col.Name + "/" + split, Classes: col.Classes}
	for _, d := range col.Docs {
		if d.Split == split {
			out.Docs = append(out.Docs, d)
		}
	}
	if len(out.Docs) == 0 {
		return nil, fmt.Errorf("data set %s has no document in split %q", col.Name, split)
	}
	return out, nil
}

// Document scaling of the model corpus (task parameter "docnorm").
const (
	// DocNormL2 scales every document (column of D) to unit Euclidean
	// length — our reading; see the package documentation.
	DocNormL2 = "l2"
	// DocNormNone keeps the raw tf-idf weights.
	DocNormNone = "none"
)

// scaleRows returns a copy of m with every non-zero row scaled to unit
// Euclidean length (rows of zeros stay zero).
func scaleRows(m *sparse.CSR) *sparse.CSR {
	out := m.Clone()
	for i := 0; i < out.Rows; i++ {
		lo, hi := out.RowPtr[i], out.RowPtr[i+1]
		var ss float64
		for _, v := range out.Val[lo:hi] {
			ss += v * v
		}
		if ss == 0 {
			continue
		}
		inv := 1 / math.Sqrt(ss)
		for k := lo; k < hi; k++ {
			out.Val[k] *= inv
		}
	}
	return out
}

// applyDocNorm returns the corpus with its documents scaled as norm says.
func applyDocNorm(c *engine.Corpus, norm string) (*engine.Corpus, error) {
	switch norm {
	case DocNormNone:
		return c, nil
	case DocNormL2:
		dt := scaleRows(c.DT)
		return engine.NewCorpus(c.Name, c.Vocab, dt.T(), c.DocIDs, c.Labels, c.ClassNames)
	}
	return nil, fmt.Errorf("task parameter docnorm = %q, want %q or %q", norm, DocNormL2, DocNormNone)
}
