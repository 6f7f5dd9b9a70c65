package onlinelda

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

// eps is the guard added to φ's normalizer, numpy's float64 machine ε as
// scikit-learn adds it.
const eps = 2.220446049250313e-16

// docBlock is the number of documents per parallel block of an E-step:
// fixed, so that results do not depend on the worker count.
const docBlock = 8

// TermNegBound is the recorded objective: the negative evidence lower bound
// of the training corpus (scikit-learn's −_approx_bound).
const TermNegBound = "-bound"

// DiagPerplexity is the training perplexity exp(−bound / word count),
// recorded on evaluated passes.
const DiagPerplexity = "perplexity"

// Fit learns λ from the corpus (rows of DT are the documents' counts).
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, set, err := engine.Prepare(c, "onlinelda", o.resolve)
	if err == nil {
		err = c.CheckNonNegative("onlinelda")
	}
	if err != nil {
		return nil, engine.Status{}, err
	}
	s := newSolver(set, dt)
	st := engine.Iterate(ctx, engine.Stopping{MaxIter: set.passes, EvalEvery: set.evalEvery, RelTol: -1}, rec, engine.Steps{
		Step: s.step, Objective: s.objective, Accept: s.accept, Diagnostics: s.diagnostics,
		Converged: func(_, _ float64) bool { return false },
	})
	m := &Model{lambda: s.lambda, expElogBeta: s.expElogBeta, set: set}
	theta, err := m.FoldIn(context.WithoutCancel(ctx), dt)
	if err != nil {
		return nil, engine.Status{}, err
	}
	if r, k, bad := dense.FirstNonFinite(set.pool, theta); bad {
		return nil, st, fmt.Errorf("onlinelda: θ[document %d, topic %d] of the training documents is not finite: counts this large (largest %g) overflow the E-step", r+1, k+1, maxValue(dt.Val))
	}
	m.theta = theta
	return m, st, nil
}

// solver is the state of one fit: λ and exp(E[log β]) (W×K), current and
// candidate, and the minibatch counter t.
type solver struct {
	set                             settings
	x                               *sparse.CSR
	rnd                             *rand.Rand
	lambda, lambdaNext              *mat.Dense
	expElogBeta, expElogBetaNext    *mat.Dense
	sstats                          *mat.Dense
	stats                           batchStats
	byTerm                          termMajor
	batches, batchesNext            int
	perplexity, perplexityCandidate float64
}

func newSolver(set settings, x *sparse.CSR) *solver {
	w := x.Cols
	s := &solver{set: set, x: x, rnd: engine.NewRand(set.seed),
		lambda: mat.NewDense(w, set.k, nil), lambdaNext: mat.NewDense(w, set.k, nil),
		expElogBeta: mat.NewDense(w, set.k, nil), expElogBetaNext: mat.NewDense(w, set.k, nil),
		sstats: mat.NewDense(w, set.k, nil), stats: batchStats{expTheta: mat.NewDense(min(set.batch, x.Rows), set.k, nil)}, batches: 1, perplexity: math.NaN(), perplexityCandidate: math.NaN()}
	raw := s.lambda.RawMatrix().Data
	for i := range raw {
		raw[i] = engine.Gamma(s.rnd, 100) * 0.01
	}
	expDirichlet(set.pool, s.expElogBeta, s.lambda)
	return s
}

