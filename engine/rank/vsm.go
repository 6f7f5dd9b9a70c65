package rank

import (
	"fmt"
	"math"
)

// VSMParams configure the vector space model.
type VSMParams struct {
	// Sublinear uses 1 + ln tf instead of tf (for tf > 0), in documents and
	// queries alike (SMART "ltc"); the default is raw tf ("ntc").
	Sublinear bool
}

// VSM scores documents by the cosine of tf-idf vectors (see the package
// documentation).
type VSM struct {
	ix     *Index
	params VSMParams
	idf    []float64 // ln(N/df), 0 for df = 0
	inv    []float64 // 1/‖w(·,d)‖, 0 for a zero vector
}

// NewVSM precomputes the idf of every term and the norm of every document
// vector.
func NewVSM(ix *Index, p VSMParams) (*VSM, error) {
	if ix == nil {
		return nil, fmt.Errorf("rank: VSM: nil index")
	}
	s := &VSM{ix: ix, params: p, idf: make([]float64, ix.Terms()), inv: make([]float64, ix.Docs())}
	n := float64(ix.Docs())
	for t := range s.idf {
		if df := ix.df[t]; df > 0 {
			s.idf[t] = math.Log(n / float64(df))
		}
	}
	sq := make([]float64, ix.Docs())
	for t := range s.idf {
		docs, tfs := ix.Postings(t)
		for q, d := range docs {
			w := s.tf(tfs[q]) * s.idf[t]
			sq[d] += w * w
		}
	}
	for d, v := range sq {
		if v > 0 {
			s.inv[d] = 1 / math.Sqrt(v)
		}
	}
	return s, nil
}

func (s *VSM) tf(tf float64) float64 {
	if s.params.Sublinear && tf > 0 {
		return 1 + math.Log(tf)
	}
	return tf
}

// Name is "vsm".
func (s *VSM) Name() string { return "vsm" }

// Params returns the parameters in use.
func (s *VSM) Params() VSMParams { return s.params }

// TermIDF is ln(N/df(t)) (0 for a term in no document).
func (s *VSM) TermIDF(t int) float64 { return s.idf[t] }

// Score implements Scorer: the cosine of the query's and each document's
// tf-idf vectors.
func (s *VSM) Score(terms []int32, qtf []float64, dst []float64) []float64 {
	dst = prepare("VSM", s.ix, terms, qtf, dst)
	qq := 0.0
	for i, t := range terms {
		w := s.tf(qtf[i]) * s.idf[t]
		qq += w * w
	}
	if qq == 0 {
		return dst
	}
	qinv := 1 / math.Sqrt(qq)
	for i, t := range terms {
		wq := s.tf(qtf[i]) * s.idf[t] * qinv
		if wq == 0 {
			continue
		}
		docs, tfs := s.ix.Postings(int(t))
		for q, d := range docs {
			dst[d] += wq * s.tf(tfs[q]) * s.idf[t]
		}
	}
	for d := range dst {
		dst[d] *= s.inv[d]
	}
	return dst
}
