package experiments

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments/retrieval"
)

// A retrieval task that sweeps the weight α of Eq. 5 stores every α's
// per-query values, so that a protocol can choose among configurations
// when the results are rendered. Each value is stored under the metric
// name "<prefix>@<α>/<measure>": the prefix names the term model
// (rlsi2011) or the part of the queries (gmf2012/tables12-13), the measure
// is one of retrieval.Measures.

// SweepMetric is the stored name of one per-query value of a sweep.
func SweepMetric(prefix string, alpha float64, measure string) string {
	return prefix + "@" + strconv.FormatFloat(alpha, 'g', -1, 64) + "/" + measure
}

// ParseSweepMetric splits a name written by SweepMetric; ok is false for
// any other name.
func ParseSweepMetric(s string) (prefix string, alpha float64, measure string, ok bool) {
	prefix, rest, ok1 := strings.Cut(s, "@")
	a, measure, ok2 := strings.Cut(rest, "/")
	if !ok1 || !ok2 {
		return "", 0, "", false
	}
	alpha, err := strconv.ParseFloat(a, 64)
	return prefix, alpha, measure, err == nil
}

// SweepEvaluations turns a stored run's per-query values of one prefix
// back into evaluations, one per α (alphas in ascending order), each with
// its queries in stored order and named "<prefix> α=<α>". A value of an
// unknown measure, or a query without every measure, is an error naming
// the run.
func SweepEvaluations(run *StoredRun, prefix string) (alphas []float64, evals map[float64]*retrieval.Evaluation, err error) {
	evals = map[float64]*retrieval.Evaluation{}
	qpos := map[float64]map[string]int{}
	for _, q := range run.PerQuery {
		p, a, measure, ok := ParseSweepMetric(q.Metric)
		if !ok || p != prefix {
			continue
		}
		m := slices.Index(retrieval.Measures, measure)
		if m < 0 {
			return nil, nil, fmt.Errorf("%s: unknown measure %q in %s", run.Dir, measure, PerQueryFile)
		}
		ev := evals[a]
		if ev == nil {
			ev = &retrieval.Evaluation{Name: fmt.Sprintf("%s α=%g", prefix, a), Values: make([][]float64, len(retrieval.Measures))}
			evals[a] = ev
			qpos[a] = map[string]int{}
			alphas = append(alphas, a)
		}
		i, seen := qpos[a][q.Query]
		if !seen {
			i = len(ev.Queries)
			qpos[a][q.Query] = i
			ev.Queries = append(ev.Queries, q.Query)
			for mm := range ev.Values {
				ev.Values[mm] = append(ev.Values[mm], math.NaN())
			}
		}
		ev.Values[m][i] = q.Value
	}
	sort.Float64s(alphas)
	for _, a := range alphas {
		for m, v := range evals[a].Values {
			for q, x := range v {
				if math.IsNaN(x) {
					return nil, nil, fmt.Errorf("%s: %s at α=%g lacks %s for query %s", run.Dir, prefix, a, retrieval.Measures[m], evals[a].Queries[q])
				}
			}
		}
	}
	return alphas, evals, nil
}