// step makes one pass over the documents in minibatches (doc.go) into the
// candidate λ.
func (s *solver) step(ctx context.Context, _ int) error {
	set, n := s.set, s.x.Rows
	s.lambdaNext.Copy(s.lambda)
	s.expElogBetaNext.Copy(s.expElogBeta)
	t := s.batches
	gamma := mat.NewDense(min(set.batch, n), set.k, nil)
	s.byTerm.build(s.x, 0, min(set.batch, n))
	for lo := 0; lo < n; lo += set.batch {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+set.batch, n)
		g := gamma.Slice(0, hi-lo, 0, set.k).(*mat.Dense)
		for i, raw := 0, g.RawMatrix(); i < hi-lo; i++ {
			for k := range set.k {
				raw.Data[i*raw.Stride+k] = engine.Gamma(s.rnd, 100) * 0.01
			}
		}
		eStep(set, s.expElogBetaNext, s.x, lo, hi, g, &s.stats)
		s.reduce(lo, hi)
		rho := math.Pow(set.tau0+float64(t), -set.kappa)
		ratio := float64(n) / float64(hi-lo)
		// Rows of terms outside the minibatch have sstats 0, so blend does
		// not read their exp(E[log β]) (0·e = 0 for any finite e): only
		// the rows the next minibatch reads are brought up to date, all of
		// them after the last.
		blend(set.pool, s.lambdaNext, s.sstats, s.expElogBetaNext, rho, set.eta, ratio)
		var next []int
		if hi < n {
			s.byTerm.build(s.x, hi, min(hi+set.batch, n))
			next = s.byTerm.ptr
		}
		expDirichletRows(set.pool, s.expElogBetaNext, s.lambdaNext, next)
		t++
	}
	if err := engine.CheckFinite(set.pool, s.lambdaNext, "λ update", "λ"); err != nil {
		return err
	}
	s.batchesNext = t
	return nil
}

// reduce sets sstats_w = Σ_{d∈B} n_dw/φnorm_dw · exp(E[log θ_d]) for every
// term w from the E-step's statistics of documents lo..hi−1 (s.byTerm holds
// their entries by term), adding the
// documents of each term in document order: the sum is the same for any
// number of workers, term rows being independent.
func (s *solver) reduce(lo, hi int) {
	t, base := &s.byTerm, s.x.RowPtr[lo]
	s.set.pool.For(s.x.Cols, dense.RowBlock, func(_, wlo, whi int) {
		for w := wlo; w < whi; w++ {
			row := s.sstats.RawRowView(w)
			clear(row)
			for i := t.ptr[w]; i < t.ptr[w+1]; i++ {
				dense.Axpy(s.stats.scale[t.pos[i]-base], s.stats.expTheta.RawRowView(t.doc[i]), row)
			}
		}
	})
}

// termMajor lists the entries of a minibatch of documents by term: term w's
// entries are ptr[w] ≤ i < ptr[w+1], each with its document (row of the
// minibatch) doc[i] and its index pos[i] into the CSR's Val, in document
// order. It is the minibatch's transpose without the values.
type termMajor struct {
	ptr, next, doc, pos []int
}

// build fills t for documents lo..hi−1 of x (a counting sort by term).
func (t *termMajor) build(x *sparse.CSR, lo, hi int) {
	w, first, last := x.Cols, x.RowPtr[lo], x.RowPtr[hi]
	t.ptr = resize(t.ptr, w+1)
	t.next = resize(t.next, w)
	t.doc = resize(t.doc, last-first)
	t.pos = resize(t.pos, last-first)
	clear(t.ptr)
	for _, c := range x.ColIdx[first:last] {
		t.ptr[c+1]++
	}
	for i := range w {
		t.ptr[i+1] += t.ptr[i]
	}
	copy(t.next, t.ptr[:w])
	for d := lo; d < hi; d++ {
		for q := x.RowPtr[d]; q < x.RowPtr[d+1]; q++ {
			c := x.ColIdx[q]
			i := t.next[c]
			t.next[c]++
			t.doc[i], t.pos[i] = d-lo, q
		}
	}
}

func resizeFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func resize(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// blend sets λ ← (1−ρ)λ + ρ(η + ratio·sstats∘exp(E[log β])): the M-step of
// one minibatch, scikit-learn's _em_step with its E-step's final product.
func blend(p *parallel.Pool, lambda, sstats, expElogBeta *mat.Dense, rho, eta, ratio float64) {
	w, k := lambda.Dims()
	p.For(w, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			l, st, e := lambda.RawRowView(i), sstats.RawRowView(i)[:k], expElogBeta.RawRowView(i)[:k]
			for j := range l[:k] {
				l[j] = (1-rho)*l[j] + rho*(eta+ratio*st[j]*e[j])
			}
		}
	})
}

// expDirichlet sets dst = exp(E[log β]) for λ (W×K, topics in columns):
// exp(ψ(λ_wk) − ψ(Σ_v λ_vk)) (expPsiMinus).
func expDirichlet(p *parallel.Pool, dst, lambda *mat.Dense) { expDirichletRows(p, dst, lambda, nil) }

