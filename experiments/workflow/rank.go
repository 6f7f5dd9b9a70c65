package workflow

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/metrics/ir"
)

// Term models of RankOptions.Term.
const (
	TermBM25 = "bm25" // BM25, k1 = 1.2, b = 0.75
	TermLM   = "lm"   // query-likelihood LM with Dirichlet smoothing
)

// RankOptions say how Ranker scores and how many documents it keeps. They
// are declared with engine/param tags, from which the command line's
// flags come; a zero Term or Depth stands for its default.
type RankOptions struct {
	// Alpha is the weight α of the topic score in α·s_topic + (1 − α)·s_term.
	// The default, 0.25, has the best mean MAP relative to BM25 alone on
	// the registered IR collections (docs/pipeline.md).
	Alpha float64 `param:"alpha" default:"0.25" range:"[0,1]" doc:"weight α of the topic score in α·s_topic + (1−α)·s_term: 0 is BM25 (or LM) alone, 1 the topic score alone"`
	// Term is the term model, TermBM25 or TermLM.
	Term string `param:"term" default:"bm25" range:"bm25|lm" doc:"term model: bm25 or lm"`
	// Depth is the number of documents kept per query.
	Depth int `param:"depth" default:"1000" range:"[1,inf)" doc:"documents kept per query"`
}

// DefaultRankOptions are the declared defaults.
func DefaultRankOptions() RankOptions { return param.DefaultsOf[RankOptions]() }

// RankParams are the declared parameters of RankOptions.
func RankParams() []param.Param { return param.Declared(RankOptions{}) }

// ParseRankParams sets the fields of o named by given's keys.
func ParseRankParams(o *RankOptions, given map[string]string) error { return param.Parse(o, given) }

// resolved is o checked against the declared ranges, with the zero Term
// and Depth at their defaults.
func (o RankOptions) resolved() (RankOptions, error) {
	if err := param.Check(o); err != nil {
		return o, err
	}
	d := DefaultRankOptions()
	if o.Term == "" {
		o.Term = d.Term
	}
	if o.Depth == 0 {
		o.Depth = d.Depth
	}
	return o, nil
}

// Ranker ranks a fitted model's training documents for queries, by the
// scores of the RLSI paper (Wang et al., SIGIR 2011, §5):
//
//	s_topic(q, d) = ⟨v_q, v_d⟩ / (‖v_q‖ ‖v_d‖)      (Eq. 4; 0 for a zero vector)
//	s(q, d) = α·s_topic(q, d) + (1 − α)·s_term(q, d)  (Eq. 5)
//
// v_q is the fold-in of the query weighted by the vectorizer, v_d the
// model's fitted representation of d (its row of DocTopics), s_term BM25
// or query-likelihood LM (engine/rank) over the training counts. For
// 0 < α < 1 both scores are min-max normalized per query over all
// documents first (retrieval.Mix); α = 0 and α = 1 use the raw term and
// topic scores. The cosine is retrieval.CosineScores, the experiments' own.
type Ranker struct {
	Model      engine.Model
	Vectorizer *text.Vectorizer
	// Counts are the M×N raw term counts of the training documents; only
	// α < 1 needs them.
	Counts *sparse.CSR
	DocIDs []string
}

// Ranker ranks the run's training documents.
func (r *Run) Ranker() *Ranker {
	return &Ranker{Model: r.Model, Vectorizer: r.Vectorizer, Counts: r.Counts, DocIDs: r.DocIDs}
}

// ScoreParts returns the two scores Rank mixes, each raw: s_term(q, d)
// of the term model term (nil when term is "") and s_topic(q, d), for
// every text q and training document d.
func (rk *Ranker) ScoreParts(ctx context.Context, texts []string, term string) (terms, topics [][]float64, err error) {
	vq, err := rk.Model.FoldIn(ctx, rk.Vectorizer.Transform(texts))
	if err != nil {
		return nil, nil, err
	}
	topic, err := retrieval.CosineScores("topic", vq, rk.Model.DocTopics(), len(texts), len(rk.DocIDs))
	if err != nil || term == "" {
		return nil, topic.Values, err
	}
	if rk.Counts == nil {
		return nil, nil, fmt.Errorf("the %s term model needs the documents' term counts", term)
	}
	scorer, err := rk.termModel(term)
	if err != nil {
		return nil, nil, err
	}
	qCounts, err := rk.QueryCounts(texts)
	if err != nil {
		return nil, nil, err
	}
	terms = make([][]float64, len(texts))
	for q := range texts {
		ids, qtf := qCounts.Row(q)
		terms[q] = scorer.Score(ids, qtf, nil)
	}
	return terms, topic.Values, nil
}

// termModel is the scorer of the term model over the training counts.
func (rk *Ranker) termModel(term string) (rank.Scorer, error) {
	ix, err := rank.NewIndex(rk.Counts)
	if err != nil {
		return nil, err
	}
	if term == TermLM {
		return rank.NewLM(ix, rank.LMParams{})
	}
	return rank.NewBM25(ix, rank.DefaultBM25Params())
}

// QueryCounts are the raw term counts of texts (one row per text) over
// the training vocabulary, the queries of the term models.
func (rk *Ranker) QueryCounts(texts []string) (*sparse.CSR, error) {
	countVec, err := text.NewVectorizer(rk.Vectorizer.Vocab, rk.Vectorizer.DF, rk.Vectorizer.N, countOptions(rk.Vectorizer.Options))
	if err != nil {
		return nil, err
	}
	return countVec.Transform(texts), nil
}

// Rank ranks the training documents for each query (ids[i] names
// texts[i]), best first, ties broken by document id descending as
// trec_eval does, keeping o.Depth documents per query.
func (rk *Ranker) Rank(ctx context.Context, ids, texts []string, o RankOptions) (ir.Run, error) {
	if len(ids) != len(texts) {
		return nil, fmt.Errorf("%d query ids for %d queries", len(ids), len(texts))
	}
	o, err := o.resolved()
	if err != nil {
		return nil, err
	}
	term := o.Term
	if o.Alpha == 1 {
		term = "" // the topic score alone: no counts needed
	}
	terms, topics, err := rk.ScoreParts(ctx, texts, term)
	if err != nil {
		return nil, err
	}
	scores := func(q int) ([]float64, []float64) {
		if terms == nil {
			return nil, topics[q]
		}
		return terms[q], topics[q]
	}
	return RankMixed(ids, rk.DocIDs, scores, func(int) float64 { return o.Alpha }, o.Depth), nil
}

// QueryScores returns query q's term and topic scores over the documents.
type QueryScores func(q int) (term, topic []float64)

// RankMixed ranks every query q (named qids[q]) by retrieval.Mix of its
// scores at α = alpha(q), best first, ties broken by document id
// descending as trec_eval does, keeping the top depth documents.
func RankMixed(qids, docIDs []string, scores QueryScores, alpha func(q int) float64, depth int) ir.Run {
	run := ir.Run{}
	for q, id := range qids {
		term, topic := scores(q)
		s := topic
		if term != nil {
			s = retrieval.Mix(alpha(q), term, topic)
		}
		docs := make([]ir.ScoredDoc, len(s))
		for d, x := range s {
			docs[d] = ir.ScoredDoc{DocID: docIDs[d], Score: x}
		}
		ranked := ir.Rank(docs)
		run[id] = ranked[:min(depth, len(ranked))]
	}
	return run
}
