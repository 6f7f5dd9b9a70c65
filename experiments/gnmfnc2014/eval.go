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

// evaluate ranks every query's candidates by score(q, d) (d an archive
// position) and evaluates the ranking with metrics/ir (trec_eval -c: every
// judged query counts; ties broken by document id as trec_eval does).
func (d *data) evaluate(score func(q int) []float64) (perQuery, error) {
	t := d.task
	run := ir.Run{}
	for q, id := range t.QueryIDs {
		s := score(q)
		entries := make([]ir.ScoredDoc, len(d.cands[q]))
		for i, doc := range d.cands[q] {
			entries[i] = ir.ScoredDoc{DocID: t.DocIDs[doc], Score: s[i]}
		}
		run[id] = entries
	}
	rep, err := ir.Evaluate(t.Qrels, run, ir.Options{Gains: t.Eval.Gains, Complete: true, PCutoffs: []int{1, 10}, NDCGCutoffs: []int{}})
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

// candScores returns s's scores of query q's candidates.
func (d *data) candScores(s *retrieval.Scores, q int) []float64 {
	out := make([]float64, len(d.cands[q]))
	for i, doc := range d.cands[q] {
		out[i] = s.Values[q][doc]
	}
	return out
}
