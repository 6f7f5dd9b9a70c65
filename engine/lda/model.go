package lda

import (
	"context"
	"encoding/binary"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted LDA model. It implements engine.Model.
type Model struct {
	phi, theta *mat.Dense // φ (M×K) and θ (N×K)
	set        settings
}

// TermTopics is φ (M×K), φ_wk = P(w|z=k); every column sums to 1. It is the
// model's own matrix, not a copy.
func (m *Model) TermTopics() *mat.Dense { return m.phi }

// DocTopics is θ (N×K), θ_dk = P(z=k|d); every row sums to 1. It is the
// model's own matrix, not a copy.
func (m *Model) DocTopics() *mat.Dense { return m.theta }

// Hyperparameters returns α and β as used (defaults applied).
func (m *Model) Hyperparameters() (alpha, beta float64) { return m.set.alpha, m.set.beta }

// foldBlock is the number of rows per block of FoldIn.
const foldBlock = 16

// FoldIn returns θ (n×K) for every row q of X (n × M, integer counts over
// the training vocabulary; non-integers are refused unless RoundWeights was
// set; a document's tokens at most MaxTokens and within the memory the
// process may use at 8 bytes each, checkDocuments) by Gibbs sampling the
// document's tokens with φ fixed:
//
//	P(z_i = k | z_−i, q) ∝ (n_{q,k}^{−i} + α) · φ_{w_i,k},
//
// from a uniformly random assignment, for FoldInIters sweeps, θ being the
// average over the sweeps after FoldInBurnIn of (n_{q,k} + α)/(n_q + Kα).
// Each document's sampler is seeded by engine.DeriveSeed(Seed, "lda
// fold-in", the document's non-zeros), so FoldIn is a deterministic
// function of the document, bit-identical for any number of workers and
// any row order. An empty document gets θ = 1/K. A cancelled ctx stops a
// document's sampler between sweeps, and FoldIn returns ctx.Err().
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	nTerms, k := m.phi.Dims()
	err := engine.CheckFoldIn(ctx, "lda", x, nTerms, func(v float64) error {
		_, err := count(v, m.set.round)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := checkDocuments(x, m.set.round); err != nil {
		return nil, err
	}
	return solve.FoldRows(ctx, m.set.pool, x, k, foldBlock, func() solve.RowFolder {
		f := &folder{m: m, k: k}
		return func(_ int, theta []float64, idx []int32, val []float64) { f.fold(ctx, theta, idx, val) }
	})
}

// folder holds the scratch space of one block of FoldIn.
type folder struct {
	m     *Model
	k     int
	words []int32
	z     []int32
	nq    []float64
	acc   []float64
	cum   []float64
	key   []byte
}

// fold writes θ of the document with the given non-zeros into theta. It
// returns early, theta unfinished, when ctx is done (checked before every
// sweep; FoldRows then discards the rows).
func (f *folder) fold(ctx context.Context, theta []float64, idx []int32, val []float64) {
	m, k := f.m, f.k
	alpha := m.set.alpha
	f.key = f.key[:0]
	f.words = f.words[:0]
	for q, w := range idx {
		f.key = binary.LittleEndian.AppendUint32(f.key, uint32(w))
		f.key = binary.LittleEndian.AppendUint64(f.key, math.Float64bits(val[q]))
		c, _ := count(val[q], m.set.round) // validated by FoldIn
		for range c {
			f.words = append(f.words, w)
		}
	}
	n := len(f.words)
	if n == 0 {
		for t := range theta {
			theta[t] = 1 / float64(k)
		}
		return
	}
	rng := engine.NewRand(engine.DeriveSeed(m.set.seed, "lda fold-in", string(f.key)))
	f.z = append(f.z[:0], make([]int32, n)...)
	f.nq = append(f.nq[:0], make([]float64, k)...)
	f.acc = append(f.acc[:0], make([]float64, k)...)
	f.cum = append(f.cum[:0], make([]float64, k)...)
	nq, acc, cum := f.nq, f.acc, f.cum
	for i := range f.z {
		t := int32(rng.IntN(k))
		f.z[i] = t
		nq[t]++
	}
	ph := m.phi.RawMatrix()
	samples := 0
	for sweep := 1; sweep <= m.set.foldIters; sweep++ {
		if ctx.Err() != nil {
			return
		}
		for i, w := range f.words {
			prow := ph.Data[int(w)*ph.Stride : int(w)*ph.Stride+k]
			prow = prow[:len(cum)]
			nq[f.z[i]]--
			total := 0.0
			for t := range cum {
				total += (nq[t] + alpha) * prow[t]
				cum[t] = total
			}
			lo := draw(cum, rng.Float64()*total)
			nq[lo]++
			f.z[i] = int32(lo)
		}
		if sweep > m.set.foldBurn {
			for t := range acc {
				acc[t] += nq[t]
			}
			samples++
		}
	}
	den := float64(n) + float64(k)*alpha
	for t := range theta {
		theta[t] = (acc[t]/float64(samples) + alpha) / den
	}
}
