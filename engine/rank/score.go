package rank

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Scorer scores every document of an index for one query.
type Scorer interface {
	// Name is the model's short name: "bm25", "vsm" or "lm".
	Name() string
	// Score writes the score of every document for the query made of the
	// distinct term ids terms (each in 0..M−1) with their counts qtf in the
	// query into dst (length N; nil allocates) and returns it. A higher
	// score means more relevant. It panics if terms and qtf differ in length,
	// a term is out of range or dst has the wrong length (programmer errors;
	// ScoreAll validates its input and returns errors instead).
	Score(terms []int32, qtf []float64, dst []float64) []float64
}

// queryBlock is the number of queries per parallel block of ScoreAll.
const queryBlock = 4

// ScoreAll scores every document for every query: row i of queries (n × M,
// raw query term counts over the index's vocabulary) is query i, and row i
// of the result (n rows of length N) holds its scores. Queries are spread
// over the shared pool in fixed blocks, so the result does not depend on
// GOMAXPROCS. It returns an error when the matrix has the wrong width or a
// count is negative or not finite.
func ScoreAll(s Scorer, ix *Index, queries *sparse.CSR) ([][]float64, error) {
	if queries == nil {
		return nil, fmt.Errorf("rank: nil query matrix")
	}
	if queries.Cols != ix.Terms() {
		return nil, fmt.Errorf("rank: %s: query matrix has %d columns, want the index's %d terms", s.Name(), queries.Cols, ix.Terms())
	}
	for k, v := range queries.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			q, t := queries.Locate(k)
			return nil, fmt.Errorf("rank: %s: query %d has count %v for term %d, want a finite non-negative count", s.Name(), q, v, t)
		}
	}
	out := make([][]float64, queries.Rows)
	parallel.Default().For(queries.Rows, queryBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			terms, qtf := queries.Row(i)
			out[i] = s.Score(terms, qtf, make([]float64, ix.Docs()))
		}
	})
	return out, nil
}

// prepare checks a query and returns dst cleared (allocated if nil).
func prepare(name string, ix *Index, terms []int32, qtf, dst []float64) []float64 {
	if len(terms) != len(qtf) {
		panic(fmt.Sprintf("rank.%s: %d terms but %d counts", name, len(terms), len(qtf)))
	}
	for _, t := range terms {
		if t < 0 || int(t) >= ix.Terms() {
			panic(fmt.Sprintf("rank.%s: term %d outside 0..%d", name, t, ix.Terms()-1))
		}
	}
	if dst == nil {
		return make([]float64, ix.Docs())
	}
	if len(dst) != ix.Docs() {
		panic(fmt.Sprintf("rank.%s: dst has length %d, want %d documents", name, len(dst), ix.Docs()))
	}
	clear(dst)
	return dst
}
