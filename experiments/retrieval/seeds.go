package retrieval

import (
	"fmt"
	"slices"

	"github.com/topicmf/topicmf/metrics/stats"
)

// PoolSeeds is the evaluation of one setting fitted with several seeds:
// for every query and measure, the mean of the seeds' values. A paired
// test of the pooled evaluation against a baseline is then a test over
// queries whose per-query value no longer depends on one seed's
// initialization: the unit of the test stays the query, as M. D. Smucker,
// J. Allan and B. Carterette ("A comparison of statistical significance
// tests for information retrieval evaluation", CIKM 2007) assume, and
// pairing query × seed instead would count one query's seeds as
// independent samples. Every evaluation must cover the same queries.
func PoolSeeds(name string, seeds []*Evaluation) (*Evaluation, error) {
	if len(seeds) == 0 {
		return nil, fmt.Errorf("retrieval: no seeds to pool for %q", name)
	}
	first := seeds[0]
	out := &Evaluation{Name: name, Queries: slices.Clone(first.Queries), Values: make([][]float64, len(first.Values))}
	for m := range first.Values {
		out.Values[m] = make([]float64, len(first.Queries))
	}
	for s, e := range seeds {
		if !slices.Equal(e.Queries, first.Queries) || len(e.Values) != len(first.Values) {
			return nil, fmt.Errorf("retrieval: seed %d of %q was evaluated on %d queries, seed 0 on %d (or different ones)", s, name, len(e.Queries), len(first.Queries))
		}
		for m, v := range e.Values {
			for q, x := range v {
				out.Values[m][q] += x / float64(len(seeds))
			}
		}
	}
	return out, nil
}

// SeedInterval is the mean over the seeds of the measure's mean over
// queries (each seed's MAP, say), with Student's t interval at the level
// over the seeds (metrics/stats.MeanInterval): how much the reported mean
// moves with the initialization, the queries held fixed.
func SeedInterval(seeds []*Evaluation, measure string, level float64) (stats.Interval, error) {
	m, err := measureIndex(measure)
	if err != nil {
		return stats.Interval{}, err
	}
	means := make([]float64, len(seeds))
	for s, e := range seeds {
		means[s] = meanOver(e.Values[m], nil)
	}
	return stats.MeanInterval(means, level)
}
