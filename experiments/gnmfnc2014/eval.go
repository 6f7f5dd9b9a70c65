package gnmfnc2014

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/metrics/ir"
)

// measures are the paper's (§3.1: MAP, P@1, P@10), in trec_eval spelling,
// with gain > 0 relevant (PerfectMatch and Relevant).
var measures = []string{"map", "P_1", "P_10"}

var measureNames = map[string]string{"map": "MAP", "P_1": "P@1", "P_10": "P@10"}

// gammas are γ of Eq. 14, "from 0 to 1 in steps of 0.1" (§3.1).
var gammas = retrieval.DefaultAlphas()

func gammaString(g float64) string { return strconv.FormatFloat(g, 'g', -1, 64) }

// perQuery holds one ranking's values: vals[q][m] for query q of the task
// (task order) and measures[m].
type perQuery [][]float64

// ranking is the set of archive documents a query ranks: its own judged
// related questions (SemEval subtask B: the re-ranking protocol) or the
// whole archive minus the query itself (the paper's protocol, §3.1).
type ranking struct {
	// prefix starts the stored per-query metric names of the ranking.
	prefix string
	// docs returns the archive positions query q ranks, ascending.
	docs func(d *data, q int) []int
	// qrels returns the ranking's judgments.
	qrels func(d *data) ir.Qrels
}

var (
	rankArchive = ranking{prefix: archivePrefix, docs: func(d *data, q int) []int { return d.archive[q] }, qrels: func(d *data) ir.Qrels { return d.archiveQrels }}
	rankCands   = ranking{prefix: "", docs: func(d *data, q int) []int { return d.cands[q] }, qrels: func(d *data) ir.Qrels { return d.task.Qrels }}
	rankings    = []ranking{rankArchive, rankCands}
)

// archivePrefix starts the per-query metric names of the full-archive
// ranking ("archive:<term>@<γ>/<measure>", "archive:base:<name>/<measure>").
const archivePrefix = "archive:"

// evaluate ranks, for every query q, the documents r gives it by
// score(q, docs) (one score per document of docs, archive positions) and
// evaluates the ranking with metrics/ir (trec_eval -c: every judged query
// counts; ties broken by document id as trec_eval does; a retrieved
// document without a judgment counts as irrelevant, as in the paper, whose
// judgments cover only VSM's top 10).
func (d *data) evaluate(r ranking, score func(q int, docs []int) []float64) (perQuery, error) {
	t := d.task
	run := ir.Run{}
	for q, id := range t.QueryIDs {
		docs := r.docs(d, q)
		s := score(q, docs)
		entries := make([]ir.ScoredDoc, len(docs))
		for i, doc := range docs {
			entries[i] = ir.ScoredDoc{DocID: t.DocIDs[doc], Score: s[i]}
		}
		run[id] = entries
	}
	rep, err := ir.Evaluate(r.qrels(d), run, ir.Options{Gains: t.Eval.Gains, Complete: true, PCutoffs: []int{1, 10}, NDCGCutoffs: []int{}})
	if err != nil {
		return nil, err
	}
	out := make(perQuery, len(t.QueryIDs))
	for q, id := range t.QueryIDs {
		out[q] = make([]float64, len(measures))
		for m, name := range measures {
			v, ok := rep.Value(name, id)
			if !ok {
				return nil, fmt.Errorf("metrics/ir reported no %s for query %s", name, id)
			}
			out[q][m] = v
		}
	}
	return out, nil
}

// scoresAt returns s's scores of query q for the archive positions docs.
func scoresAt(s *retrieval.Scores, q int, docs []int) []float64 {
	out := make([]float64, len(docs))
	for i, doc := range docs {
		out[i] = s.Values[q][doc]
	}
	return out
}
