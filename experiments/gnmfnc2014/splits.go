package gnmfnc2014

import (
	"fmt"
	"sort"
)

// officialVersusFolds explains, with the numbers splitStatistics measures
// (TestOfficialVersusFolds recomputes them), why every MAP of the main
// protocol is far higher on the official split than over the folds.
const officialVersusFolds = "Why the official split scores far above the folds under the main protocol: the official split reports on the test-2016 queries, " +
	"the folds on all 246 judged queries, and the test-2016 queries are the easy ones once the whole archive competes. BM25, which nothing is tuned for, " +
	"has archive MAP 0.5793 on the 62 test queries against 0.3362 on the 141 train and 0.3590 on the 43 dev queries (0.4014 over all 246; LM, likewise " +
	"untuned, 0.5428 against 0.3579 over all, and every fitted row moves with them), and ranks " +
	"a relevant question first for 51 of 62 test queries against 62 of 141 train and 24 of 43 dev queries; on each query's own ≤ 10 candidates the three " +
	"are alike (MAP 0.8334, 0.8275, 0.8099), so the queries are not easier in themselves. What differs is the pool: 403 of the 534 distinct questions " +
	"judged for a test query are judged for no train or dev query, while every one of the 379 judged for a dev query is also judged for a train query " +
	"(and 413 of the 857 judged for a train query for train queries only). A train or dev query's neighbours in the archive are thus the candidates " +
	"retrieved for similar train queries, unjudged for it and counted irrelevant (the paper's rule), whereas a test query's candidates mostly stand " +
	"apart. Relevant questions per query: test 3.76, train 4.20, dev 4.98."

// splitStat is what splitStatistics measures for one official split.
type splitStat struct {
	queries int
	// archiveMAP and candsMAP are BM25's mean MAP ranking the whole
	// archive and the query's own candidates.
	archiveMAP, candsMAP float64
	// firstAtOne counts the queries whose first question in BM25's archive
	// ranking is relevant.
	firstAtOne int
	// relevant is the mean number of relevant questions per query.
	relevant float64
	// judged counts the distinct questions judged for a query of the
	// split; own those judged for no query of another split, withTrain
	// those judged for a train query too (or, for train, at all).
	judged, own, withTrain int
}

// splitStatistics measures, per official split, BM25 under both rankings
// and how far the split's judged questions are shared with the other
// splits' queries; all the (train, dev, test) entries plus "all".
func splitStatistics(d *data) (map[string]*splitStat, float64) {
	t := d.task
	archive, cands := d.baseline[archivePrefix+scoreBM25], d.baseline[scoreBM25]
	splitsOf := map[string]map[string]bool{}
	stats := map[string]*splitStat{}
	allMAP := 0.0
	for q, id := range t.QueryIDs {
		s := stats[d.split[q]]
		if s == nil {
			s = &splitStat{}
			stats[d.split[q]] = s
		}
		s.queries++
		s.archiveMAP += archive[q][0]
		s.candsMAP += cands[q][0]
		allMAP += archive[q][0]
		for doc, level := range d.archiveQrels[id] {
			if splitsOf[doc] == nil {
				splitsOf[doc] = map[string]bool{}
			}
			splitsOf[doc][d.split[q]] = true
			if t.Eval.Gains[level] > 0 {
				s.relevant++
			}
		}
		if archive[q][1] == 1 { // P@1 (measures[1])
			s.firstAtOne++
		}
	}
	for _, splits := range splitsOf {
		for sp := range splits {
			stats[sp].judged++
			if len(splits) == 1 {
				stats[sp].own++
			}
			if splits[splitTrain] {
				stats[sp].withTrain++
			}
		}
	}
	for _, s := range stats {
		n := float64(s.queries)
		s.archiveMAP /= n
		s.candsMAP /= n
		s.relevant /= n
	}
	return stats, allMAP / float64(len(t.QueryIDs))
}

// splitSummary is one line per split of splitStatistics' numbers, for the
// test's message.
func splitSummary(stats map[string]*splitStat, allMAP float64) string {
	names := make([]string, 0, len(stats))
	for n := range stats {
		names = append(names, n)
	}
	sort.Strings(names)
	out := fmt.Sprintf("all: archive MAP %.4f\n", allMAP)
	for _, n := range names {
		s := stats[n]
		out += fmt.Sprintf("%s: %d queries, archive MAP %.4f, candidates MAP %.4f, first relevant at 1: %d, relevant/query %.2f, judged %d, own %d, also judged for train %d\n",
			n, s.queries, s.archiveMAP, s.candsMAP, s.firstAtOne, s.relevant, s.judged, s.own, s.withTrain)
	}
	return out
}
