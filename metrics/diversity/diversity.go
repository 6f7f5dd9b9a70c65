// Package diversity measures how different the topics of one model are
// from each other, from their ranked top words.
//
// # Topic diversity
//
// TD@k, Dieng, Ruiz and Blei, "Topic Modeling in Embedding Spaces" (TACL
// 2020, §5): "the percentage of unique words in the top 25 words of all
// topics",
//
//	TD@k = |∪_t top_k(t)| / Σ_t |top_k(t)|
//
// with k = 25 by default (DefaultTDTop). It is 1 for topics that share no
// top word and 1/K for K copies of one topic. The denominator is K·k when
// every topic lists k words, as in the paper and in OCTIS's
// TopicDiversity; a sparse topic (RLSI) listing fewer than k words counts
// the words it lists (OCTIS refuses such topics).
//
// # Inverted rank-biased overlap
//
// InvertedRBO is 1 minus the mean, over all pairs of topics, of the
// extrapolated rank-biased overlap of their top-k lists (Webber, Moffat
// and Zobel, "A Similarity Measure for Indefinite Rankings", ACM TOIS
// 2010, Eq. 32), as OCTIS's InvertedRBO defines it (Terragni, Fersini and
// Messina, "Word Embedding-Based Topic Similarity Measures", NLDB 2021;
// defaults k = 10, p = 0.9). For lists S and T of lengths s ≤ l with
// X_d = |S[:d] ∩ T[:d]|:
//
//	RBO_ext = (1−p)/p · (Σ_{d=1..l} X_d/d · p^d + Σ_{d=s+1..l} X_s (d−s)/(s d) · p^d)
//	          + ((X_l − X_s)/l + X_s/s) · p^l
//
// Unlike TD it weighs shared words by their rank: two topics sharing their
// first words are less diverse than two sharing their tenth.
package diversity

import (
	"fmt"
	"math"
)

// Defaults of the measures.
const (
	DefaultTDTop   = 25  // TD@25 (Dieng et al.)
	DefaultRBOTop  = 10  // OCTIS's InvertedRBO topk
	DefaultRBOProb = 0.9 // OCTIS's InvertedRBO weight p
)

// TopicDiversity is TD@k of the topics, each its words best first. It is
// NaN when no topic lists a word.
func TopicDiversity(topics [][]string, k int) float64 {
	unique := map[string]bool{}
	total := 0
	for _, t := range topics {
		t = t[:min(k, len(t))]
		total += len(t)
		for _, w := range t {
			unique[w] = true
		}
	}
	if total == 0 {
		return math.NaN()
	}
	return float64(len(unique)) / float64(total)
}

// InvertedRBO is 1 − mean RBO_ext over all pairs of the topics' top-k
// lists, with persistence p in (0, 1). It is NaN for fewer than two topics.
func InvertedRBO(topics [][]string, k int, p float64) (float64, error) {
	if !(p > 0 && p < 1) {
		return 0, fmt.Errorf("inverted RBO: p = %v, want 0 < p < 1", p)
	}
	if len(topics) < 2 {
		return math.NaN(), nil
	}
	var sum float64
	pairs := 0
	for i := range topics {
		for j := i + 1; j < len(topics); j++ {
			a, b := topics[i][:min(k, len(topics[i]))], topics[j][:min(k, len(topics[j]))]
			sum += RBOExt(a, b, p)
			pairs++
		}
	}
	return 1 - sum/float64(pairs), nil
}

// RBOExt is the extrapolated rank-biased overlap of two rankings of
// distinct items (Webber et al. 2010, Eq. 32); 0 when either is empty.
func RBOExt(S, T []string, p float64) float64 {
	if len(S) > len(T) {
		S, T = T, S
	}
	s, l := len(S), len(T)
	if s == 0 {
		return 0
	}
	inS, inT := map[string]bool{}, map[string]bool{}
	x := make([]float64, l+1) // x[d] = X_d
	var sum1 float64
	for d := 1; d <= l; d++ {
		y := T[d-1]
		inT[y] = true
		x[d] = x[d-1]
		if inS[y] {
			x[d]++
		}
		if d <= s {
			w := S[d-1]
			inS[w] = true
			if inT[w] {
				x[d]++
			}
		}
		sum1 += x[d] / float64(d) * math.Pow(p, float64(d))
	}
	var sum2 float64
	for d := s + 1; d <= l; d++ {
		sum2 += x[s] * float64(d-s) / float64(s*d) * math.Pow(p, float64(d))
	}
	return (1-p)/p*(sum1+sum2) + ((x[l]-x[s])/float64(l)+x[s]/float64(s))*math.Pow(p, float64(l))
}
