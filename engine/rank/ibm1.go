package rank

import (
	"fmt"
	"math"
	"sort"

	"github.com/topicmf/topicmf/engine/sparse"
)

// DefaultIBM1Iterations is the number of EM iterations when
// IBM1Params.Iterations is 0 (GIZA++'s default for Model 1).
const DefaultIBM1Iterations = 5

// IBM1Params configure the training of IBM Model 1.
type IBM1Params struct {
	// Iterations is the number of EM iterations; 0 means
	// DefaultIBM1Iterations.
	Iterations int
	// Null adds the empty word e₀ to every source sentence (Brown et al.
	// 1993), so a target word need not come from a real source word. Its
	// probabilities are trained but never used by the retrieval models.
	Null bool
}

// IBM1 is a word-translation table t(f|e) learned by IBM Model 1 (Brown,
// Della Pietra, Della Pietra, Mercer, "The Mathematics of Statistical
// Machine Translation: Parameter Estimation", Computational Linguistics
// 19(2), 1993, Model 1) from sentence pairs (e, f): a source "sentence" e
// of l words (a bag: word e with count c_e) and a target f of m words.
// Model 1 generates each target word from a source word chosen uniformly
// (the empty word included when Null), so the log-likelihood of the pairs
// is (up to the length terms, which do not depend on t)
//
//	LL(t) = Σ_pairs Σ_f c_f · ln( Σ_e c_e·t(f|e) / l′ ),   l′ = l (+1 with Null).
//
// EM: from t uniform over the target vocabulary (t = 1/M_f), each
// iteration accumulates
//
//	c(f|e) += c_f · c_e·t(f|e) / Σ_{e′} c_{e′}·t(f|e′)
//
// over every pair and sets t(f|e) = c(f|e) / Σ_{f′} c(f′|e). LL is the
// log-likelihood of an EM for a mixture with fixed weights, so it never
// decreases (recorded in LogLikelihood). Only pairs (e, f) that co-occur in
// some sentence pair are stored: the others are 0 after the first
// iteration. Pairs are visited in order on one goroutine, so training is
// deterministic.
//
// For question retrieval (Jeon, Croft & Lee 2005; Xue, Jeon & Croft 2008)
// the pairs are a question and an answer (or comment) of the same thread,
// and T(w|t) = t(f = w | e = t) is the probability that query word w
// translates document word t; Xue et al. train both directions (question
// as source and as target) and pool them — train twice to do that.
type IBM1 struct {
	ms, mt    int
	null      bool
	byTarget  *sparse.CSR // M_f × (M_e [+1]): row f lists e with t(f|e) > 0
	loglik    []float64
	pairsUsed int
}

// TrainIBM1 trains IBM Model 1 on the sentence pairs given as rows of src
// (pairs × M_e: the source words' counts) and tgt (pairs × M_f: the target
// words'). Counts must be finite and non-negative (integers, or weights). A
// pair with an empty source and no empty word cannot generate its target
// and is skipped (PairsUsed counts the others).
func TrainIBM1(src, tgt *sparse.CSR, p IBM1Params) (*IBM1, error) {
	if src == nil || tgt == nil {
		return nil, fmt.Errorf("rank: IBM1: nil source or target matrix")
	}
	if src.Rows != tgt.Rows {
		return nil, fmt.Errorf("rank: IBM1: %d source sentences but %d target sentences; row i of each is pair i", src.Rows, tgt.Rows)
	}
	if p.Iterations < 0 {
		return nil, fmt.Errorf("rank: IBM1: Iterations = %d, want ≥ 1 (0 for the default %d)", p.Iterations, DefaultIBM1Iterations)
	}
	for _, x := range []struct {
		name string
		m    *sparse.CSR
	}{{"source", src}, {"target", tgt}} {
		name, m := x.name, x.m
		for k, v := range m.Val {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				i, w := m.Locate(k)
				return nil, fmt.Errorf("rank: IBM1: %s sentence %d has count %v for word %d, want a finite non-negative count", name, i, v, w)
			}
		}
	}
	iters := p.Iterations
	if iters == 0 {
		iters = DefaultIBM1Iterations
	}
	t := newIBM1Trainer(src, tgt, p.Null)
	m := &IBM1{ms: src.Cols, mt: tgt.Cols, null: p.Null, pairsUsed: t.used}
	for it := 0; it < iters; it++ {
		m.loglik = append(m.loglik, t.pass(true))
		t.normalize()
	}
	m.loglik = append(m.loglik, t.pass(false))
	m.byTarget = t.table.T()
	return m, nil
}

// ibm1Trainer holds the table t(f|e) as a CSR matrix with a row per source
// word (the empty word last) and the expected counts beside it.
type ibm1Trainer struct {
	src, tgt *sparse.CSR
	null     bool
	table    *sparse.CSR
	count    []float64
	used     int
}