// expDirichletRows is expDirichlet for the rows w with ptr[w] < ptr[w+1]
// only (the terms of a minibatch, termMajor.ptr), every row when ptr is nil;
// the column sums are always those of all of λ.
func expDirichletRows(p *parallel.Pool, dst, lambda *mat.Dense, ptr []int) {
	w, k := lambda.Dims()
	sums := make([]float64, k)
	for i := range w {
		for j, v := range lambda.RawRowView(i) {
			sums[j] += v
		}
	}
	psiSum := make([]float64, k)
	for j, v := range sums {
		psiSum[j] = digamma(v)
	}
	p.For(w, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if ptr != nil && ptr[i] == ptr[i+1] {
				continue
			}
			l, d := lambda.RawRowView(i), dst.RawRowView(i)[:k]
			j := 0
			for ; j+4 <= k; j += 4 {
				d[j], d[j+1], d[j+2], d[j+3] = expPsiMinus4(l[j], l[j+1], l[j+2], l[j+3], psiSum[j], psiSum[j+1], psiSum[j+2], psiSum[j+3])
			}
			for ; j < k; j++ {
				d[j] = expPsiMinus(l[j], psiSum[j])
			}
		}
	})
}

// batchStats holds what an E-step leaves for the M-step's sufficient
// statistics: exp(E[log θ_d]) of each document of the minibatch (a row of
// expTheta) and, for each stored count n_dw of the minibatch (indexed from
// its first document's first entry), n_dw/φnorm_dw. Then
// sstats_w = Σ_d scale_dw·exp(E[log θ_d]) (solver.reduce), without keeping
// the len(ids)×K products of every document.
type batchStats struct {
	expTheta *mat.Dense
	scale    []float64
}

// eStep fits γ (rows lo..hi-1 of x into rows 0.. of gamma, which hold the
// starting values) with exp(E[log β]) fixed, as scikit-learn's
// _update_doc_distribution. With stats non-nil, it leaves each document's
// final exp(E[log θ_d]) and n_dw/φnorm_dw in stats for the reduction.
func eStep(set settings, expElogBeta *mat.Dense, x *sparse.CSR, lo, hi int, gamma *mat.Dense, stats *batchStats) {
	k := set.k
	base := x.RowPtr[lo]
	if stats != nil {
		stats.scale = resizeFloats(stats.scale, x.RowPtr[hi]-base)
	}
	set.pool.For(hi-lo, docBlock, func(_, blo, bhi int) {
		expTheta := make([]float64, k)
		next := make([]float64, k)
		var norm, ratio, betaT []float64
		for i := blo; i < bhi; i++ {
			ids, cnts := x.Row(lo + i)
			g := gamma.RawRowView(i)
			if stats != nil {
				expTheta = stats.expTheta.RawRowView(i)
			}
			expDirichletRow(expTheta, g)
			norm = resizeFloats(norm, len(ids))
			ratio = resizeFloats(ratio, len(ids))
			betaT = gatherColumns(betaT, expElogBeta, ids)
			for range set.docs {
				phiNorm(norm, expTheta, betaT)
				for l := range ids {
					ratio[l] = cnts[l] / norm[l]
				}
				// next = Σ_w (n_dw/φnorm_dw)·exp(E[log β_w])
				clear(next)
				addScaled(next, ratio, func(l int) []float64 { return expElogBeta.RawRowView(int(ids[l])) })
				change := 0.0
				for j := range next {
					v := set.alpha + expTheta[j]*next[j]
					change += math.Abs(v - g[j])
					g[j] = v
				}
				expDirichletRow(expTheta, g)
				if change/float64(k) < set.tol {
					break
				}
			}
			if stats != nil {
				phiNorm(norm, expTheta, betaT)
				off := x.RowPtr[lo+i] - base
				for l := range ids {
					stats.scale[off+l] = cnts[l] / norm[l]
				}
			}
		}
	})
}

