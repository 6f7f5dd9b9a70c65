package ir

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Report holds per-query values and means of every measure of one
// evaluation.
type Report struct {
	// Measures are the measure names in trec_eval spelling, in report order:
	// "map", "P_k" for each P cutoff, "ndcg_cut_k" for each NDCG cutoff,
	// then "ndcg".
	Measures []string
	// Queries are the evaluated query ids in byte order.
	Queries []string
	// Values[m][q] is measure Measures[m] on query Queries[q].
	Values [][]float64
	// Means[m] is the mean of Values[m] over the evaluated queries.
	Means []float64
	// NumRel[q] is R, the number of relevant documents of Queries[q].
	NumRel []int
	// Warnings list queries left out or scored 0 by convention, as data for
	// reports.
	Warnings []string
}

// Index returns the position of a measure in Measures, or -1.
func (r *Report) Index(measure string) int { return slices.Index(r.Measures, measure) }

// Mean is the mean of a measure over the evaluated queries (NaN if the
// report has no such measure).
func (r *Report) Mean(measure string) float64 {
	m := r.Index(measure)
	if m < 0 {
		return math.NaN()
	}
	return r.Means[m]
}

// PerQuery returns a copy of a measure's per-query values aligned with
// Queries (nil if the report has no such measure); two reports over the same
// queries give paired samples for a t-test.
func (r *Report) PerQuery(measure string) []float64 {
	m := r.Index(measure)
	if m < 0 {
		return nil
	}
	return slices.Clone(r.Values[m])
}

// Value is a measure on one query; ok is false if either is unknown.
func (r *Report) Value(measure, query string) (v float64, ok bool) {
	m := r.Index(measure)
	q, found := slices.BinarySearch(r.Queries, query)
	if m < 0 || !found {
		return 0, false
	}
	return r.Values[m][q], true
}

// WriteTREC writes the report as trec_eval does: with perQuery (trec_eval
// -q) first every query's measures, then the summary lines with query id
// "all" and num_q. Each line is "%-22s\t%s\t%6.4f" (measure, query, value).
func (r *Report) WriteTREC(w io.Writer, perQuery bool) error {
	var err error
	line := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	if perQuery {
		for q, qid := range r.Queries {
			for m, name := range r.Measures {
				line("%-22s\t%s\t%6.4f\n", name, qid, r.Values[m][q])
			}
		}
	}
	line("%-22s\t%s\t%d\n", "num_q", "all", len(r.Queries))
	for m, name := range r.Measures {
		line("%-22s\t%s\t%6.4f\n", name, "all", r.Means[m])
	}
	return err
}

// Evaluate scores run against qrels (see the package documentation for the
// exact definitions). It returns an error for invalid options, a NaN score, a
// document retrieved twice for one query, or when no query is left to
// evaluate.
func Evaluate(qrels Qrels, run Run, opts Options) (*Report, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	pk, nk := opts.pCutoffs(), opts.ndcgCutoffs()
	r := &Report{Measures: []string{"map"}}
	for _, k := range pk {
		r.Measures = append(r.Measures, "P_"+strconv.Itoa(k))
	}
	for _, k := range nk {
		r.Measures = append(r.Measures, "ndcg_cut_"+strconv.Itoa(k))
	}
	r.Measures = append(r.Measures, "ndcg")
	r.Values = make([][]float64, len(r.Measures))

	var extra []string // run queries without judgments
	for q := range run {
		if _, ok := qrels[q]; !ok {
			extra = append(extra, q)
		}
	}
	slices.Sort(extra)
	// Queries left out or scored 0, by reason, for one warning per reason.
	var unrun, noRel, zeroRel, unrunZero []string
	for _, q := range slices.Sorted(maps.Keys(qrels)) {
		judged := qrels[q]
		docs, inRun := run[q]
		numRel := 0
		for _, l := range judged {
			if opts.Relevant(l) {
				numRel++
			}
		}
		if !inRun && !opts.Complete {
			unrun = append(unrun, q)
			continue
		}
		if numRel == 0 {
			if opts.SkipNoRelevant {
				noRel = append(noRel, q)
				continue
			}
			zeroRel = append(zeroRel, q)
		}
		if !inRun {
			unrunZero = append(unrunZero, q)
		}
		vals, err := evaluateQuery(q, judged, docs, numRel, opts, pk, nk)
		if err != nil {
			return nil, err
		}
		r.Queries = append(r.Queries, q)
		r.NumRel = append(r.NumRel, numRel)
		for m, v := range vals {
			r.Values[m] = append(r.Values[m], v)
		}
	}
	r.Warnings = appendQueryWarning(r.Warnings, extra, "in the run but not in the qrels; ignored")
	r.Warnings = appendQueryWarning(r.Warnings, unrun, "judged but not in the run; ignored (Complete would score it 0)")
	r.Warnings = appendQueryWarning(r.Warnings, noRel, "no relevant document in the qrels; skipped")
	r.Warnings = appendQueryWarning(r.Warnings, zeroRel, "no relevant document in the qrels; every measure is 0")
	r.Warnings = appendQueryWarning(r.Warnings, unrunZero, "judged but not in the run; scored 0")
	if len(r.Queries) == 0 {
		return nil, errors.New("ir: no queries with both results and relevance judgments to evaluate")
	}
	r.Means = make([]float64, len(r.Measures))
	for m, vs := range r.Values {
		sum := 0.0
		for _, v := range vs {
			sum += v
		}
		r.Means[m] = sum / float64(len(vs))
	}
	return r, nil
}

