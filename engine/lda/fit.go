package lda

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// TermNegLogPWZ names the recorded objective, −log p(w|z) (Griffiths &
// Steyvers 2004, Eq. 2) of the current sample.
const TermNegLogPWZ = "-log p(w|z)"

// Fit runs the collapsed Gibbs sampler on the corpus through engine.Iterate:
// a uniformly random initial assignment, then Iters sweeps over all tokens,
// recording every sweep's wall time and, every EvalEvery sweeps and after
// the last, −log p(w|z). The estimates of φ and θ average the samples of
// the sweeps after BurnIn. The status is IterationLimit (a Gibbs sampler has no
// convergence test) or Cancelled; a cancelled fit returns the estimates
// from the samples taken so far (the current sample if still in burn-in).
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, set, err := engine.Prepare(c, "lda", o.resolve)
	if err != nil {
		return nil, engine.Status{}, err
	}
	s, err := newSampler(set, dt)
	if err != nil {
		return nil, engine.Status{}, err
	}
	return s.run(ctx, rec)
}

// MaxTokens = 2³¹ − 1 bounds the tokens one sampler expands counts into:
// D's in Fit, one document's in FoldIn (whose sampler holds one document
// at a time). Token positions and counts are ints, 32 bits on some
// platforms. Within it, what the sampler holds is checked against the
// memory the process may use (engine.CheckNeed). The largest local
// collection, 20 Newsgroups, has 2.3 million tokens under the default
// pipeline (raw counts).
const MaxTokens = math.MaxInt32

// bytesPerToken is what a sampler keeps per token: its term and its topic,
// int32 each.
const bytesPerToken = 8

// count converts a weight to a token count: an error for a negative,
// non-finite, non-integer (unless round) or larger than MaxTokens weight.
// The messages speak to catalog and command-line users (the parameter
// round=true is Options.RoundWeights).
func count(v float64, round bool) (int, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("%v is not a count ≥ 0", v)
	}
	if r := math.Round(v); r != v {
		if !round {
			return 0, fmt.Errorf("%v is not an integer count: LDA models raw term frequencies (build the corpus with them, on the command line --weighting tf --norm none), or give round=true to round the weights", v)
		}
		v = r
	}
	if v > MaxTokens {
		return 0, fmt.Errorf("%v tokens exceed MaxTokens = %d", v, MaxTokens)
	}
	return int(v), nil
}

// corpusTokens returns the number of tokens of the corpus whose documents
// are the rows of dt (counts over the M terms), before the sampler
// allocates anything: every entry checked with count, the total against
// MaxTokens (the error naming the entry at which the counts pass it), and
// what the sampler then holds against engine.CheckNeed:
//
//	8 bytes × tokens (term and topic) + 16 bytes × (M + N)·K
//
// the latter for the counts n_wk, n_dk and the sums of their estimates.
func corpusTokens(dt *sparse.CSR, k int, round bool) (int, error) {
	total, past := int64(0), ""
	for d := 0; d < dt.Rows; d++ {
		idx, val := dt.Row(d)
		for q, w := range idx {
			c, err := count(val[q], round)
			if err != nil {
				return 0, fmt.Errorf("lda: D[%d,%d] = %w", w, d, err)
			}
			if total += int64(c); total > MaxTokens && past == "" {
				past = fmt.Sprintf("D[%d,%d]", w, d)
			}
		}
	}
	if past != "" {
		return 0, fmt.Errorf("lda: D has %d tokens, more than MaxTokens = %d, the sampler's limit; its counts pass it at %s", total, MaxTokens, past)
	}
	need := bytesPerToken*float64(total) + 16*(float64(dt.Cols)+float64(dt.Rows))*float64(k)
	if err := engine.CheckNeed(fmt.Sprintf("lda: D has %d tokens: its sampler needs", total), need,
		fmt.Sprintf(" for its tokens (%d bytes each), counts and estimates (16 bytes × (M + N)·K)", bytesPerToken)); err != nil {
		return 0, err
	}
	return int(total), nil
}

// checkDocuments checks, before anything is allocated, the documents to
// fold in, the rows of x (counts over the terms): every entry with count,
// and each document's tokens, which its sampler holds (the one document
// at a time), against MaxTokens (the error naming the entry at which the
// document's counts pass it) and, at 8 bytes a token, engine.CheckNeed.
// A batch may hold more tokens in all.
func checkDocuments(x *sparse.CSR, round bool) error {
	for d := 0; d < x.Rows; d++ {
		idx, val := x.Row(d)
		n, past := int64(0), ""
		for q, w := range idx {
			c, err := count(val[q], round)
			if err != nil {
				return fmt.Errorf("lda: FoldIn: X[%d,%d] = %w", d, w, err)
			}
			if n += int64(c); n > MaxTokens && past == "" {
				past = fmt.Sprintf("X[%d,%d]", d, w)
			}
		}
		if past != "" {
			return fmt.Errorf("lda: FoldIn: document %d of X has %d tokens, more than MaxTokens = %d, the sampler's limit; its counts pass it at %s", d, n, MaxTokens, past)
		}
		if err := engine.CheckNeed(fmt.Sprintf("lda: FoldIn: document %d of X has %d tokens: its sampler needs", d, n),
			bytesPerToken*float64(n), fmt.Sprintf(" for them (%d bytes each)", bytesPerToken)); err != nil {
			return err
		}
	}
	return nil
}

