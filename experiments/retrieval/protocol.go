package retrieval

import (
	"fmt"
	"math"
	"slices"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/metrics/stats"
)

// SplitQueries cuts n queries (positions 0..n−1, e.g. into an
// Evaluation's Queries) into k folds: a permutation drawn from
// engine.NewRand(seed) is cut into k consecutive runs of ⌊n/k⌋ or ⌈n/k⌉
// positions, each returned sorted. The same (n, k, seed) always gives the
// same folds. k must be in 1..n.
func SplitQueries(n, k int, seed uint64) ([][]int, error) {
	if k < 1 || k > n {
		return nil, fmt.Errorf("retrieval: cannot split %d queries into %d folds", n, k)
	}
	perm := engine.NewRand(seed).Perm(n)
	folds := make([][]int, k)
	for f := range folds {
		folds[f] = slices.Clone(perm[f*n/k : (f+1)*n/k])
		slices.Sort(folds[f])
	}
	return folds, nil
}

// Candidate is one model configuration (K, λ's, ...) with its α sweep: the
// fair protocol chooses among candidates and their α.
type Candidate struct {
	Label string
	Sweep *Sweep
}

// Choice is one setting chosen on a set of queries.
type Choice struct {
	Candidate     string
	Alpha         float64
	SelectionMean float64  // the selection measure's mean on SelectedOn
	SelectedOn    []string // the queries the choice was made on
	AppliedTo     []string // the queries it was then evaluated on
}

// Test is a paired two-sided t-test of one measure against a baseline,
// over the same queries.
type Test struct {
	Measure      string
	Mean         float64
	BaselineMean float64
	stats.TTest
}

// Compare runs a paired t-test of a against the baseline for every measure
// (metrics/stats.PairedTTest over the per-query values). Both evaluations
// must cover the same queries.
func Compare(a, baseline *Evaluation) ([]Test, error) {
	if !slices.Equal(a.Queries, baseline.Queries) {
		return nil, fmt.Errorf("retrieval: %q and %q were evaluated on different queries (%d vs %d)", a.Name, baseline.Name, len(a.Queries), len(baseline.Queries))
	}
	tests := make([]Test, len(Measures))
	for m, name := range Measures {
		tt, err := stats.PairedTTest(a.Values[m], baseline.Values[m])
		if err != nil {
			return nil, fmt.Errorf("retrieval: %s vs %s, %s: %w", a.Name, baseline.Name, name, err)
		}
		tests[m] = Test{Measure: name, Mean: meanOver(a.Values[m], nil), BaselineMean: meanOver(baseline.Values[m], nil), TTest: tt}
	}
	return tests, nil
}

// choose returns the candidate and α with the highest mean of measure m
// over the query positions idx, reading no other query's value. Ties go to
// the earlier candidate, then the smaller α index.
func choose(cands []Candidate, m int, idx []int) (ci, ai int, mean float64) {
	ci, ai, mean = -1, -1, math.Inf(-1)
	for c, cand := range cands {
		for a, e := range cand.Sweep.Evals {
			if v := meanOver(e.Values[m], idx); v > mean {
				ci, ai, mean = c, a, v
			}
		}
	}
	return ci, ai, mean
}

// checkCandidates verifies that every candidate's sweep covers the
// baseline's queries.
func checkCandidates(baseline *Evaluation, cands []Candidate) error {
	if len(cands) == 0 {
		return fmt.Errorf("retrieval: no candidate settings")
	}
	for _, c := range cands {
		if c.Sweep == nil || len(c.Sweep.Evals) == 0 {
			return fmt.Errorf("retrieval: candidate %q has no evaluated α", c.Label)
		}
		for i, e := range c.Sweep.Evals {
			if !slices.Equal(e.Queries, baseline.Queries) {
				return fmt.Errorf("retrieval: candidate %q at α = %g was evaluated on %d queries, the baseline on %d (or different ones)",
					c.Label, c.Sweep.Alphas[i], len(e.Queries), len(baseline.Queries))
			}
		}
	}
	return nil
}

