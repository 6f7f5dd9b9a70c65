package rank

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/sparse"
)

// DefaultTRLMBeta is β of the TRLM when TranslationParams.Beta is 0: an
// even mixture, not a value from the paper (Xue et al. tune β, and λ, on
// held-out queries; tune it likewise).
const DefaultTRLMBeta = 0.5

// TranslationParams configure the translation model and the TRLM.
type TranslationParams struct {
	// Mu is the Dirichlet prior (λ of Xue et al.) > 0; 0 means DefaultMu.
	Mu float64
	// Beta is the TRLM's weight 0 < β ≤ 1 of the translation part; 0 means
	// DefaultTRLMBeta. The translation model (NewTM) has β = 1.
	Beta float64
}

// Translation scores documents by the query likelihood of a translation
// language model. With T(w|t) the probability that query word w translates
// document word t (IBM1.Prob(w, t)), tf(t,D) the count of t in D, |D| its
// length and p(w|C) = cf(w)/|C|:
//
// The translation model of Jeon, Croft & Lee ("Finding similar questions in
// large question and answer archives", CIKM 2005), in the Dirichlet-smoothed
// form in which Xue, Jeon & Croft ("Retrieval models for question and
// answer archives", SIGIR 2008) restate it:
//
//	P(w|D) = |D|/(|D|+μ) · Σ_{t∈D} T(w|t)·P_ml(t|D) + μ/(|D|+μ) · p(w|C)
//
// and the translation-based language model (TRLM) of Xue, Jeon & Croft
// 2008, which mixes in the document's own maximum-likelihood model so
// that an exact match does not depend on the learned T(w|w):
//
//	P_mx(w|D) = (1−β)·P_ml(w|D) + β·Σ_{t∈D} T(w|t)·P_ml(t|D)
//	P(w|D)    = |D|/(|D|+μ) · P_mx(w|D) + μ/(|D|+μ) · p(w|C)
//
// with P_ml(t|D) = tf(t,D)/|D|. Both are one formula,
//
//	P(w|D) = ((1−β)·tf(w,D) + β·Σ_t T(w|t)·tf(t,D) + μ·p(w|C)) / (|D| + μ),
//
// the TM at β = 1 and the Dirichlet LM of this package at β = 0. The score
// is ln P(q|D) = Σ_{w∈q} qtf(w)·ln P(w|D); as for the LM, query words with
// cf(w) = 0 are skipped. Σ_t T(w|t)·tf(t,D) is accumulated over the source
// words t of w (Table.Sources) and their postings.
type Translation struct {
	ix       *Index
	tr       Table
	mu, beta float64
	name     string
}

// NewTM returns the translation model (β = 1) over ix with the table tr,
// whose source and target vocabularies must be the index's terms.
func NewTM(ix *Index, tr Table, p TranslationParams) (*Translation, error) {
	p.Beta = 1
	return newTranslation("tm", ix, tr, p)
}

// NewTRLM returns the translation-based language model over ix with the
// table tr (vocabularies as NewTM).
func NewTRLM(ix *Index, tr Table, p TranslationParams) (*Translation, error) {
	return newTranslation("trlm", ix, tr, p)
}

func newTranslation(name string, ix *Index, tr Table, p TranslationParams) (*Translation, error) {
	if ix == nil || tr == nil {
		return nil, fmt.Errorf("rank: %s: nil index or translation table", name)
	}
	if err := (LMParams{Mu: p.Mu}).Validate(); err != nil {
		return nil, fmt.Errorf("rank: %s: %w", name, err)
	}
	beta := p.Beta
	if beta == 0 {
		beta = DefaultTRLMBeta
	}
	if math.IsNaN(beta) || beta < 0 || beta > 1 {
		return nil, fmt.Errorf("rank: %s: beta = %v, want 0 < β ≤ 1 (0 for the default %v)", name, p.Beta, DefaultTRLMBeta)
	}
	if ms, mt := tr.Vocab(); ms != ix.Terms() || mt != ix.Terms() {
		return nil, fmt.Errorf("rank: %s: translation table over %d source and %d target words, want the index's %d terms", name, ms, mt, ix.Terms())
	}
	return &Translation{ix: ix, tr: tr, mu: LMParams{Mu: p.Mu}.mu(), beta: beta, name: name}, nil
}