// sampler is the state of the collapsed Gibbs sampler.
type sampler struct {
	set    settings
	m, n   int
	words  []int32 // token i is term words[i] ...
	docPtr []int   // ... tokens docPtr[d]:docPtr[d+1] belong to document d
	z      []int32 // topic of token i
	// Counts as float64 (exact integers): nwk[w*K+k] tokens of term w in
	// topic k, ndk[d*K+k] tokens of document d in topic k, nk[k] tokens in
	// topic k.
	nwk, ndk, nk []float64
	invDen       []float64 // 1/(nk[k] + Mβ), kept current
	cum          []float64 // cumulative weights of one draw
	rng          *rand.Rand
	phiSum       *mat.Dense // Σ over samples of (n_wk+β)/(n_k+Mβ)
	ndkSum       *mat.Dense // Σ over samples of n_dk
	samples      int
}

func newSampler(set settings, dt *sparse.CSR) (*sampler, error) {
	m, n, k := dt.Cols, dt.Rows, set.k
	total, err := corpusTokens(dt, k, set.round)
	if err != nil {
		return nil, err
	}
	s := &sampler{set: set, m: m, n: n, docPtr: make([]int, n+1)}
	s.words = make([]int32, 0, total)
	for d := 0; d < n; d++ {
		idx, val := dt.Row(d)
		for q, w := range idx {
			c, _ := count(val[q], set.round)
			for range c {
				s.words = append(s.words, w)
			}
		}
		s.docPtr[d+1] = len(s.words)
	}
	s.z = make([]int32, len(s.words))
	s.nwk = make([]float64, m*k)
	s.ndk = make([]float64, n*k)
	s.nk = make([]float64, k)
	s.invDen = make([]float64, k)
	s.cum = make([]float64, k)
	s.rng = engine.NewRand(set.seed)
	s.phiSum = mat.NewDense(m, k, nil)
	s.ndkSum = mat.NewDense(n, k, nil)
	// Initial state: every token's topic uniformly at random, in token order.
	for d := 0; d < n; d++ {
		for i := s.docPtr[d]; i < s.docPtr[d+1]; i++ {
			t := int32(s.rng.IntN(k))
			s.z[i] = t
			s.nwk[int(s.words[i])*k+int(t)]++
			s.ndk[d*k+int(t)]++
			s.nk[t]++
		}
	}
	wb := float64(m) * set.beta
	for t := range s.invDen {
		s.invDen[t] = 1 / (s.nk[t] + wb)
	}
	return s, nil
}

// sweep resamples every token once, document by document in token order,
// from the full conditional (Griffiths & Steyvers 2004, Eq. 5)
//
//	P(z_i = k | z_−i, w) ∝ (n_{d,k}^{−i} + α) · (n_{w_i,k}^{−i} + β) / (n_k^{−i} + Mβ),
//
// drawing u = Float64()·Σ and taking the first k whose cumulative weight
// exceeds u.
func (s *sampler) sweep() {
	k := s.set.k
	alpha, beta := s.set.alpha, s.set.beta
	wb := float64(s.m) * beta
	cum := s.cum[:k]
	inv := s.invDen[:k]
	nk := s.nk[:k]
	for d := 0; d < s.n; d++ {
		nd := s.ndk[d*k : d*k+k]
		for i := s.docPtr[d]; i < s.docPtr[d+1]; i++ {
			w := int(s.words[i])
			nw := s.nwk[w*k : w*k+k]
			old := s.z[i]
			nd[old]--
			nw[old]--
			nk[old]--
			inv[old] = 1 / (nk[old] + wb)
			total := 0.0
			for t := range cum {
				total += (nd[t] + alpha) * (nw[t] + beta) * inv[t]
				cum[t] = total
			}
			lo := draw(cum, s.rng.Float64()*total)
			nd[lo]++
			nw[lo]++
			nk[lo]++
			inv[lo] = 1 / (nk[lo] + wb)
			s.z[i] = int32(lo)
		}
	}
}

// termBlock is the number of terms per block of the parallel loops over
// the topic-word counts.
const termBlock = dense.RowBlock

