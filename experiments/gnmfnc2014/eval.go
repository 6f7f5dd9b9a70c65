package gnmfnc2014

import (
	"fmt"
	"math"
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

// minMax maps x to [0, 1] (all 0 when x is constant).
func minMax(x []float64) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	out := make([]float64, len(x))
	if !(hi > lo) {
		return out
	}
	for i, v := range x {
		out[i] = (v - lo) / (hi - lo)
	}
	return out
}

// combine is Eq. 14, s = γ·s_topic + (1 − γ)·s_term, over one query's
// candidates: both scores min-max normalized over the candidates for
// 0 < γ < 1 (BM25 is unbounded and the LM a log-likelihood, the paper does
// not say how it puts them on the cosine's scale; experiments/retrieval's
// reading), the raw scores at γ = 0 and 1 (the single models exactly).
func combine(gamma float64, term, topic []float64) []float64 {
	switch gamma {
	case 0:
		return term
	case 1:
		return topic
	}
	tn, pn := minMax(term), minMax(topic)
	s := make([]float64, len(term))
	for i := range s {
		s[i] = gamma*pn[i] + (1-gamma)*tn[i]
	}
	return s
}
