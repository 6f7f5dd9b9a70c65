package rlsi2011

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

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