// BestSetting is the paper's protocol on the TREC sets (RLSI Section 6.1:
// "evaluate each model in a predefined grid of parameters, showing its
// performance under the best parameter choices"): the candidate and α with
// the best mean of the measure over all queries, with its evaluation and
// paired t-tests against the baseline. The choice sees the queries it is
// reported on, so the numbers are optimistic.
func BestSetting(baseline *Evaluation, cands []Candidate, measure string) (Choice, *Evaluation, []Test, error) {
	m, err := measureIndex(measure)
	if err != nil {
		return Choice{}, nil, nil, err
	}
	if err := checkCandidates(baseline, cands); err != nil {
		return Choice{}, nil, nil, err
	}
	ci, ai, mean := choose(cands, m, nil)
	e := cands[ci].Sweep.Evals[ai]
	tests, err := Compare(e, baseline)
	if err != nil {
		return Choice{}, nil, nil, err
	}
	ch := Choice{Candidate: cands[ci].Label, Alpha: cands[ci].Sweep.Alphas[ai], SelectionMean: mean,
		SelectedOn: baseline.Queries, AppliedTo: baseline.Queries}
	return ch, e, tests, nil
}

// FairOptions configure CrossFit.
type FairOptions struct {
	// Seed fixes the split of the queries into two halves.
	Seed uint64
	// Select is the measure maximized when choosing; "" means "map".
	Select string
}

// FairResult is the outcome of the two-fold protocol.
type FairResult struct {
	Select string
	// Choices[h] was made on half h and applied to the other half.
	Choices [2]Choice
	// Eval holds every query's values under the setting chosen on the
	// half it does not belong to.
	Eval *Evaluation
	// Baseline is the term model alone, on the same queries.
	Baseline *Evaluation
	// Tests are the paired t-tests of Eval against Baseline, per measure.
	Tests []Test
}

// CrossFit is the fair protocol: the queries are split into two halves by
// SplitQueries(n, 2, Seed); on each half the candidate and α maximizing the
// mean of the selection measure are chosen, reading only that half's
// per-query values, and applied to the other half. Every query thus gets
// the values of a setting chosen without it; the assembled per-query
// values are compared with the baseline (the term model alone, which has
// no parameter to choose) by paired t-tests. The baseline and every
// candidate must be evaluated on the same queries.
func CrossFit(baseline *Evaluation, cands []Candidate, o FairOptions) (*FairResult, error) {
	sel := o.Select
	if sel == "" {
		sel = "map"
	}
	m, err := measureIndex(sel)
	if err != nil {
		return nil, err
	}
	if err := checkCandidates(baseline, cands); err != nil {
		return nil, err
	}
	n := len(baseline.Queries)
	halves, err := SplitQueries(n, 2, o.Seed)
	if err != nil {
		return nil, err
	}
	res := &FairResult{Select: sel, Baseline: baseline,
		Eval: &Evaluation{Name: "fair 2-fold", Queries: baseline.Queries, Values: make([][]float64, len(Measures))}}
	for mm := range res.Eval.Values {
		res.Eval.Values[mm] = make([]float64, n)
	}
	ids := func(idx []int) []string {
		out := make([]string, len(idx))
		for i, q := range idx {
			out[i] = baseline.Queries[q]
		}
		return out
	}
	for h := range 2 {
		selIdx, testIdx := halves[h], halves[1-h]
		ci, ai, mean := choose(cands, m, selIdx)
		res.Choices[h] = Choice{Candidate: cands[ci].Label, Alpha: cands[ci].Sweep.Alphas[ai], SelectionMean: mean,
			SelectedOn: ids(selIdx), AppliedTo: ids(testIdx)}
		e := cands[ci].Sweep.Evals[ai]
		for mm := range Measures {
			for _, q := range testIdx {
				res.Eval.Values[mm][q] = e.Values[mm][q]
			}
		}
	}
	if res.Tests, err = Compare(res.Eval, baseline); err != nil {
		return nil, err
	}
	return res, nil
}
