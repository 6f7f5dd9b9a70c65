package main

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/metrics/ir"
)

// This file is rank's choice of α: a number, or "auto", which picks α by
// k-fold cross-validation over the judged queries
// (retrieval.CrossValidateAlpha).

// defaultAlpha is rank's default α, declared by workflow.RankOptions:
// measured on the registered IR test collections (Cranfield, MED, CISI,
// ADI, NPL) with nmf and rlsi fits at two K each, α = 0.25 has the highest
// mean MAP relative to BM25 alone (+5.8 %; α = 0.5 gave +2.7 %, and less
// than BM25 alone on CISI and NPL). docs/pipeline.md has the table and the
// command that measures it (bench/cmd/alphaevidence).
var defaultAlpha = strconv.FormatFloat(workflow.DefaultRankOptions().Alpha, 'g', -1, 64)

// autoAlphas is the grid --alpha auto chooses from (the evidence's grid).
var autoAlphas = []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1}

// alphaChoice is rank's --alpha: a fixed value, or auto.
type alphaChoice struct {
	auto  bool
	value float64
}

// parseAlpha reads --alpha; auto needs qrels.
func parseAlpha(s string, haveQrels bool) (alphaChoice, error) {
	if s == "auto" {
		if !haveQrels {
			return alphaChoice{}, fmt.Errorf("--alpha auto chooses α on judged queries: give --qrels")
		}
		return alphaChoice{auto: true}, nil
	}
	a, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(a) || a < 0 || a > 1 {
		return alphaChoice{}, fmt.Errorf("--alpha = %s, want a number in [0, 1] or auto", s)
	}
	return alphaChoice{value: a}, nil
}

// autoAlpha chooses α by k-fold cross-validation over the judged queries
// (folds from seed) on the MAP of each grid value, and returns the run in
// which every judged query is ranked with the α chosen on the other folds
// (so that the evaluation printed is a held-out one), the queries without
// judgments with the α chosen on all judged queries. The choice and the
// fold scores are written to report.
func autoAlpha(report io.Writer, qids, docIDs []string, scores workflow.QueryScores, qrels ir.Qrels, depth, folds int, seed uint64) (ir.Run, error) {
	// Per query, the run at every α of the grid (scores computed once).
	runs := make([]ir.Run, len(autoAlphas))
	for i := range runs {
		runs[i] = ir.Run{}
	}
	for qi, q := range qids {
		term, topic := scores(qi)
		for i, a := range autoAlphas {
			one := workflow.RankMixed([]string{q}, docIDs, func(int) ([]float64, []float64) { return term, topic }, func(int) float64 { return a }, depth)
			runs[i][q] = one[q]
		}
	}
	judged := ir.Qrels{}
	for _, q := range qids {
		if j, ok := qrels[q]; ok {
			judged[q] = j
		}
	}
	if len(judged) < folds {
		return nil, fmt.Errorf("--alpha auto: %d judged queries, fewer than the %d folds (--alpha-folds)", len(judged), folds)
	}
	values := make([][]float64, len(autoAlphas))
	var evaluated []string
	for i := range autoAlphas {
		rep, err := ir.Evaluate(judged, runs[i], ir.Options{})
		if err != nil {
			return nil, err
		}
		values[i], evaluated = rep.PerQuery("map"), rep.Queries
	}
	cv, err := retrieval.CrossValidateAlpha(values, autoAlphas, folds, seed)
	if err != nil {
		return nil, err
	}
	alphaOf := map[string]float64{}
	fmt.Fprintf(report, "topicmf rank: --alpha auto: %d-fold cross-validation over %d judged queries (seed %d), MAP on the grid %v:\n",
		folds, len(evaluated), seed, autoAlphas)
	for f, fold := range cv.Folds {
		fmt.Fprintf(report, "topicmf rank:   fold %d: %s, α = %g (MAP %.4f on the other folds), held-out MAP %.4f\n",
			f+1, datasets.Plural(len(fold.Test), "query", "queries"), fold.Alpha, fold.TrainMean, fold.TestMean)
		for _, q := range fold.Test {
			alphaOf[evaluated[q]] = fold.Alpha
		}
	}
	fmt.Fprintf(report, "topicmf rank:   held-out MAP %.4f (BM25 alone, α = 0: %.4f); α chosen on all judged queries: %g (MAP %.4f), for --alpha on new queries\n",
		cv.HeldOutMean, meanOf(values[0]), cv.Alpha, cv.AllMean)
	run := ir.Run{}
	for _, q := range qids {
		a, ok := alphaOf[q]
		if !ok {
			a = cv.Alpha
		}
		run[q] = runs[indexOf(autoAlphas, a)][q]
	}
	return run, nil
}

func meanOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func indexOf(xs []float64, x float64) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// numberQueries applies --query-ids: position renumbers the queries 1, 2,
// … in file order.
func numberQueries(qs *datasets.Collection, how string) error {
	switch how {
	case "as-given":
	case "position":
		for i := range qs.Docs {
			qs.Docs[i].ID = strconv.Itoa(i + 1)
		}
	default:
		return fmt.Errorf("--query-ids %q: want as-given or position", how)
	}
	return nil
}

// positionHint is a warning, when judged queries are not among the
// queries but every judged query id is a position 1..n, that the qrels may
// number the queries by position ("" otherwise).
func positionHint(qrels ir.Qrels, qids []string, how string) string {
	if how == "position" {
		return ""
	}
	known := map[string]bool{}
	for _, q := range qids {
		known[q] = true
	}
	unknown := false
	for q := range qrels {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > len(qids) {
			return ""
		}
		unknown = unknown || !known[q]
	}
	if !unknown {
		return ""
	}
	return "qrels: the judged query ids are all positions 1.." + strconv.Itoa(len(qids)) + " but not all the queries' ids: if the qrels number the queries by position (as Cranfield's cranqrel does), give --query-ids position"
}
