package rank

import (
	"fmt"
	"math"
)

// DefaultMu is the Dirichlet prior μ used when LMParams.Mu is 0 (Zhai and
// Lafferty 2001 found the optimum near 2000 for TREC collections).
const DefaultMu = 2000

// LMParams configure the query-likelihood model.
type LMParams struct {
	// Mu is the Dirichlet prior μ > 0; 0 means DefaultMu.
	Mu float64
}

// mu returns μ with the default applied.
func (p LMParams) mu() float64 {
	if p.Mu == 0 {
		return DefaultMu
	}
	return p.Mu
}

// Validate names an invalid μ.
func (p LMParams) Validate() error {
	if math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0) || p.Mu < 0 {
		return fmt.Errorf("rank: LM mu = %v, want a finite number > 0 (0 means %d)", p.Mu, DefaultMu)
	}
	return nil
}

// LM scores documents by their Dirichlet-smoothed query log-likelihood (see
// the package documentation).
type LM struct {
	ix      *Index
	mu      float64
	logPC   []float64 // ln p(t|C); -Inf for cf = 0
	invMuPC []float64 // 1/(μ·p(t|C))
	logLen  []float64 // ln(μ/(|d|+μ))
}

// NewLM precomputes the collection model and the length factor of every
// document.
func NewLM(ix *Index, p LMParams) (*LM, error) {
	if ix == nil {
		return nil, fmt.Errorf("rank: LM: nil index")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	mu := p.mu()
	s := &LM{ix: ix, mu: mu, logPC: make([]float64, ix.Terms()), invMuPC: make([]float64, ix.Terms()),
		logLen: make([]float64, ix.Docs())}
	for t := range s.logPC {
		if ix.cf[t] == 0 {
			s.logPC[t] = math.Inf(-1)
			continue
		}
		pc := ix.cf[t] / ix.total
		s.logPC[t] = math.Log(pc)
		s.invMuPC[t] = 1 / (mu * pc)
	}
	for d := range s.logLen {
		s.logLen[d] = math.Log(mu / (ix.docLen[d] + mu))
	}
	return s, nil
}

// Name is "lm".
func (s *LM) Name() string { return "lm" }

// Mu is the Dirichlet prior in use.
func (s *LM) Mu() float64 { return s.mu }

// Score implements Scorer: Σ_t qtf·ln((tf + μ·p(t|C))/(|d| + μ)), over the
// query terms that occur in the collection.
func (s *LM) Score(terms []int32, qtf []float64, dst []float64) []float64 {
	dst = prepare("LM", s.ix, terms, qtf, dst)
	base, qlen := 0.0, 0.0
	for i, t := range terms {
		if s.ix.cf[t] == 0 || qtf[i] == 0 {
			continue
		}
		base += qtf[i] * s.logPC[t]
		qlen += qtf[i]
	}
	if qlen == 0 {
		return dst
	}
	for d := range dst {
		dst[d] = base + qlen*s.logLen[d]
	}
	for i, t := range terms {
		if s.ix.cf[t] == 0 || qtf[i] == 0 {
			continue
		}
		docs, tfs := s.ix.Postings(int(t))
		for q, d := range docs {
			dst[d] += qtf[i] * math.Log1p(tfs[q]*s.invMuPC[t])
		}
	}
	return dst
}