// gatherColumns returns exp(E[log β]) of a document's terms ids transposed,
// K rows of len(ids) (row k holds exp(E[log β_k,w]) for w in ids), in dst's
// storage when it is large enough: the layout in which phiNorm's sums over
// topics are vector operations over the document's terms. Gathered once per
// document and read in each of its E-step iterations; its K·len(ids) floats
// are one buffer per parallel block, reused from document to document.
func gatherColumns(dst []float64, expElogBeta *mat.Dense, ids []int32) []float64 {
	_, k := expElogBeta.Dims()
	n := len(ids)
	dst = resizeFloats(dst, k*n)
	// Eight terms at a time, so that each topic's eight values are one
	// contiguous write rather than eight writes a row apart.
	l := 0
	for ; l+8 <= n; l += 8 {
		var rows [8][]float64
		for q := range rows {
			rows[q] = expElogBeta.RawRowView(int(ids[l+q]))[:k]
		}
		for j := range k {
			out := dst[j*n+l : j*n+l+8]
			out[0], out[1], out[2], out[3] = rows[0][j], rows[1][j], rows[2][j], rows[3][j]
			out[4], out[5], out[6], out[7] = rows[4][j], rows[5][j], rows[6][j], rows[7][j]
		}
	}
	for ; l < n; l++ {
		for j, b := range expElogBeta.RawRowView(int(ids[l]))[:k] {
			dst[j*n+l] = b
		}
	}
	return dst
}

// phiNorm sets norm_l = Σ_k exp(E[log θ_k])·exp(E[log β_k,w_l]) + ε for the
// document's terms w_l from betaT (gatherColumns): vector operations over
// the document's terms, eight topics at a time (addScaled).
func phiNorm(norm, expTheta, betaT []float64) {
	n := len(norm)
	clear(norm)
	addScaled(norm, expTheta, func(j int) []float64 { return betaT[j*n : (j+1)*n] })
	for l := range norm {
		norm[l] += eps
	}
}

// addScaled sets y += Σ_i a_i·x(i), the x(i) having at least len(y)
// entries: eight terms at a time (dense.Axpy8, whose AVX2 kernel reads and
// writes y once per eight terms), then four (Axpy4), then one (Axpy), each
// with its fixed order of adds, so the result depends on len(a) only.
func addScaled(y, a []float64, x func(i int) []float64) {
	i := 0
	var xs [8][]float64
	for ; i+8 <= len(a); i += 8 {
		for q := range xs {
			xs[q] = x(i + q)
		}
		dense.Axpy8(y, (*[8]float64)(a[i:i+8]), &xs)
	}
	for ; i+4 <= len(a); i += 4 {
		dense.Axpy4(y, a[i], a[i+1], a[i+2], a[i+3], x(i), x(i+1), x(i+2), x(i+3))
	}
	for ; i < len(a); i++ {
		dense.Axpy(a[i], x(i), y)
	}
}

// expDirichletRow sets dst = exp(ψ(γ) − ψ(Σγ)) (expPsiMinus).
func expDirichletRow(dst, gamma []float64) {
	s := 0.0
	for _, v := range gamma {
		s += v
	}
	ps := digamma(s)
	dst = dst[:len(gamma)]
	j := 0
	for ; j+4 <= len(gamma); j += 4 {
		dst[j], dst[j+1], dst[j+2], dst[j+3] = expPsiMinus4(gamma[j], gamma[j+1], gamma[j+2], gamma[j+3], ps, ps, ps, ps)
	}
	for ; j < len(gamma); j++ {
		dst[j] = expPsiMinus(gamma[j], ps)
	}
}

// objective is the negative evidence lower bound of the training corpus at
// the candidate λ, with γ from a transform (starting at 1).
func (s *solver) objective() (float64, []engine.Term) {
	bound, words := boundOf(s.set, s.lambdaNext, s.expElogBetaNext, s.x)
	s.perplexityCandidate = math.Exp(-bound / words)
	return -bound, []engine.Term{{Name: TermNegBound, Value: -bound}}
}

func (s *solver) accept() {
	s.lambda, s.lambdaNext = s.lambdaNext, s.lambda
	s.expElogBeta, s.expElogBetaNext = s.expElogBetaNext, s.expElogBeta
	s.batches = s.batchesNext
	s.perplexity, s.perplexityCandidate = s.perplexityCandidate, math.NaN()
}

func (s *solver) diagnostics() []engine.Term {
	if math.IsNaN(s.perplexity) {
		return nil
	}
	p := s.perplexity
	s.perplexity = math.NaN()
	return []engine.Term{{Name: DiagPerplexity, Value: p}}
}

func maxValue(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}
