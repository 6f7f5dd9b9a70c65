package retrieval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/metrics/ir"
)

// sweepJudgments evaluate the sweep's rankings without building runs: what
// Task.Evaluate computes for a run holding every query of the task, from
// the ranked document indices. ir.Evaluate's values of one query are
// AP(rel, R), P@k(rel) and DCG@k(gains)/DCG@k(ideal) (0 when DCG@k(ideal) ≤
// 0) over its run entries ranked by score descending, ties by id
// descending, where rel and gains are the judgments of the ranked
// documents (false and 0 when unjudged), R counts the relevant judged
// documents and ideal = IdealGains(the gains of every judged document).
// topK ranks in that very order, so these values are computed here
// by the same metrics/ir functions on the same arrays. Everything else of
// the evaluation — which queries are evaluated, in which order, their
// warnings, and the values of evaluated queries outside the run (qrels
// queries that are not the task's, scored 0 under Complete) — depends on
// the qrels, the options and the run's query ids only, so it is taken from
// one ir.Evaluate of a run with every query and no document (the
// skeleton).
type sweepJudgments struct {
	skeleton *ir.Report
	measures []sweepMeasure // aligned with Measures
	queries  []judgedQuery  // aligned with the task's QueryIDs
}

// sweepMeasure is one of Measures as metrics/ir defines it: AP when ndcg
// and k are unset, P@k when only k is, NDCG@k when ndcg is (k = 0: the
// full ranking, trec_eval's ndcg).
type sweepMeasure struct {
	ndcg bool
	k    int
}

// judgedQuery holds one query's judgments for sweepJudgments.
type judgedQuery struct {
	pos    int // the query's position in the skeleton's Queries, −1 if not evaluated
	numRel int // R: relevant judged documents, in the collection or not
	// docs are the judged documents that are in the collection (indices),
	// with their relevance and gain.
	docs  []int
	rel   []bool
	gains []float64
	idcg  []float64 // DCG@k of the ideal gains, per measure (NDCG only)
}

// parseSweepMeasure reads a measure name of metrics/ir's report.
func parseSweepMeasure(name string) (sweepMeasure, error) {
	cutoff := func(s string) (int, error) {
		k, err := strconv.Atoi(s)
		if err != nil || k <= 0 {
			return 0, fmt.Errorf("retrieval: measure %q: bad cutoff", name)
		}
		return k, nil
	}
	switch {
	case name == "map":
		return sweepMeasure{}, nil
	case name == "ndcg":
		return sweepMeasure{ndcg: true}, nil
	case strings.HasPrefix(name, "P_"):
		k, err := cutoff(name[len("P_"):])
		return sweepMeasure{k: k}, err
	case strings.HasPrefix(name, "ndcg_cut_"):
		k, err := cutoff(name[len("ndcg_cut_"):])
		return sweepMeasure{ndcg: true, k: k}, err
	}
	return sweepMeasure{}, fmt.Errorf("retrieval: unknown measure %q", name)
}

// sweepJudgments prepares the evaluation of rankings of every query of t.
func (t *Task) sweepJudgments() (*sweepJudgments, error) {
	empty := make(ir.Run, len(t.QueryIDs))
	for _, id := range t.QueryIDs {
		empty[id] = nil
	}
	rep, err := ir.Evaluate(t.Qrels, empty, t.Eval)
	if err != nil {
		return nil, fmt.Errorf("task %q: %w", t.Name, err)
	}
	j := &sweepJudgments{skeleton: rep, queries: make([]judgedQuery, len(t.QueryIDs))}
	for _, name := range Measures {
		if rep.Index(name) < 0 {
			return nil, fmt.Errorf("retrieval: metrics/ir reported no %q (evaluation options lack its cutoff)", name)
		}
		m, err := parseSweepMeasure(name)
		if err != nil {
			return nil, err
		}
		j.measures = append(j.measures, m)
	}
	docPos := make(map[string]int, len(t.DocIDs))
	for d, id := range t.DocIDs {
		docPos[id] = d
	}
	for q, id := range t.QueryIDs {
		jq := &j.queries[q]
		jq.pos = -1
		if p, ok := slices.BinarySearch(rep.Queries, id); ok {
			jq.pos = p
		}
		judged := t.Qrels[id]
		all := make([]float64, 0, len(judged))
		for doc, l := range judged {
			if t.Eval.Relevant(l) {
				jq.numRel++
			}
			all = append(all, t.Eval.Gain(l))
			if d, ok := docPos[doc]; ok {
				jq.docs = append(jq.docs, d)
				jq.rel = append(jq.rel, t.Eval.Relevant(l))
				jq.gains = append(jq.gains, t.Eval.Gain(l))
			}
		}
		ideal := ir.IdealGains(all)
		jq.idcg = make([]float64, len(j.measures))
		for m, ms := range j.measures {
			if ms.ndcg {
				jq.idcg[m] = ir.DCG(ideal, ms.k)
			}
		}
	}
	return j, nil
}

// newValues returns the skeleton's values, to be overwritten by every
// evaluated query of the task: [measure][evaluated query].
func (j *sweepJudgments) newValues() [][]float64 {
	v := make([][]float64, len(Measures))
	for m, name := range Measures {
		v[m] = j.skeleton.PerQuery(name)
	}
	return v
}

// evaluation wraps values (from newValues) as Task.Evaluate's result.
func (j *sweepJudgments) evaluation(name string, values [][]float64) *Evaluation {
	return &Evaluation{Name: name, Queries: slices.Clone(j.skeleton.Queries), Values: values, Warnings: slices.Clone(j.skeleton.Warnings)}
}

// queryEvaluator evaluates rankings of one query at a time; each goroutine
// has its own.
type queryEvaluator struct {
	j     *sweepJudgments
	q     int
	at    []int // at[d]: position of document d in the query's judged docs, or −1
	rel   []bool
	gains []float64
}

// evaluator returns an evaluator for a collection of n documents.
func (j *sweepJudgments) evaluator(n int) *queryEvaluator {
	at := make([]int, n)
	for d := range at {
		at[d] = -1
	}
	return &queryEvaluator{j: j, at: at}
}

// setQuery makes q (a task query index) the evaluated query.
func (e *queryEvaluator) setQuery(q int) {
	e.q = q
	for i, d := range e.j.queries[q].docs {
		e.at[d] = i
	}
}

// clearQuery undoes setQuery.
func (e *queryEvaluator) clearQuery() {
	for _, d := range e.j.queries[e.q].docs {
		e.at[d] = -1
	}
}

// evaluate writes the measures of the ranking top (in rank order) of the
// current query into values[m][its position] (nothing when the query is
// not evaluated).
func (e *queryEvaluator) evaluate(top []rankItem, values [][]float64) {
	jq := &e.j.queries[e.q]
	if jq.pos < 0 {
		return
	}
	rel, gains := e.rel[:0], e.gains[:0]
	for _, it := range top {
		r, g := false, 0.0
		if i := e.at[it.doc]; i >= 0 {
			r, g = jq.rel[i], jq.gains[i]
		}
		rel, gains = append(rel, r), append(gains, g)
	}
	e.rel, e.gains = rel, gains
	for m, ms := range e.j.measures {
		var v float64
		switch {
		case ms.ndcg:
			if idcg := jq.idcg[m]; !(idcg <= 0) {
				v = ir.DCG(gains, ms.k) / idcg
			}
		case ms.k > 0:
			v = ir.PrecisionAt(rel, ms.k)
		default:
			v = ir.AveragePrecision(rel, jq.numRel)
		}
		values[m][jq.pos] = v
	}
}
