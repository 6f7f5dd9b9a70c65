package retrieval

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rank"
	"gonum.org/v1/gonum/mat"
)

// Scores holds one scoring function's score of every document for every
// query of a task: Values[q][d] for query QueryIDs[q] and document
// DocIDs[d]. Higher is more relevant.
type Scores struct {
	Name   string
	Values [][]float64
}

// check verifies the shape against a task and that every score is finite.
func (s *Scores) check(t *Task) error {
	if s == nil {
		return fmt.Errorf("retrieval: nil scores")
	}
	if len(s.Values) != len(t.QueryIDs) {
		return fmt.Errorf("retrieval: scores %q have %d queries, the task %d", s.Name, len(s.Values), len(t.QueryIDs))
	}
	for q, row := range s.Values {
		if len(row) != len(t.DocIDs) {
			return fmt.Errorf("retrieval: scores %q give query %s %d documents, the task has %d", s.Name, t.QueryIDs[q], len(row), len(t.DocIDs))
		}
		for d, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("retrieval: scores %q: query %s, document %s scores %v", s.Name, t.QueryIDs[q], t.DocIDs[d], v)
			}
		}
	}
	return nil
}

// Term models by name.
const (
	BM25 = "bm25"
	VSM  = "vsm"
	LM   = "lm"
)

// TermOptions configure the term models; the zero value gives the defaults
// of engine/rank (BM25 k1 = 1.2, b = 0.75 with the always-positive idf; VSM
// with raw tf; LM with μ = 2000).
type TermOptions struct {
	BM25 *rank.BM25Params // nil: rank.DefaultBM25Params()
	VSM  rank.VSMParams
	LM   rank.LMParams
}

// Scorer builds the named term model ("bm25", "vsm" or "lm") over the
// task's index.
func (t *Task) Scorer(name string, o TermOptions) (rank.Scorer, error) {
	if t.Index == nil {
		return nil, fmt.Errorf("retrieval: task %q has no index for term model %q", t.Name, name)
	}
	switch name {
	case BM25:
		p := rank.DefaultBM25Params()
		if o.BM25 != nil {
			p = *o.BM25
		}
		return rank.NewBM25(t.Index, p)
	case VSM:
		return rank.NewVSM(t.Index, o.VSM)
	case LM:
		return rank.NewLM(t.Index, o.LM)
	}
	return nil, fmt.Errorf("retrieval: unknown term model %q (known: bm25, vsm, lm)", name)
}

// TermScores scores every document for every query with the named term
// model: s_term(q, d) of RLSI Eq. 5.
func (t *Task) TermScores(name string, o TermOptions) (*Scores, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if t.QueryCounts == nil {
		return nil, fmt.Errorf("retrieval: task %q has no query counts for term model %q", t.Name, name)
	}
	s, err := t.Scorer(name, o)
	if err != nil {
		return nil, err
	}
	v, err := rank.ScoreAll(s, t.Index, t.QueryCounts)
	if err != nil {
		return nil, fmt.Errorf("task %q: %w", t.Name, err)
	}
	return &Scores{Name: name, Values: v}, nil
}

// DocVectors says where the topic representation v_d of a document comes
// from.
type DocVectors int

const (
	// DocTopicRows takes v_d as the model's row of DocTopics (Vᵀ), the
	// representation learned at fit time. For RLSI this is exactly the
	// Section 5 fold-in of d: Algorithm 1 ends each iteration with UpdateV,
	// which computes v_d = argmin ‖d − Uv‖² + λ2‖v‖ for the final U, the
	// same problem as the fold-in of queries (engine/rlsi documents that a
	// training document folds in to its fitted row). The default.
	DocTopicRows DocVectors = iota
	// DocFoldIn folds the documents in with model.FoldIn(Task.DocWeights),
	// exactly as queries are: for families whose fitted document
	// representation differs from their fold-in (e.g. sampled LDA
	// assignments versus inference on a held-out document).
	DocFoldIn
)

func (v DocVectors) String() string {
	switch v {
	case DocTopicRows:
		return "doc-topics"
	case DocFoldIn:
		return "fold-in"
	}
	return fmt.Sprintf("DocVectors(%d)", int(v))
}

