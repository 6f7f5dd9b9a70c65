package tnmf

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/buildcache"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/symmetric"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective term and factor.
const (
	TermLoss  = "|S-UU^T|_F^2" // L(U) of Eq. 3.1
	SparsityU = "U"
)

// Fit runs Algorithm 1 on the corpus: S from D (Section 3.1), U⁽⁰⁾ random
// (or InitU), U ← max(S·U·(UᵀU)⁻¹, 0) (Eq. 4.5) until Stopping ends it,
// recording the time and the fraction of zeros of U after every iteration
// and L(U) = ‖S − UUᵀ‖²_F after every evaluated one (Stopping.EvalEvery);
// then V by the chosen inference over all
// documents. The time to build S is not part of iteration 1 (see
// Model.BuildSeconds). The U iterations run through engine.Iterate. A
// cancelled context gives Status Cancelled with the last complete U and no
// V inference (V = 0) if cancelled before it; a NaN/Inf gives
// NumericalFailure naming the step, with the last finite U and V = 0; a
// non-finite U⁽⁰⁾ is an error.
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, err := c.Transposed("tnmf")
	if err != nil {
		return nil, engine.Status{}, err
	}
	set, err := o.resolve(c.D.Rows)
	if err != nil {
		return nil, engine.Status{}, err
	}
	start := time.Now()
	corr, err := sharedCorrelation(set.pool, c.D, dt, set.count, set.storage)
	if err != nil {
		return nil, engine.Status{}, err
	}
	m := &Model{set: set, corr: corr, buildSeconds: time.Since(start).Seconds()}
	st, err := m.learnU(ctx, rec)
	if err != nil {
		return nil, engine.Status{}, err
	}
	m.finish()
	if st.Reason == engine.Cancelled || st.Reason == engine.NumericalFailure {
		m.v = zeroV(dt.Rows, set.k)
		return m, st, nil
	}
	v, err := m.infer(ctx, dt)
	if err != nil {
		st.Reason = engine.Cancelled
		m.v = zeroV(dt.Rows, set.k)
		return m, st, nil
	}
	if r, col, bad := dense.FirstNonFinite(set.pool, v); bad {
		// U is the last finite iterate; V has no finite value to keep.
		st.Reason, st.Detail = engine.NumericalFailure, fmt.Sprintf("inference %s: V[%d,%d] (document %d, topic %d) = %v is not finite", set.inference, col, r, r, col, v.At(r, col))
		v = zeroV(dt.Rows, set.k)
	}
	m.v = v
	return m, st, nil
}

// lastCorrelation is the term correlation of the last corpus and
// settings a Fit built one for: the fits of a sweep over K or seeds on one
// corpus share it (engine/internal/buildcache; the key is the corpus's
// content).
var lastCorrelation buildcache.Last[*Correlation]

// sharedCorrelation is TermCorrelation(p, d, dt, mode, storage), built once
// for consecutive fits on equal inputs. The result is shared: never modify
// it.
func sharedCorrelation(p *parallel.Pool, d, dt *sparse.CSR, mode CountMode, storage symmetric.Storage) (*Correlation, error) {
	dtKey := buildcache.KeyOf(dt)
	key := buildcache.KeyOf(d, "tnmf.TermCorrelation", "count="+mode.String(), "storage="+storage.String(), "dt="+hex.EncodeToString(dtKey[:]))
	return lastCorrelation.Get(key, func() (*Correlation, error) { return TermCorrelation(p, d, dt, mode, storage) }, correlationBytes)
}

// correlationBytes is the memory of c's matrices (S: 8·M² bytes dense,
// its arrays sparse).
func correlationBytes(c *Correlation) int64 {
	if c == nil {
		return 0
	}
	s := buildcache.CSRBytes(c.S.Sparse())
	if c.S.IsDense() {
		s = 8 * int64(c.S.Size()) * int64(c.S.Size())
	}
	return buildcache.CSRBytes(c.CoOccurrence) + buildcache.CSRBytes(c.PPMI) + s
}

