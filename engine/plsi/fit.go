package plsi

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective term and factors.
const (
	// TermNegLogLik is −L = −Σ_{d,w} n(d,w) log P(w|d), the whole objective.
	TermNegLogLik = "-loglik"
	// SparsityU is the fraction of zeros of P(w|z) (TermTopics).
	SparsityU = "U"
	// SparsityV is the fraction of zeros of P(z|d) (DocTopics).
	SparsityV = "V"
)

// docBlock is the number of documents per block of the E-step; a constant
// so that block boundaries never depend on the number of workers.
const docBlock = sparse.RowBlock

// Fit runs EM (PLSI Section 3.2) on the corpus from a random start through
// engine.Iterate, recording after every iteration the wall time, the
// fraction of exact zeros of P(w|z) and P(z|d) and (when evaluated) the
// negative log-likelihood of the new parameters. It stops at Stopping's
// iteration limit or relative-change tolerance, on cancellation or when a
// step produces NaN/Inf or a zero probability of an observed pair (Status
// NumericalFailure naming the step), returning the last accepted
// parameters. A corpus with no positive count, or whose log-likelihood at
// the start overflows float64, is an error.
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, set, err := engine.Prepare(c, "plsi", o.resolve)
	if err != nil {
		return nil, engine.Status{}, err
	}
	for q, v := range dt.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			d, w := dt.Locate(q)
			return nil, engine.Status{}, fmt.Errorf("plsi: D[%d,%d] = %v, want a finite count ≥ 0", w, d, v)
		}
	}
	s := newSolver(set, c.D, dt)
	s.init(engine.NewRand(set.seed))
	return s.run(ctx, rec)
}

// solver holds the state of one EM run.
type solver struct {
	set      settings
	d, dt    *sparse.CSR
	rd, rdt  *sparse.CSR // the patterns of D and Dᵀ with values r(d,w)
	perm     []int       // perm[q]: position in D of the q-th non-zero of Dᵀ
	theta    *mat.Dense  // P(z|d), N×K
	phi      *mat.Dense  // P(w|z), M×K
	thNext   *mat.Dense  // next P(z|d); before normalization R_DT·Φ
	phNext   *mat.Dense  // next P(w|z); before normalization R_D·Θ
	pwd      []float64   // P(w|d) on the non-zeros of Dᵀ, for (theta, phi) or, after a step, the candidate
	loglik   float64     // L at (theta, phi)
	llNext   float64     // L at the candidate (thNext, phNext)
	colParts [][]float64 // per term block, the column sums of phNext
}

func newSolver(set settings, d, dt *sparse.CSR) *solver {
	m, n, k := d.Rows, d.Cols, set.k
	s := &solver{set: set, d: d, dt: dt,
		rd:     &sparse.CSR{Rows: d.Rows, Cols: d.Cols, RowPtr: d.RowPtr, ColIdx: d.ColIdx, Val: make([]float64, d.NNZ())},
		rdt:    &sparse.CSR{Rows: dt.Rows, Cols: dt.Cols, RowPtr: dt.RowPtr, ColIdx: dt.ColIdx, Val: make([]float64, dt.NNZ())},
		perm:   transposePerm(dt),
		theta:  mat.NewDense(n, k, nil),
		phi:    mat.NewDense(m, k, nil),
		thNext: mat.NewDense(n, k, nil),
		phNext: mat.NewDense(m, k, nil),
		pwd:    make([]float64, dt.NNZ()),
	}
	s.colParts = make([][]float64, parallel.Blocks(m, dense.RowBlock))
	for b := range s.colParts {
		s.colParts[b] = make([]float64, k)
	}
	return s
}

// transposePerm maps every non-zero of Dᵀ (row d, column w) to its position
// in D = (Dᵀ)ᵀ stored row by row: walking the documents in increasing order
// visits each term's entries in D's (increasing-document) order.
func transposePerm(dt *sparse.CSR) []int {
	next := make([]int, dt.Cols+1)
	for _, w := range dt.ColIdx {
		next[w+1]++
	}
	for w := 0; w < dt.Cols; w++ {
		next[w+1] += next[w]
	}
	perm := make([]int, dt.NNZ())
	for q, w := range dt.ColIdx {
		perm[q] = next[w]
		next[w]++
	}
	return perm
}