// Name is "tm" or "trlm".
func (s *Translation) Name() string { return s.name }

// Beta is β in use (1 for the TM).
func (s *Translation) Beta() float64 { return s.beta }

// Score implements Scorer: Σ_w qtf·ln P(w|D) over the query words that
// occur in the collection (see Translation). It is safe for concurrent
// use (ScoreAll).
func (s *Translation) Score(terms []int32, qtf []float64, dst []float64) []float64 {
	dst = prepare(s.name, s.ix, terms, qtf, dst)
	ix := s.ix
	acc := make([]float64, ix.Docs())
	for i, w := range terms {
		if ix.cf[w] == 0 || qtf[i] == 0 {
			continue
		}
		clear(acc)
		es, ps := s.tr.Sources(int(w))
		for q, e := range es {
			docs, tfs := ix.Postings(int(e))
			tw := s.beta * ps[q]
			for r, d := range docs {
				acc[d] += tw * tfs[r]
			}
		}
		if s.beta < 1 {
			docs, tfs := ix.Postings(int(w))
			for r, d := range docs {
				acc[d] += (1 - s.beta) * tfs[r]
			}
		}
		mpc := s.mu * ix.cf[w] / ix.total
		for d := range dst {
			dst[d] += qtf[i] * math.Log((acc[d]+mpc)/(ix.docLen[d]+s.mu))
		}
	}
	return dst
}

// Table is a word-translation table T(f|e) over a source and a target
// vocabulary: an IBM1, or a PooledTable of two.
type Table interface {
	// Vocab returns the source and target vocabulary sizes.
	Vocab() (source, target int)
	// Sources returns the source words e (ascending) that may translate
	// into target word f, and T(f|e).
	Sources(f int) ([]int32, []float64)
}

// PooledTable is the pooled table of Xue, Jeon & Croft 2008: with
// questions and answers sharing one vocabulary, the tables learned in the
// two directions (answer → question and question → answer) are mixed,
//
//	T_pool(w|t) = (1−δ)·T_a(w|t) + δ·T_b(w|t).
type PooledTable struct {
	ms, mt   int
	byTarget *sparse.CSR
}

// Pool returns (1−δ)·a + δ·b for 0 ≤ δ ≤ 1; a and b must have the same
// vocabularies.
func Pool(a, b Table, delta float64) (*PooledTable, error) {
	if !(delta >= 0 && delta <= 1) {
		return nil, fmt.Errorf("rank: Pool: δ = %v, want 0 ≤ δ ≤ 1", delta)
	}
	ms, mt := a.Vocab()
	if bs, bt := b.Vocab(); bs != ms || bt != mt {
		return nil, fmt.Errorf("rank: Pool: tables over %d→%d and %d→%d words, want the same vocabularies", ms, mt, bs, bt)
	}
	t := &sparse.CSR{Rows: mt, Cols: ms, RowPtr: make([]int, mt+1)}
	for f := 0; f < mt; f++ {
		ea, pa := a.Sources(f)
		eb, pb := b.Sources(f)
		i, j := 0, 0
		for i < len(ea) || j < len(eb) {
			switch {
			case j == len(eb) || (i < len(ea) && ea[i] < eb[j]):
				t.ColIdx, t.Val = append(t.ColIdx, ea[i]), append(t.Val, (1-delta)*pa[i])
				i++
			case i == len(ea) || eb[j] < ea[i]:
				t.ColIdx, t.Val = append(t.ColIdx, eb[j]), append(t.Val, delta*pb[j])
				j++
			default:
				t.ColIdx, t.Val = append(t.ColIdx, ea[i]), append(t.Val, (1-delta)*pa[i]+delta*pb[j])
				i++
				j++
			}
		}
		t.RowPtr[f+1] = len(t.ColIdx)
	}
	return &PooledTable{ms: ms, mt: mt, byTarget: t}, nil
}

// Vocab returns the source and target vocabulary sizes.
func (p *PooledTable) Vocab() (source, target int) { return p.ms, p.mt }

// Sources returns the source words of f (ascending) and T_pool(f|e).
func (p *PooledTable) Sources(f int) ([]int32, []float64) { return p.byTarget.Row(f) }
