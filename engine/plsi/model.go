package plsi

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted PLSI model. It implements engine.Model.
type Model struct {
	phi, theta  *mat.Dense // P(w|z) (M×K) and P(z|d) (N×K)
	loglik      float64    // L at (phi, theta)
	active      []bool     // active[w]: some topic generates term w
	foldInIters int
	foldInTol   float64
	pool        *parallel.Pool
	set         settings // the settings of the fit (Save)
}

func (s *solver) model() *Model {
	m, k := s.phi.Dims()
	ph := s.phi.RawMatrix()
	active := make([]bool, m)
	for w := range active {
		for _, v := range ph.Data[w*ph.Stride : w*ph.Stride+k] {
			if v > 0 {
				active[w] = true
				break
			}
		}
	}
	return &Model{phi: s.phi, theta: s.theta, loglik: s.loglik, active: active,
		foldInIters: s.set.foldInIters, foldInTol: s.set.foldInTol, pool: s.set.pool, set: s.set}
}

// TermTopics is P(w|z) (M×K); column z is topic z's distribution over the
// terms and sums to 1. It is the model's own matrix, not a copy.
func (m *Model) TermTopics() *mat.Dense { return m.phi }

// DocTopics is P(z|d) (N×K); row d sums to 1. It is the model's own matrix,
// not a copy.
func (m *Model) DocTopics() *mat.Dense { return m.theta }

// LogLikelihood is L = Σ n(d,w) log P(w|d) of the training corpus at the
// returned parameters (the negative of the last recorded objective).
func (m *Model) LogLikelihood() float64 { return m.loglik }

// foldBlock is the number of rows per block of FoldIn.
const foldBlock = 64

// FoldIn returns P(z|q) (n×K) for every row q of X (n × M, counts over the
// training vocabulary) by the folding-in EM of PLSI Section 4.2 with P(w|z)
// fixed (see the package documentation for the start and stopping rule).
// Entries of X must be finite and non-negative.
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	nTerms, k := m.phi.Dims()
	err := engine.CheckFoldIn(ctx, "plsi", x, nTerms, func(v float64) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%v, want a finite count ≥ 0", v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return solve.FoldRows(ctx, m.pool, x, k, foldBlock, func() solve.RowFolder {
		f := newFolder(m, k)
		return func(_ int, theta []float64, idx []int32, val []float64) { f.fold(ctx, theta, idx, val) }
	})
}

// folder holds the scratch space of one block of FoldIn.
type folder struct {
	m      *Model
	terms  []int
	counts []float64
	pw     []float64
	acc    []float64
}

func newFolder(m *Model, k int) *folder {
	return &folder{m: m, acc: make([]float64, k)}
}

// fold writes P(z|q) for the document with the given non-zeros into theta.
// It checks ctx before every EM iteration and returns early when it is
// cancelled (FoldRows then discards the row).
func (f *folder) fold(ctx context.Context, theta []float64, idx []int32, val []float64) {
	m := f.m
	k := len(theta)
	ph := m.phi.RawMatrix()
	f.terms, f.counts = f.terms[:0], f.counts[:0]
	for q, w := range idx {
		if val[q] > 0 && m.active[w] {
			f.terms = append(f.terms, int(w))
			f.counts = append(f.counts, val[q])
		}
	}
	for z := range theta {
		theta[z] = 1 / float64(k)
	}
	if len(f.terms) == 0 {
		return
	}
	f.pw = append(f.pw[:0], make([]float64, len(f.terms))...)
	prev := math.NaN()
	for it := 0; ; it++ {
		if ctx.Err() != nil {
			return
		}
		ll := 0.0
		for j, w := range f.terms {
			p := termProb(ph, w, theta)
			f.pw[j] = p
			if p > 0 {
				ll += f.counts[j] * math.Log(p)
			}
		}
		if it > 0 && m.foldInTol >= 0 && math.Abs(prev-ll) <= m.foldInTol*math.Max(math.Abs(prev), 1e-300) {
			return
		}
		if it == m.foldInIters {
			return
		}
		prev = ll
		acc := f.acc[:len(theta)]
		clear(acc)
		for j, w := range f.terms {
			if !(f.pw[j] > 0) {
				continue
			}
			r := f.counts[j] / f.pw[j]
			prow := ph.Data[w*ph.Stride : w*ph.Stride+k]
			prow = prow[:len(acc)]
			for z := range acc {
				acc[z] += r * prow[z]
			}
		}
		sum := 0.0
		for z := range acc {
			acc[z] *= theta[z]
			sum += acc[z]
		}
		if !(sum > 0) || math.IsInf(sum, 0) {
			return // nothing to normalize: keep the last P(z|q)
		}
		for z := range theta {
			theta[z] = acc[z] / sum
		}
	}
}