// logPWZ returns log p(w|z) of the current sample (Griffiths & Steyvers
// 2004, Eq. 2):
//
//	log p(w|z) = K·(lnΓ(Mβ) − M·lnΓ(β)) + Σ_k [Σ_w lnΓ(n_wk + β) − lnΓ(n_k + Mβ)],
//
// evaluated as K·lnΓ(Mβ) + Σ_k [Σ_{w: n_wk>0} (lnΓ(n_wk+β) − lnΓ(β)) − lnΓ(n_k+Mβ)]
// (the terms of zero counts cancel), summed with compensation per block of
// terms and over blocks in block order.
func (s *sampler) logPWZ() float64 {
	k, beta := s.set.k, s.set.beta
	lgb := lgamma(beta)
	parts := make([]dense.Sum, parallel.Blocks(s.m, termBlock))
	s.set.pool.For(s.m, termBlock, func(b, lo, hi int) {
		var sum dense.Sum
		for _, c := range s.nwk[lo*k : hi*k] {
			if c > 0 {
				sum.Add(lgamma(c+beta) - lgb)
			}
		}
		parts[b] = sum
	})
	var total dense.Sum
	for _, p := range parts {
		total.AddSum(p)
	}
	wb := float64(s.m) * beta
	for _, c := range s.nk {
		total.Add(lgamma(wb) - lgamma(c+wb))
	}
	return total.Value()
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// accumulate adds the current sample's φ estimate (n_wk+β)/(n_k+Mβ) to
// phiSum and its n_dk to ndkSum.
func (s *sampler) accumulate() {
	k, beta := s.set.k, s.set.beta
	wb := float64(s.m) * beta
	ps, ns := s.phiSum.RawMatrix(), s.ndkSum.RawMatrix()
	s.set.pool.For(s.m, termBlock, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			row := ps.Data[w*ps.Stride : w*ps.Stride+k]
			nw := s.nwk[w*k : w*k+k]
			nw = nw[:len(row)]
			nk := s.nk[:len(row)]
			for t := range row {
				row[t] += (nw[t] + beta) / (nk[t] + wb)
			}
		}
	})
	s.set.pool.For(s.n, dense.RowBlock, func(_, lo, hi int) {
		for d := lo; d < hi; d++ {
			row := ns.Data[d*ns.Stride : d*ns.Stride+k]
			nd := s.ndk[d*k : d*k+k]
			nd = nd[:len(row)]
			for t := range row {
				row[t] += nd[t]
			}
		}
	})
	s.samples++
}

// run samples through the engine's driver: Iters sweeps, −log p(w|z)
// evaluated every EvalEvery sweeps and after the last, and no convergence
// test (RelTol < 0: a Gibbs chain does not converge to a point). A sweep
// updates the counts in place; they are integers, never non-finite, and
// −log p(w|z) of finite counts is finite.
func (s *sampler) run(ctx context.Context, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	stop := engine.Stopping{MaxIter: s.set.iters, RelTol: -1, EvalEvery: s.set.evalEvery}
	st := engine.Iterate(ctx, stop, rec, engine.Steps{
		Step: s.step,
		Objective: func() (float64, []engine.Term) {
			obj := -s.logPWZ()
			return obj, []engine.Term{{Name: TermNegLogPWZ, Value: obj}}
		},
	})
	if s.samples == 0 {
		s.accumulate() // cancelled during burn-in: the current sample
	}
	return s.model(), st, nil
}

// step is sweep t: every token resampled, then, after the burn-in, the
// sample added to the estimates.
func (s *sampler) step(_ context.Context, t int) error {
	s.sweep()
	if t > s.set.burnIn {
		s.accumulate()
	}
	return nil
}

// model turns the averaged samples into φ (M×K) and θ (N×K):
//
//	φ_wk = (1/S) Σ_s (n_wk^s + β)/(n_k^s + Mβ),
//	θ_dk = ((1/S) Σ_s n_dk^s + α)/(n_d + Kα).
func (s *sampler) model() *Model {
	k, alpha := s.set.k, s.set.alpha
	inv := 1 / float64(s.samples)
	phi := s.phiSum
	pr := phi.RawMatrix()
	s.set.pool.For(s.m, termBlock, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			row := pr.Data[w*pr.Stride : w*pr.Stride+k]
			for t := range row {
				row[t] *= inv
			}
		}
	})
	theta := s.ndkSum
	tr := theta.RawMatrix()
	ka := float64(k) * alpha
	s.set.pool.For(s.n, dense.RowBlock, func(_, lo, hi int) {
		for d := lo; d < hi; d++ {
			den := float64(s.docPtr[d+1]-s.docPtr[d]) + ka
			row := tr.Data[d*tr.Stride : d*tr.Stride+k]
			for t := range row {
				row[t] = (row[t]*inv + alpha) / den
			}
		}
	})
	s.phiSum, s.ndkSum = nil, nil
	return &Model{phi: phi, theta: theta, set: s.set}
}

// draw returns the first topic t with cum[t] > u, by binary search over
// the increasing cumulative weights cum (u < cum[len(cum)−1]): the topic
// of one Gibbs draw.
func draw(cum []float64, u float64) int {
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if cum[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