// init draws Θ then Φ with Uniform(0, 1] entries and normalizes the rows of
// Θ and the columns of Φ.
func (s *solver) init(rng interface{ Float64() float64 }) {
	n, k := s.theta.Dims()
	th := s.theta.RawMatrix()
	for d := 0; d < n; d++ {
		row := th.Data[d*th.Stride : d*th.Stride+k]
		sum := 0.0
		for z := range row {
			row[z] = 1 - rng.Float64()
			sum += row[z]
		}
		for z := range row {
			row[z] /= sum
		}
	}
	m, _ := s.phi.Dims()
	ph := s.phi.RawMatrix()
	col := make([]float64, k)
	for w := 0; w < m; w++ {
		row := ph.Data[w*ph.Stride : w*ph.Stride+k]
		for z := range row {
			row[z] = 1 - rng.Float64()
			col[z] += row[z]
		}
	}
	for w := 0; w < m; w++ {
		row := ph.Data[w*ph.Stride : w*ph.Stride+k]
		for z := range row {
			row[z] /= col[z]
		}
	}
}

// run evaluates the initial E-step, then iterates through the engine's
// driver until the stopping rule, a cancellation or a failure. An initial
// E-step that fails (an observed pair with P(w|d) = 0, or a log-likelihood
// that overflows) is an error: there is no finite objective to start from.
func (s *solver) run(ctx context.Context, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	ll, fail := s.estep(s.theta, s.phi)
	if fail != "" {
		return nil, engine.Status{}, fmt.Errorf("plsi: initialization: initial E-step: %s", fail)
	}
	s.loglik = ll
	st := engine.Iterate(ctx, s.set.stop, rec, engine.Steps{
		Step:      s.step,
		Objective: s.objective,
		Accept:    s.accept,
		Sparsity:  s.sparsity,
	})
	return s.model(), st, nil
}

// step is one EM iteration into the candidate: the M-step from (theta, phi)
// and the E-step at the new parameters (thNext, phNext), which the next
// M-step needs and which gives the candidate's log-likelihood.
func (s *solver) step(_ context.Context, _ int) error {
	if f := s.mstep(); f != "" {
		return engine.NonFinite("M-step", "%s", f)
	}
	ll, f := s.estep(s.thNext, s.phNext)
	if f != "" {
		return engine.NonFinite("E-step", "%s", f)
	}
	s.llNext = ll
	return nil
}

// objective is −L at the candidate, the whole objective.
func (s *solver) objective() (float64, []engine.Term) {
	return -s.llNext, []engine.Term{{Name: TermNegLogLik, Value: -s.llNext}}
}

// accept makes the candidate current.
func (s *solver) accept() {
	s.theta, s.thNext = s.thNext, s.theta
	s.phi, s.phNext = s.phNext, s.phi
	s.loglik = s.llNext
}

// sparsity is the fraction of zeros of P(w|z) and P(z|d).
func (s *solver) sparsity() []engine.Term {
	p := s.set.pool
	return []engine.Term{{Name: SparsityU, Value: dense.ZeroFraction(p, s.phi)}, {Name: SparsityV, Value: dense.ZeroFraction(p, s.theta)}}
}

// termProb is P(w|d) = Σ_z P(w|z)P(z|d) for the term w (a row of ph, the
// raw P(w|z)) and the document's P(z|d), theta.
func termProb(ph blas64.General, w int, theta []float64) float64 {
	prow := ph.Data[w*ph.Stride : w*ph.Stride+len(theta)]
	p := 0.0
	for z, t := range theta {
		p += prow[z] * t
	}
	return p
}

// estep sets pwd to P(w|d) = Σ_z P(w|z)P(z|d) on every non-zero of Dᵀ for
// the given parameters and returns L = Σ n(d,w) log P(w|d), summed with
// compensation per block of documents and over blocks in block order. It
// returns a description of the first failure (a zero or non-finite P(w|d)
// where n(d,w) > 0, or a non-finite L) instead, if any.
func (s *solver) estep(theta, phi *mat.Dense) (float64, string) {
	_, k := theta.Dims()
	th, ph := theta.RawMatrix(), phi.RawMatrix()
	dt := s.dt
	nb := parallel.Blocks(dt.Rows, docBlock)
	parts := make([]dense.Sum, nb)
	fails := make([]int, nb)
	s.set.pool.For(dt.Rows, docBlock, func(b, lo, hi int) {
		var sum dense.Sum
		fails[b] = -1
		for d := lo; d < hi; d++ {
			trow := th.Data[d*th.Stride : d*th.Stride+k]
			for q := dt.RowPtr[d]; q < dt.RowPtr[d+1]; q++ {
				p := termProb(ph, int(dt.ColIdx[q]), trow)
				s.pwd[q] = p
				if n := dt.Val[q]; n > 0 {
					if !(p > 0) || math.IsInf(p, 0) {
						if fails[b] < 0 {
							fails[b] = q
						}
						continue
					}
					sum.Add(n * math.Log(p))
				}
			}
		}
		parts[b] = sum
	})
	var total dense.Sum
	for b, p := range parts {
		if q := fails[b]; q >= 0 {
			d, w := dt.Locate(q)
			return 0, fmt.Sprintf("P(w|d) = %v for term %d in document %d (count %v)", s.pwd[q], w, d, dt.Val[q])
		}
		total.AddSum(p)
	}
	ll := total.Value()
	if math.IsNaN(ll) || math.IsInf(ll, 0) {
		return 0, fmt.Sprintf("log-likelihood %v (Σ n(d,w) log P(w|d) overflows float64: the counts are too large)", ll)
	}
	return ll, ""
}

