package rank

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Index is an inverted index over the raw term counts of N documents and M
// terms (see the package documentation for the statistics it keeps).
type Index struct {
	post   *sparse.CSR // M × N: row t is term t's postings (doc ids ascending, counts)
	docLen []float64   // |d|
	df     []int       // df(t)
	cf     []float64   // cf(t)
	total  float64     // |C|
	avgDL  float64
}

// NewIndex builds the index of an M×N term-document count matrix (row t =
// term t, column d = document d), such as the D of an engine.Corpus built
// with the "tf" weighting. The matrix is used as the postings without
// copying: it must not be modified afterwards. It returns an error naming the
// entry when a count is negative, not finite or not an integer.
func NewIndex(counts *sparse.CSR) (*Index, error) {
	if counts == nil {
		return nil, fmt.Errorf("rank: nil count matrix")
	}
	for k, v := range counts.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v != math.Trunc(v) {
			t, d := counts.Locate(k)
			return nil, fmt.Errorf("rank: count of term %d in document %d is %v: the index needs raw term counts "+
				"(non-negative integers; build the corpus with the \"tf\" weighting)", t, d, v)
		}
	}
	ix := &Index{post: counts, docLen: make([]float64, counts.Cols),
		df: make([]int, counts.Rows), cf: make([]float64, counts.Rows)}
	for t := 0; t < counts.Rows; t++ {
		docs, tfs := counts.Row(t)
		cf := 0.0
		for q, d := range docs {
			if tfs[q] == 0 {
				continue // an explicitly stored zero is not an occurrence
			}
			ix.docLen[d] += tfs[q]
			ix.df[t]++
			cf += tfs[q]
		}
		ix.cf[t] = cf
		ix.total += cf
	}
	if counts.Cols > 0 {
		ix.avgDL = ix.total / float64(counts.Cols)
	}
	return ix, nil
}

// IndexCorpus builds the index of a corpus whose D holds raw term counts.
func IndexCorpus(c *engine.Corpus) (*Index, error) {
	if c == nil {
		return nil, fmt.Errorf("rank: nil corpus")
	}
	ix, err := NewIndex(c.D)
	if err != nil {
		return nil, fmt.Errorf("corpus %q: %w", c.Name, err)
	}
	return ix, nil
}

// Docs is N, the number of documents.
func (ix *Index) Docs() int { return ix.post.Cols }

// Terms is M, the vocabulary size.
func (ix *Index) Terms() int { return ix.post.Rows }

// DocLen is |d|, the number of indexed tokens of document d.
func (ix *Index) DocLen(d int) float64 { return ix.docLen[d] }

// AvgDocLen is avgdl, the mean document length (0 for an empty index).
func (ix *Index) AvgDocLen() float64 { return ix.avgDL }

// DF is df(t), the number of documents containing term t.
func (ix *Index) DF(t int) int { return ix.df[t] }

// CF is cf(t), the number of occurrences of term t in the collection.
func (ix *Index) CF(t int) float64 { return ix.cf[t] }

// TotalLen is |C|, the number of indexed tokens of the collection.
func (ix *Index) TotalLen() float64 { return ix.total }

// Postings returns the documents containing term t (ascending) and the
// counts there (views into the index, not copies).
func (ix *Index) Postings(t int) ([]int32, []float64) { return ix.post.Row(t) }
