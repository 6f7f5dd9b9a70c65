package rank

import (
	"fmt"
	"math"
)

// IDF selects BM25's inverse document frequency (see the package
// documentation).
type IDF int

const (
	// IDFPlusOne is ln(1 + (N − df + 0.5)/(df + 0.5)), always positive (the
	// default).
	IDFPlusOne IDF = iota
	// IDFRSJ is the classic Robertson/Spärck Jones ln((N − df + 0.5)/(df +
	// 0.5)); negative for terms in more than half of the documents.
	IDFRSJ
)

func (f IDF) String() string {
	switch f {
	case IDFPlusOne:
		return "ln(1+(N-df+0.5)/(df+0.5))"
	case IDFRSJ:
		return "ln((N-df+0.5)/(df+0.5))"
	}
	return fmt.Sprintf("IDF(%d)", int(f))
}

// BM25Params are BM25's parameters, taken literally (k1 = 0 means binary
// term frequency, b = 0 no length normalization); DefaultBM25Params gives
// the usual k1 = 1.2, b = 0.75.
type BM25Params struct {
	K1  float64 // term-frequency saturation, ≥ 0
	B   float64 // length normalization, in [0, 1]
	IDF IDF
}

// DefaultBM25Params returns k1 = 1.2, b = 0.75 with the IDFPlusOne idf.
func DefaultBM25Params() BM25Params { return BM25Params{K1: 1.2, B: 0.75, IDF: IDFPlusOne} }

// Validate names the first invalid parameter.
func (p BM25Params) Validate() error {
	if math.IsNaN(p.K1) || math.IsInf(p.K1, 0) || p.K1 < 0 {
		return fmt.Errorf("rank: BM25 k1 = %v, want a finite number ≥ 0", p.K1)
	}
	if math.IsNaN(p.B) || p.B < 0 || p.B > 1 {
		return fmt.Errorf("rank: BM25 b = %v, want a number in [0, 1]", p.B)
	}
	if p.IDF != IDFPlusOne && p.IDF != IDFRSJ {
		return fmt.Errorf("rank: BM25 idf = %d, want IDFPlusOne (%d) or IDFRSJ (%d)", int(p.IDF), int(IDFPlusOne), int(IDFRSJ))
	}
	return nil
}

// BM25 scores documents with Okapi BM25 (see the package documentation).
type BM25 struct {
	ix     *Index
	params BM25Params
	idf    []float64 // per term
	norm   []float64 // per document: k1·(1 − b + b·|d|/avgdl)
}

// NewBM25 precomputes the idf of every term and the length factor of every
// document.
func NewBM25(ix *Index, p BM25Params) (*BM25, error) {
	if ix == nil {
		return nil, fmt.Errorf("rank: BM25: nil index")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	s := &BM25{ix: ix, params: p, idf: make([]float64, ix.Terms()), norm: make([]float64, ix.Docs())}
	n := float64(ix.Docs())
	for t := range s.idf {
		df := float64(ix.df[t])
		r := (n - df + 0.5) / (df + 0.5)
		if p.IDF == IDFRSJ {
			s.idf[t] = math.Log(r)
		} else {
			s.idf[t] = math.Log1p(r)
		}
	}
	for d := range s.norm {
		rel := 1.0
		if ix.avgDL > 0 {
			rel = ix.docLen[d] / ix.avgDL
		}
		s.norm[d] = p.K1 * (1 - p.B + p.B*rel)
	}
	return s, nil
}

// Name is "bm25".
func (s *BM25) Name() string { return "bm25" }

// Params returns the parameters in use.
func (s *BM25) Params() BM25Params { return s.params }

// TermIDF is idf(t).
func (s *BM25) TermIDF(t int) float64 { return s.idf[t] }

// Score implements Scorer: Σ_t qtf·idf(t)·tf·(k1+1)/(tf + k1·(1 − b + b·|d|/avgdl)).
func (s *BM25) Score(terms []int32, qtf []float64, dst []float64) []float64 {
	dst = prepare("BM25", s.ix, terms, qtf, dst)
	k1p1 := s.params.K1 + 1
	for i, t := range terms {
		w := qtf[i] * s.idf[t]
		if w == 0 {
			continue
		}
		docs, tfs := s.ix.Postings(int(t))
		for q, d := range docs {
			tf := tfs[q]
			if tf == 0 {
				continue
			}
			dst[d] += w * tf * k1p1 / (tf + s.norm[d])
		}
	}
	return dst
}
