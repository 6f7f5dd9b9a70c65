package ir

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Qrels maps query id → document id → judgment level.
type Qrels map[string]map[string]int

// ScoredDoc is one retrieved document with its retrieval score (higher is
// better).
type ScoredDoc struct {
	DocID string
	Score float64
}

// Run maps query id → the documents retrieved for it, in any order; Evaluate
// ranks them (see Rank).
type Run map[string][]ScoredDoc

// DefaultCutoffs returns trec_eval's default cutoffs for P and ndcg_cut.
func DefaultCutoffs() []int { return []int{5, 10, 15, 20, 30, 100, 200, 500, 1000} }

// Options configures Evaluate. The zero value reproduces trec_eval's defaults.
type Options struct {
	// Gains maps a judgment level to its gain; a level absent from the map
	// has gain max(level, 0). Nil means the level itself (trec_eval default).
	Gains map[int]float64
	// RelevanceLevel, when > 0, makes a document relevant for binary
	// measures iff its level ≥ RelevanceLevel (trec_eval -l). When 0, a
	// document is relevant iff its gain is > 0.
	RelevanceLevel int
	// Complete averages over every query of the qrels, a query missing from
	// the run scoring 0 (trec_eval -c). Default: queries in both.
	Complete bool
	// SkipNoRelevant drops queries that have no relevant document in the
	// qrels from the evaluated set (not a trec_eval behaviour).
	SkipNoRelevant bool
	// PCutoffs are the k of P@k; nil means DefaultCutoffs. Each must be
	// positive, without duplicates; they are reported in increasing order.
	PCutoffs []int
	// NDCGCutoffs are the k of NDCG@k; nil means DefaultCutoffs.
	NDCGCutoffs []int
}

// Validate checks the options.
func (o Options) Validate() error {
	if o.RelevanceLevel < 0 {
		return fmt.Errorf("ir: RelevanceLevel = %d, want ≥ 0", o.RelevanceLevel)
	}
	for l, g := range o.Gains {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return fmt.Errorf("ir: gain of level %d is %v, want a finite number", l, g)
		}
	}
	for _, c := range []struct {
		name string
		ks   []int
	}{{"PCutoffs", o.PCutoffs}, {"NDCGCutoffs", o.NDCGCutoffs}} {
		seen := map[int]bool{}
		for _, k := range c.ks {
			if k <= 0 {
				return fmt.Errorf("ir: %s contains %d, want positive cutoffs", c.name, k)
			}
			if seen[k] {
				return fmt.Errorf("ir: %s contains %d twice", c.name, k)
			}
			seen[k] = true
		}
	}
	return nil
}

// Gain is the gain of a judgment level.
func (o Options) Gain(level int) float64 {
	if g, ok := o.Gains[level]; ok {
		return g
	}
	return float64(max(level, 0))
}

// Relevant reports whether a judged document of this level is relevant for
// the binary measures.
func (o Options) Relevant(level int) bool {
	if o.RelevanceLevel > 0 {
		return level >= o.RelevanceLevel
	}
	return o.Gain(level) > 0
}

func (o Options) pCutoffs() []int    { return sortedCutoffs(o.PCutoffs) }
func (o Options) ndcgCutoffs() []int { return sortedCutoffs(o.NDCGCutoffs) }

func sortedCutoffs(ks []int) []int {
	if ks == nil {
		return DefaultCutoffs()
	}
	s := slices.Clone(ks)
	slices.Sort(s)
	return s
}

// ParseGains parses a gain mapping written "level:gain,level:gain", e.g.
// "1:1,2:3,-1:0". The empty string gives nil (levels are their own gains).
func ParseGains(s string) (map[int]float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	gains := map[int]float64{}
	for _, part := range strings.Split(s, ",") {
		lv, gv, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return nil, fmt.Errorf("ir: gains %q: entry %q is not level:gain", s, part)
		}
		l, err := strconv.Atoi(strings.TrimSpace(lv))
		if err != nil {
			return nil, fmt.Errorf("ir: gains %q: level %q is not an integer", s, lv)
		}
		g, err := strconv.ParseFloat(strings.TrimSpace(gv), 64)
		if err != nil || math.IsNaN(g) || math.IsInf(g, 0) {
			return nil, fmt.Errorf("ir: gains %q: gain %q is not a finite number", s, gv)
		}
		if _, dup := gains[l]; dup {
			return nil, fmt.Errorf("ir: gains %q: level %d given twice", s, l)
		}
		gains[l] = g
	}
	return gains, nil
}

// Rank returns a copy of docs in trec_eval order: score descending, ties by
// document id descending (byte order, as strcmp).
func Rank(docs []ScoredDoc) []ScoredDoc {
	s := slices.Clone(docs)
	slices.SortFunc(s, compareRanked)
	return s
}

func compareRanked(a, b ScoredDoc) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return strings.Compare(b.DocID, a.DocID)
}