// initU returns U⁽⁰⁾: InitU copied, or Uniform[0, 2·sqrt(s̄/K)) entries
// drawn row by row from engine.NewRand(seed), s̄ = ΣS_ij / M².
func initU(set settings, s *symmetric.Matrix, normSum float64) *mat.Dense {
	m := s.Size()
	u := mat.NewDense(m, set.k, nil)
	if set.initU != nil {
		u.Copy(set.initU)
		return u
	}
	mean := 0.0
	if m > 0 {
		mean = normSum / (float64(m) * float64(m))
	}
	scale := 2 * math.Sqrt(mean/float64(set.k))
	if scale == 0 || math.IsNaN(scale) {
		scale = 1
	}
	r := engine.NewRand(set.seed)
	raw := u.RawMatrix()
	for i := 0; i < m; i++ {
		for j := 0; j < set.k; j++ {
			raw.Data[i*raw.Stride+j] = scale * r.Float64()
		}
	}
	return u
}

// learnU runs the U iterations of Algorithm 1 through engine.Iterate. The
// stopping test's first comparison is against L(U⁽⁰⁾), as the algorithm
// evaluates the start; a fit that accepts no iteration reports L(U⁽⁰⁾).
func (m *Model) learnU(ctx context.Context, rec *engine.Recorder) (engine.Status, error) {
	set, s := m.set, m.corr.S
	p, k, n := set.pool, set.k, s.Size()
	m.normS2 = s.FrobeniusSq(p)
	u := initU(set, s, s.Sum(p, rowBlock))
	if err := solve.FiniteStart(p, []string{"U"}, u); err != nil {
		return engine.Status{}, fmt.Errorf("tnmf: initialization: %w", err)
	}
	su, g := mat.NewDense(n, k, nil), mat.NewDense(k, k, nil)
	s.MulDense(p, su, u)
	dense.Gram(p, g, u)
	un, sun, gn := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil), mat.NewDense(k, k, nil)
	start := symmetric.Objective(p, m.normS2, u, su, g)

	// The candidate is (un, sun, gn); (u, su, g) stay until accepted.
	step := func(context.Context, int) error {
		pseudo, err := Step(p, un, su, g)
		if err != nil {
			return engine.NonFinite("Eq. 4.5", "%v", err)
		}
		if pseudo {
			m.pseudoSteps++
		}
		if err := engine.CheckFinite(p, un, "Eq. 4.5", "U"); err != nil {
			return err
		}
		s.MulDense(p, sun, un)
		dense.Gram(p, gn, un)
		if set.rescale {
			rescaleColumns(p, un, sun, gn)
		}
		return nil
	}
	objective := func() (float64, []engine.Term) {
		f := symmetric.Objective(p, m.normS2, un, sun, gn)
		return f, []engine.Term{{Name: TermLoss, Value: f}}
	}
	accept := func() {
		u, un = un, u
		su, sun = sun, su
		g, gn = gn, g
	}
	converged := func(prev, cur float64) bool {
		if math.IsNaN(prev) {
			prev = start
		}
		return set.stop.Converged(prev, cur)
	}
	st := engine.Iterate(ctx, set.stop, rec, engine.Steps{Step: step, Objective: objective, Accept: accept,
		Sparsity:  func() []engine.Term { return []engine.Term{{Name: SparsityU, Value: dense.ZeroFraction(p, u)}} },
		Converged: converged})
	if st.Iterations == 0 {
		st.Objective = start
	}
	m.u, m.g = u, g
	return st, nil
}

// infer solves the document topics of the rows of x (n×M) with the
// model's inference; it returns ctx.Err() if cancelled.
func (m *Model) infer(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	p, k := m.set.pool, m.set.k
	if x.Rows == 0 {
		return &mat.Dense{}, ctx.Err()
	}
	out := mat.NewDense(x.Rows, k, nil)
	switch m.set.inference {
	case InferE:
		inferE(p, out, x, m.u, m.ginv)
	case InferENNLS:
		inferE(p, out, x, m.u, m.ginv)
		inferENNLS(ctx, p, out, x, m.u, m.g, m.set.sweeps, m.set.tol)
	case InferI:
		inferI(ctx, p, out, x, m.u, m.colSum, m.set.sweeps, m.set.tol)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// zeroV is the V of a fit that ended before inference: n×k zeros.
func zeroV(n, k int) *mat.Dense {
	if n == 0 {
		return &mat.Dense{}
	}
	return mat.NewDense(n, k, nil)
}