// TopicScores computes s_topic(q, d) of RLSI Eq. 4, the cosine of the
// query's and the document's topic vectors:
//
//	s_topic(q, d) = ⟨v_q, v_d⟩ / (‖v_q‖₂ · ‖v_d‖₂),
//
// with v_q = model.FoldIn(QueryWeights) (RLSI Section 5: the fold-in of the
// query's tf-idf vector) and v_d as DocVectors says. When either vector is
// zero the cosine is undefined and the score is 0 (the document is neither
// attracted nor repelled). name labels the scores (e.g. "rlsi").
func (t *Task) TopicScores(ctx context.Context, name string, model engine.Model, dv DocVectors) (*Scores, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if model == nil {
		return nil, fmt.Errorf("retrieval: task %q: nil model", t.Name)
	}
	if t.QueryWeights == nil {
		return nil, fmt.Errorf("retrieval: task %q has no weighted queries to fold in", t.Name)
	}
	vq, err := model.FoldIn(ctx, t.QueryWeights)
	if err != nil {
		return nil, fmt.Errorf("task %q: folding in queries: %w", t.Name, err)
	}
	var vd *mat.Dense
	switch dv {
	case DocTopicRows:
		vd = model.DocTopics()
	case DocFoldIn:
		if t.DocWeights == nil {
			return nil, fmt.Errorf("retrieval: task %q has no document weights to fold in", t.Name)
		}
		if vd, err = model.FoldIn(ctx, t.DocWeights); err != nil {
			return nil, fmt.Errorf("task %q: folding in documents: %w", t.Name, err)
		}
	default:
		return nil, fmt.Errorf("retrieval: unknown DocVectors %d", int(dv))
	}
	return CosineScores(name, vq, vd, len(t.QueryIDs), len(t.DocIDs))
}

// CosineScores returns the cosine of every row of vq (queries × K) with
// every row of vd (documents × K), 0 where a row is zero. q and n are the
// expected numbers of rows; a mismatch, or a non-finite entry, is an error.
func CosineScores(name string, vq, vd *mat.Dense, q, n int) (*Scores, error) {
	rq, k := dims(vq)
	rd, kd := dims(vd)
	if rq != q {
		return nil, fmt.Errorf("retrieval: %s: %d query vectors for %d queries", name, rq, q)
	}
	if rd != n {
		return nil, fmt.Errorf("retrieval: %s: %d document vectors for %d documents", name, rd, n)
	}
	if rq > 0 && rd > 0 && k != kd {
		return nil, fmt.Errorf("retrieval: %s: query vectors have %d topics, document vectors %d", name, k, kd)
	}
	uq, err := unitRows(name, "query", vq)
	if err != nil {
		return nil, err
	}
	ud, err := unitRows(name, "document", vd)
	if err != nil {
		return nil, err
	}
	out := make([][]float64, q)
	parallel.Default().For(q, 4, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			row := make([]float64, n)
			a := uq[i]
			if a != nil {
				for d, b := range ud {
					if b == nil {
						continue
					}
					s := 0.0
					for j, x := range a {
						s += x * b[j]
					}
					row[d] = s
				}
			}
			out[i] = row
		}
	})
	return &Scores{Name: name, Values: out}, nil
}

func dims(m *mat.Dense) (int, int) {
	if m == nil || m.IsEmpty() {
		return 0, 0
	}
	return m.Dims()
}

// unitRows returns each row scaled to unit norm, nil for a zero row.
func unitRows(name, what string, m *mat.Dense) ([][]float64, error) {
	r, _ := dims(m)
	out := make([][]float64, r)
	for i := range out {
		row := m.RawRowView(i)
		big := 0.0 // scale by the largest |entry| first, so the norm cannot overflow
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("retrieval: %s: %s vector %d has entry %d = %v", name, what, i, j, v)
			}
			big = math.Max(big, math.Abs(v))
		}
		if big == 0 {
			continue
		}
		u := make([]float64, len(row))
		ss := 0.0
		for j, v := range row {
			u[j] = v / big
			ss += u[j] * u[j]
		}
		inv := 1 / math.Sqrt(ss)
		for j := range u {
			u[j] *= inv
		}
		out[i] = u
	}
	return out, nil
}
