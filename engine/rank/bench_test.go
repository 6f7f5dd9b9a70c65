package rank_test

import (
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/internal/realdata"
)

// cranfield indexes Cranfield 1400 (SMART stop list, raw counts) and
// returns the index with the 225 queries' counts, or skips.
func cranfield(b *testing.B) (*rank.Index, *sparse.CSR) {
	b.Helper()
	dir := realdata.Dir(b, "cranfield/cran.tar.gz")
	src, err := datasets.Lookup("cranfield")
	if err != nil {
		b.Fatal(err)
	}
	col, err := src.Read(dir)
	if err != nil {
		b.Fatal(err)
	}
	corpus, vec, _, err := text.Fit(col, text.Bare(text.Options{StopList: text.StopSMART, Weighting: text.WeightTF, DataDir: dir}))
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, len(col.Queries))
	for i, q := range col.Queries {
		texts[i] = q.Text
	}
	ix, err := rank.IndexCorpus(corpus)
	if err != nil {
		b.Fatal(err)
	}
	return ix, vec.Transform(texts)
}

// BenchmarkCranfield scores all 1400 documents for all 225 Cranfield
// queries (one op = the whole query set).
func BenchmarkCranfield(b *testing.B) {
	ix, qs := cranfield(b)
	bm, _ := rank.NewBM25(ix, rank.DefaultBM25Params())
	vsm, _ := rank.NewVSM(ix, rank.VSMParams{})
	lm, _ := rank.NewLM(ix, rank.LMParams{})
	for _, s := range []rank.Scorer{bm, vsm, lm} {
		b.Run(s.Name(), func(b *testing.B) {
			for b.Loop() {
				if _, err := rank.ScoreAll(s, ix, qs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	counts := ix2Source(ix)
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			if _, err := rank.NewIndex(counts); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// ix2Source rebuilds the count matrix of an index from its postings.
func ix2Source(ix *rank.Index) *sparse.CSR {
	m := &sparse.CSR{Rows: ix.Terms(), Cols: ix.Docs(), RowPtr: make([]int, ix.Terms()+1)}
	for t := 0; t < ix.Terms(); t++ {
		docs, tfs := ix.Postings(t)
		m.ColIdx = append(m.ColIdx, docs...)
		m.Val = append(m.Val, tfs...)
		m.RowPtr[t+1] = len(m.Val)
	}
	return m
}