func newIBM1Trainer(src, tgt *sparse.CSR, null bool) *ibm1Trainer {
	rows := src.Cols
	if null {
		rows++
	}
	// The target words co-occurring with each source word: for each e, mark
	// the targets of every pair containing it.
	srcT := src.T()
	stamp := make([]int, tgt.Cols)
	for i := range stamp {
		stamp[i] = -1
	}
	rowPtr := make([]int, rows+1)
	var colIdx []int32
	collect := func(e int, pairs []int32) {
		start := len(colIdx)
		for _, pr := range pairs {
			fs, _ := tgt.Row(int(pr))
			for _, f := range fs {
				if stamp[f] != e {
					stamp[f] = e
					colIdx = append(colIdx, f)
				}
			}
		}
		seg := colIdx[start:]
		sort.Slice(seg, func(a, b int) bool { return seg[a] < seg[b] })
		rowPtr[e+1] = len(colIdx)
	}
	for e := 0; e < src.Cols; e++ {
		pairs, vals := srcT.Row(e)
		var nz []int32
		for q, pr := range pairs {
			if vals[q] > 0 {
				nz = append(nz, pr)
			}
		}
		collect(e, nz)
	}
	t := &ibm1Trainer{src: src, tgt: tgt, null: null}
	if null {
		all := make([]int32, src.Rows)
		for i := range all {
			all[i] = int32(i)
		}
		collect(src.Cols, all)
	}
	val := make([]float64, len(colIdx))
	for k := range val {
		val[k] = 1 / float64(tgt.Cols) // uniform over the target vocabulary
	}
	t.table = &sparse.CSR{Rows: rows, Cols: tgt.Cols, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
	t.count = make([]float64, len(colIdx))
	for i := 0; i < src.Rows; i++ {
		if t.length(i) > 0 {
			t.used++
		}
	}
	return t
}

// length is l′ of pair i: its source words (counted) and the empty word.
func (t *ibm1Trainer) length(i int) float64 {
	_, cs := t.src.Row(i)
	l := 0.0
	for _, c := range cs {
		l += c
	}
	if t.null {
		l++
	}
	return l
}

// find returns the index of t(f|e) in the table (the pair co-occurs).
func (t *ibm1Trainer) find(e int, f int32) int {
	lo, hi := t.table.RowPtr[e], t.table.RowPtr[e+1]
	cols := t.table.ColIdx[lo:hi]
	return lo + sort.Search(len(cols), func(k int) bool { return cols[k] >= f })
}

// pass returns LL(t) and, when accumulate, adds the expected counts of
// every pair to count (the E-step).
func (t *ibm1Trainer) pass(accumulate bool) float64 {
	var ll float64
	var idx []int
	var w []float64
	for i := 0; i < t.src.Rows; i++ {
		l := t.length(i)
		if l == 0 {
			continue
		}
		es, ces := t.src.Row(i)
		fs, cfs := t.tgt.Row(i)
		for q, f := range fs {
			if cfs[q] == 0 {
				continue
			}
			idx, w = idx[:0], w[:0]
			denom := 0.0
			for r, e := range es {
				if ces[r] == 0 {
					continue
				}
				k := t.find(int(e), f)
				idx, w = append(idx, k), append(w, ces[r]*t.table.Val[k])
				denom += w[len(w)-1]
			}
			if t.null {
				k := t.find(t.src.Cols, f)
				idx, w = append(idx, k), append(w, t.table.Val[k])
				denom += w[len(w)-1]
			}
			ll += cfs[q] * math.Log(denom/l)
			if accumulate && denom > 0 {
				for r, k := range idx {
					t.count[k] += cfs[q] * w[r] / denom
				}
			}
		}
	}
	return ll
}

// normalize is the M-step: t(f|e) = c(f|e)/Σ_f′ c(f′|e); the counts are
// then cleared.
func (t *ibm1Trainer) normalize() {
	for e := 0; e < t.table.Rows; e++ {
		lo, hi := t.table.RowPtr[e], t.table.RowPtr[e+1]
		total := 0.0
		for _, c := range t.count[lo:hi] {
			total += c
		}
		for k := lo; k < hi; k++ {
			if total > 0 {
				t.table.Val[k] = t.count[k] / total
			} else {
				t.table.Val[k] = 0
			}
			t.count[k] = 0
		}
	}
}

// LogLikelihood returns LL(t) (see IBM1) at the uniform start and after
// every iteration: Iterations + 1 values, non-decreasing.
func (m *IBM1) LogLikelihood() []float64 { return append([]float64(nil), m.loglik...) }

// PairsUsed is the number of sentence pairs that took part in training.
func (m *IBM1) PairsUsed() int { return m.pairsUsed }

// Vocab returns the source and target vocabulary sizes M_e and M_f.
func (m *IBM1) Vocab() (source, target int) { return m.ms, m.mt }

// Prob is t(f|e) for target word f and source word e (0 if they never
// co-occur); e = -1 is the empty word (0 without Null).
func (m *IBM1) Prob(f, e int) float64 {
	if e == -1 {
		if !m.null {
			return 0
		}
		e = m.ms
	}
	es, ps := m.byTarget.Row(f)
	k := sort.Search(len(es), func(k int) bool { return int(es[k]) >= e })
	if k < len(es) && int(es[k]) == e {
		return ps[k]
	}
	return 0
}

// Sources returns the source words e that co-occur with target word f in
// some pair (ascending, the empty word excluded) and t(f|e): views, not
// copies.
func (m *IBM1) Sources(f int) ([]int32, []float64) {
	es, ps := m.byTarget.Row(f)
	if m.null && len(es) > 0 && int(es[len(es)-1]) == m.ms {
		es, ps = es[:len(es)-1], ps[:len(ps)-1]
	}
	return es, ps
}
