package retrieval

import "math"

// Protocols name where a row's numbers come from.
const (
	ProtocolSweep      = "sweep"      // one (candidate, α) point of a sweep, all queries
	ProtocolBest       = "best"       // the paper's best setting, chosen on all queries
	ProtocolFair       = "fair"       // two-fold: chosen on one half, reported on the other
	ProtocolLambdaRank = "lambdarank" // k-fold cross-validated LambdaRank
	ProtocolBaseline   = "baseline"   // a single model alone
)

// QueryRow is one measure of one query under one setting, ready for the
// results store's per-query table.
type QueryRow struct {
	Protocol string
	Method   string  // e.g. "bm25", "bm25+rlsi", "lambdarank+rlsi"
	Config   string  // the candidate configuration ("" when none)
	Alpha    float64 // Eq. 5's α; NaN when it does not apply or differs between folds
	Query    string
	Measure  string // one of Measures
	Value    float64
}

// SummaryRow is the mean of one measure under one setting, with the paired
// t-test against a baseline when there is one (Baseline == "" otherwise, and
// the test fields are NaN).
type SummaryRow struct {
	Protocol string
	Method   string
	Config   string
	Alpha    float64
	Measure  string
	Mean     float64
	Queries  int

	Baseline     string
	BaselineMean float64
	MeanDiff     float64 // mean of (setting − baseline) per query
	T, P         float64 // t statistic and two-sided p-value
	// Warnings from the t-test (too few queries, zero variance).
	Warnings []string
}

// QueryRows lists every per-query value of an evaluation.
func (e *Evaluation) QueryRows(protocol, method, config string, alpha float64) []QueryRow {
	var out []QueryRow
	for m, name := range Measures {
		for q, id := range e.Queries {
			out = append(out, QueryRow{Protocol: protocol, Method: method, Config: config, Alpha: alpha,
				Query: id, Measure: name, Value: e.Values[m][q]})
		}
	}
	return out
}

func summaryRows(e *Evaluation, protocol, method, config string, alpha float64, baseline *Evaluation, tests []Test) []SummaryRow {
	out := make([]SummaryRow, len(Measures))
	for m, name := range Measures {
		r := SummaryRow{Protocol: protocol, Method: method, Config: config, Alpha: alpha, Measure: name,
			Mean: meanOver(e.Values[m], nil), Queries: len(e.Queries),
			BaselineMean: math.NaN(), MeanDiff: math.NaN(), T: math.NaN(), P: math.NaN()}
		if baseline != nil && tests != nil {
			tt := tests[m]
			r.Baseline, r.BaselineMean, r.MeanDiff, r.T, r.P, r.Warnings = baseline.Name, tt.BaselineMean, tt.MeanDiff, tt.T, tt.P, tt.Warnings
		}
		out[m] = r
	}
	return out
}

// Rows returns the comparison's per-query values and summaries: the
// baseline alone, LambdaRank without the topic feature (tested against the
// baseline) and with it (two summaries: tested against LambdaRank without
// it, and against the baseline; the Baseline field tells them apart).
func (c *LTRComparison) Rows() ([]QueryRow, []SummaryRow) {
	nan := math.NaN()
	q := c.Baseline.QueryRows(ProtocolBaseline, c.Baseline.Name, "", nan)
	q = append(q, c.Without.Eval.QueryRows(ProtocolLambdaRank, c.Without.Eval.Name, "", nan)...)
	q = append(q, c.With.Eval.QueryRows(ProtocolLambdaRank, c.With.Eval.Name, "", nan)...)
	s := summaryRows(c.Baseline, ProtocolBaseline, c.Baseline.Name, "", nan, nil, nil)
	s = append(s, summaryRows(c.Without.Eval, ProtocolLambdaRank, c.Without.Eval.Name, "", nan, c.Baseline, c.WithoutVsBaseline)...)
	s = append(s, summaryRows(c.With.Eval, ProtocolLambdaRank, c.With.Eval.Name, "", nan, c.Without.Eval, c.WithVsWithout)...)
	s = append(s, summaryRows(c.With.Eval, ProtocolLambdaRank, c.With.Eval.Name, "", nan, c.Baseline, c.WithVsBaseline)...)
	return q, s
}