// mstep computes the next P(z|d) into thNext and the next P(w|z) into
// phNext from (theta, phi) and pwd (the E-step at (theta, phi)).
func (s *solver) mstep() string {
	p := s.set.pool
	dt := s.dt
	p.For(dt.Rows, docBlock, func(_, lo, hi int) {
		for q := dt.RowPtr[lo]; q < dt.RowPtr[hi]; q++ {
			r := 0.0
			if n := dt.Val[q]; n > 0 {
				r = n / s.pwd[q]
			}
			s.rdt.Val[q] = r
			s.rd.Val[s.perm[q]] = r
		}
	})
	sparse.MulDense(p, s.thNext, s.rdt, s.phi)  // Σ_w r(d,w) P(w|z)
	sparse.MulDense(p, s.phNext, s.rd, s.theta) // Σ_d r(d,w) P(z|d)

	// P(z|d) ∝ P(z|d)·(R_DT Φ)[d,z], normalized over z.
	n, k := s.theta.Dims()
	th, tn := s.theta.RawMatrix(), s.thNext.RawMatrix()
	p.For(n, dense.RowBlock, func(_, lo, hi int) {
		for d := lo; d < hi; d++ {
			old := th.Data[d*th.Stride : d*th.Stride+k]
			row := tn.Data[d*tn.Stride : d*tn.Stride+k]
			row = row[:len(old)]
			sum := 0.0
			for z, t := range old {
				row[z] *= t
				sum += row[z]
			}
			if !(sum > 0) {
				// n(d) = 0 (or nothing left to normalize): keep P(z|d).
				copy(row, old)
				continue
			}
			for z := range row {
				row[z] /= sum
			}
		}
	})
	if r, c, bad := dense.FirstNonFinite(p, s.thNext); bad {
		return fmt.Sprintf("P(z|d)[%d,%d] = %v", r, c, s.thNext.At(r, c))
	}

	// P(w|z) ∝ P(w|z)·(R_D Θ)[w,z], normalized over w.
	m, _ := s.phi.Dims()
	ph, pn := s.phi.RawMatrix(), s.phNext.RawMatrix()
	p.For(m, dense.RowBlock, func(b, lo, hi int) {
		col := s.colParts[b]
		clear(col)
		for w := lo; w < hi; w++ {
			old := ph.Data[w*ph.Stride : w*ph.Stride+k]
			row := pn.Data[w*pn.Stride : w*pn.Stride+k]
			row = row[:len(old)]
			col = col[:len(old)]
			for z, f := range old {
				row[z] *= f
				col[z] += row[z]
			}
		}
	})
	norm := make([]dense.Sum, k)
	for _, col := range s.colParts {
		for z, v := range col {
			norm[z].Add(v)
		}
	}
	c := make([]float64, k)
	for z := range c {
		c[z] = norm[z].Value()
		if !(c[z] > 0) || math.IsInf(c[z], 0) {
			return fmt.Sprintf("topic %d has total mass %v", z, c[z])
		}
	}
	p.For(m, dense.RowBlock, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			row := pn.Data[w*pn.Stride : w*pn.Stride+k]
			row = row[:len(c)]
			for z, cz := range c {
				row[z] /= cz
			}
		}
	})
	if r, c, bad := dense.FirstNonFinite(p, s.phNext); bad {
		return fmt.Sprintf("P(w|z)[%d,%d] = %v", r, c, s.phNext.At(r, c))
	}
	return ""
}
