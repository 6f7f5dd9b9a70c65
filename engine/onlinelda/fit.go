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
	if c == nil || c.DT == nil {
		return nil, engine.Status{}, fmt.Errorf("onlinelda: nil corpus or term-document matrix")
	}
	set, err := o.resolve(c.Terms(), c.Docs())
	if err != nil {
		return nil, engine.Status{}, err
	}
	s := newSolver(set, c.DT)
	st := engine.Iterate(ctx, engine.Stopping{MaxIter: set.passes, EvalEvery: set.evalEvery, RelTol: -1}, rec, engine.Steps{
		Step: s.step, Objective: s.objective, Accept: s.accept, Diagnostics: s.diagnostics,
		Converged: func(_, _ float64) bool { return false },
	})
	m := &Model{lambda: s.lambda, expElogBeta: s.expElogBeta, set: set}
	theta, err := m.FoldIn(context.WithoutCancel(ctx), c.DT)
	if err != nil {
		return nil, engine.Status{}, err
	}
	if r, k, bad := dense.FirstNonFinite(set.pool, theta); bad {
		return nil, st, fmt.Errorf("onlinelda: θ[document %d, topic %d] of the training documents is not finite: counts this large (largest %g) overflow the E-step", r+1, k+1, maxValue(c.DT.Val))
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
	batches, batchesNext            int
	perplexity, perplexityCandidate float64
}

func newSolver(set settings, x *sparse.CSR) *solver {
	w := x.Cols
	s := &solver{set: set, x: x, rnd: engine.NewRand(set.seed),
		lambda: mat.NewDense(w, set.k, nil), lambdaNext: mat.NewDense(w, set.k, nil),
		expElogBeta: mat.NewDense(w, set.k, nil), expElogBetaNext: mat.NewDense(w, set.k, nil),
		sstats: mat.NewDense(w, set.k, nil), batches: 1, perplexity: math.NaN(), perplexityCandidate: math.NaN()}
	raw := s.lambda.RawMatrix().Data
	for i := range raw {
		raw[i] = gammaSample(s.rnd, 100, 0.01)
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
	for lo := 0; lo < n; lo += set.batch {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+set.batch, n)
		g := gamma.Slice(0, hi-lo, 0, set.k).(*mat.Dense)
		for i, raw := 0, g.RawMatrix(); i < hi-lo; i++ {
			for k := range set.k {
				raw.Data[i*raw.Stride+k] = gammaSample(s.rnd, 100, 0.01)
			}
		}
		contrib := eStep(set, s.expElogBetaNext, s.x, lo, hi, g, true)
		s.sstats.Zero()
		for d := lo; d < hi; d++ { // reduced in document order
			ids, _ := s.x.Row(d)
			c := contrib[d-lo]
			for l, w := range ids { // sstats_w += c_l (1·c is exact: the bits of a plain add)
				dense.Axpy(1, c[l*set.k:(l+1)*set.k], s.sstats.RawRowView(int(w)))
			}
		}
		rho := math.Pow(set.tau0+float64(t), -set.kappa)
		ratio := float64(n) / float64(hi-lo)
		blend(set.pool, s.lambdaNext, s.sstats, s.expElogBetaNext, rho, set.eta, ratio)
		expDirichlet(set.pool, s.expElogBetaNext, s.lambdaNext)
		t++
	}
	if r, c, bad := dense.FirstNonFinite(set.pool, s.lambdaNext); bad {
		return engine.NonFinite("λ update", "λ[term %d, topic %d] is not finite", r+1, c+1)
	}
	s.batchesNext = t
	return nil
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
// exp(ψ(λ_wk) − ψ(Σ_v λ_vk)).
func expDirichlet(p *parallel.Pool, dst, lambda *mat.Dense) {
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
			l, d := lambda.RawRowView(i), dst.RawRowView(i)
			for j, v := range l {
				d[j] = math.Exp(digamma(v) - psiSum[j])
			}
		}
	})
}

// eStep fits γ (rows lo..hi-1 of x into rows 0.. of gamma, which hold the
// starting values) with exp(E[log β]) fixed, as scikit-learn's
// _update_doc_distribution. With stats, it returns each document's
// sufficient-statistics contribution exp(E[log θ_dk])·n_dw/φnorm_dw
// (len(ids)×K, word-major) for a reduction in document order.
func eStep(set settings, expElogBeta *mat.Dense, x *sparse.CSR, lo, hi int, gamma *mat.Dense, stats bool) [][]float64 {
	k := set.k
	var contrib [][]float64
	if stats {
		contrib = make([][]float64, hi-lo)
	}
	set.pool.For(hi-lo, docBlock, func(_, blo, bhi int) {
		expTheta := make([]float64, k)
		next := make([]float64, k)
		var norm []float64
		for i := blo; i < bhi; i++ {
			ids, cnts := x.Row(lo + i)
			g := gamma.RawRowView(i)
			expDirichletRow(expTheta, g)
			if cap(norm) < len(ids) {
				norm = make([]float64, len(ids))
			}
			norm = norm[:len(ids)]
			for range set.docs {
				phiNorm(norm, expTheta, expElogBeta, ids)
				clear(next)
				for l, w := range ids { // next += (n_dw/φnorm_dw)·exp(E[log β_w])
					dense.Axpy(cnts[l]/norm[l], expElogBeta.RawRowView(int(w)), next)
				}
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
			if stats {
				phiNorm(norm, expTheta, expElogBeta, ids)
				c := make([]float64, len(ids)*k)
				for l := range ids {
					f := cnts[l] / norm[l]
					for j := range k {
						c[l*k+j] = expTheta[j] * f
					}
				}
				contrib[i] = c
			}
		}
	})
	return contrib
}

// phiNorm sets norm_l = Σ_k exp(E[log θ_k])·exp(E[log β_k,w_l]) + ε.
func phiNorm(norm, expTheta []float64, expElogBeta *mat.Dense, ids []int32) {
	for l, w := range ids {
		s := 0.0
		for j, b := range expElogBeta.RawRowView(int(w))[:len(expTheta)] {
			s += expTheta[j] * b
		}
		norm[l] = s + eps
	}
}

// expDirichletRow sets dst = exp(ψ(γ) − ψ(Σγ)).
func expDirichletRow(dst, gamma []float64) {
	s := 0.0
	for _, v := range gamma {
		s += v
	}
	ps := digamma(s)
	for j, v := range gamma {
		dst[j] = math.Exp(digamma(v) - ps)
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