// evaluateQuery returns the values of map, P@pk..., NDCG@nk..., ndcg.
func evaluateQuery(q string, judged map[string]int, docs []ScoredDoc, numRel int, opts Options, pk, nk []int) ([]float64, error) {
	seen := make(map[string]bool, len(docs))
	for _, d := range docs {
		if math.IsNaN(d.Score) {
			return nil, fmt.Errorf("ir: query %s: document %s has score NaN", q, d.DocID)
		}
		if seen[d.DocID] {
			return nil, fmt.Errorf("ir: query %s: document %s retrieved twice", q, d.DocID)
		}
		seen[d.DocID] = true
	}
	ranked := Rank(docs)
	rel := make([]bool, len(ranked))
	gains := make([]float64, len(ranked))
	for i, d := range ranked {
		if l, ok := judged[d.DocID]; ok {
			rel[i] = opts.Relevant(l)
			gains[i] = opts.Gain(l)
		}
	}
	all := make([]float64, 0, len(judged))
	for _, l := range judged {
		all = append(all, opts.Gain(l))
	}
	ideal := IdealGains(all)

	vals := make([]float64, 0, 2+len(pk)+len(nk))
	vals = append(vals, AveragePrecision(rel, numRel))
	for _, k := range pk {
		vals = append(vals, PrecisionAt(rel, k))
	}
	ndcg := func(k int) float64 {
		idcg := DCG(ideal, k)
		if idcg <= 0 {
			return 0
		}
		return DCG(gains, k) / idcg
	}
	for _, k := range nk {
		vals = append(vals, ndcg(k))
	}
	vals = append(vals, ndcg(0))
	return vals, nil
}

// Paired returns a measure's per-query values in two reports over the same
// queries, aligned by query, for a paired significance test
// (stats.PairedTTest). It returns an error if either report lacks the
// measure or their query sets differ (evaluate both runs with Complete to
// score every judged query).
func Paired(a, b *Report, measure string) (x, y []float64, err error) {
	x, y = a.PerQuery(measure), b.PerQuery(measure)
	if x == nil || y == nil {
		return nil, nil, fmt.Errorf("ir: measure %q missing from a report", measure)
	}
	if !slices.Equal(a.Queries, b.Queries) {
		for _, q := range a.Queries {
			if _, ok := slices.BinarySearch(b.Queries, q); !ok {
				return nil, nil, fmt.Errorf("ir: query %s is in the first report only (%d vs %d queries); evaluate with Complete", q, len(a.Queries), len(b.Queries))
			}
		}
		for _, q := range b.Queries {
			if _, ok := slices.BinarySearch(a.Queries, q); !ok {
				return nil, nil, fmt.Errorf("ir: query %s is in the second report only (%d vs %d queries); evaluate with Complete", q, len(a.Queries), len(b.Queries))
			}
		}
	}
	return x, y, nil
}

// warnIDs is how many query ids a warning about several queries lists.
const warnIDs = 5

// appendQueryWarning appends to warnings one line saying why the queries
// ids (in order) were left out or scored 0: "query 7: why" for one, and
// for several their count and the first warnIDs ids, so that a qrels
// file judging a few of many queries gives one line, not one per query.
func appendQueryWarning(warnings, ids []string, why string) []string {
	switch {
	case len(ids) == 0:
		return warnings
	case len(ids) == 1:
		return append(warnings, fmt.Sprintf("query %s: %s", ids[0], why))
	}
	list := strings.Join(ids[:min(len(ids), warnIDs)], ", ")
	if len(ids) > warnIDs {
		list += fmt.Sprintf(" and %d more", len(ids)-warnIDs)
	}
	return append(warnings, fmt.Sprintf("%d queries: %s (%s)", len(ids), why, list))
}
