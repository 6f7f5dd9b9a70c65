package ir

import "slices"

// AveragePrecision is AP of one ranking: rel[i] tells whether the document
// at rank i+1 is relevant and numRel is R, the number of relevant documents
// in the qrels (retrieved or not). AP = (1/R) Σ_{rel(i)} precision@i; it is 0
// when R = 0 or nothing relevant was retrieved.
func AveragePrecision(rel []bool, numRel int) float64 {
	found, sum := 0, 0.0
	for i, r := range rel {
		if r {
			found++
			sum += float64(found) / float64(i+1)
		}
	}
	if found == 0 || numRel <= 0 {
		return 0
	}
	return sum / float64(numRel)
}

// PrecisionAt is P@k: the relevant documents among the first k ranks,
// divided by k (ranks beyond the end of the list count as non-relevant). It
// is 0 for k ≤ 0.
func PrecisionAt(rel []bool, k int) float64 {
	if k <= 0 {
		return 0
	}
	n := 0
	for _, r := range rel[:min(k, len(rel))] {
		if r {
			n++
		}
	}
	return float64(n) / float64(k)
}

// DCG is Σ_{i ≤ k} gains[i-1] / log2(i+1) over the first k ranks (all ranks
// when k ≤ 0), summed in rank order. log2 is correctly rounded, as C's log2
// in trec_eval (Go's math.Log2 is not).
func DCG(gains []float64, k int) float64 {
	if k <= 0 || k > len(gains) {
		k = len(gains)
	}
	log2 := log2Table(k + 1)
	sum := 0.0
	for i, g := range gains[:k] {
		if g != 0 {
			sum += g / log2[i+2]
		}
	}
	return sum
}

// IdealGains returns the positive entries of judged sorted in decreasing
// order: the gains of the ideal ranking.
func IdealGains(judged []float64) []float64 {
	ideal := make([]float64, 0, len(judged))
	for _, g := range judged {
		if g > 0 {
			ideal = append(ideal, g)
		}
	}
	slices.SortFunc(ideal, func(a, b float64) int {
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	return ideal
}

// NDCGAt is DCG@k of the ranking gains divided by DCG@k of the ideal
// ranking built from judged, the gains of every judged document of the query
// (see IdealGains); k ≤ 0 means the full ranking (trec_eval ndcg). It is 0
// when the ideal DCG is 0.
func NDCGAt(gains, judged []float64, k int) float64 {
	ideal := DCG(IdealGains(judged), k)
	if ideal <= 0 {
		return 0
	}
	return DCG(gains, k) / ideal
}
