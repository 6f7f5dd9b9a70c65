package rlsi

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Names of the recorded objective terms.
const (
	TermLoss  = "loss"            // ‖D − UV‖²_F
	TermU1    = "lambda1*|U|_1"   // λ1 Σ|u_mk| (ℓ1 on U)
	TermU2    = "lambda1*|U|_F^2" // λ1 Σ u_mk² (ℓ2 on U)
	TermV1    = "lambda2*|V|_1"   // λ2 Σ|v_kn| (ℓ1 on V)
	TermV2    = "lambda2*|V|_F^2" // λ2 Σ v_kn² (ℓ2 on V)
	SparsityU = "U"
	SparsityV = "V"
)

// Fit runs Algorithm 1 of RLSI on the corpus: V⁽⁰⁾ random (or InitV), then
// for t = 1, 2, …: U⁽ᵗ⁾ = UpdateU(D, V⁽ᵗ⁻¹⁾), V⁽ᵗ⁾ = UpdateV(D, U⁽ᵗ⁾), recording
// after each iteration the objective, its three terms, the wall time and the
// fraction of zeros in U and V. It stops at Stopping's iteration limit or
// relative-change tolerance, on cancellation (the last complete iterate is
// returned) or when a step produces NaN/Inf (Status NumericalFailure naming
// the step; the last complete iterate is returned).
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	if c == nil || c.D == nil {
		return nil, engine.Status{}, fmt.Errorf("rlsi: nil corpus or term-document matrix")
	}
	set, err := o.resolve(c.D.Rows, c.D.Cols)
	if err != nil {
		return nil, engine.Status{}, err
	}
	if o.RelativeLambda {
		set.lambda1, set.lambda2, err = relativeLambdas(set.variant, set.lambda1, set.lambda2, DataScale(set.pool, c.D))
		if err != nil {
			return nil, engine.Status{}, err
		}
	}
	dt := c.DT
	if dt == nil {
		dt = c.D.T()
	}
	if dt.Rows != c.D.Cols || dt.Cols != c.D.Rows {
		return nil, engine.Status{}, fmt.Errorf("rlsi: corpus DT is %d×%d, want the transpose of the %d×%d D", dt.Rows, dt.Cols, c.D.Rows, c.D.Cols)
	}
	s := newSolver(set, c.D, dt)
	if o.BalancedInit && set.initV == nil {
		sigma := math.Sqrt(DataScale(set.pool, c.D) / float64(c.D.Cols))
		if !(sigma > 0) || math.IsInf(sigma, 0) {
			return nil, engine.Status{}, fmt.Errorf("rlsi: BalancedInit needs a term-document matrix with a finite non-zero norm, got σ = √(‖D‖_F/√N / N) = %v", sigma)
		}
		rnd := engine.NewRand(set.seed)
		s.initV(func() float64 { return sigma * rnd.NormFloat64() })
	} else {
		s.initV(engine.NewRand(set.seed).NormFloat64)
	}

	st := engine.Status{Objective: math.NaN()}
	maxIter := set.stop.Iterations()
	prev := math.NaN()
	for t := 1; t <= maxIter; t++ {
		if ctx.Err() != nil {
			st.Reason = engine.Cancelled
			break
		}
		start := time.Now()
		if f := s.updateU(ctx); f != nil {
			st.Reason, st.Detail = engine.NumericalFailure, fmt.Sprintf("iteration %d: %s", t, f)
			break
		}
		if ctx.Err() != nil {
			st.Reason = engine.Cancelled
			break
		}
		if f := s.updateV(ctx); f != nil {
			st.Reason, st.Detail = engine.NumericalFailure, fmt.Sprintf("iteration %d: %s", t, f)
			break
		}
		if ctx.Err() != nil {
			st.Reason = engine.Cancelled
			break
		}
		terms := s.objectiveTerms()
		obj := terms[0].Value + terms[1].Value + terms[2].Value
		if math.IsNaN(obj) || math.IsInf(obj, 0) {
			st.Reason, st.Detail = engine.NumericalFailure, fmt.Sprintf("iteration %d: objective: %v (loss %v, %s %v, %s %v)",
				t, obj, terms[0].Value, terms[1].Name, terms[1].Value, terms[2].Name, terms[2].Value)
			break
		}
		s.accept()
		st.Iterations, st.Objective = t, obj
		rec.Record(engine.Iteration{
			Iter: t, Seconds: time.Since(start).Seconds(), Objective: obj, Terms: terms,
			Sparsity: []engine.Term{{Name: SparsityU, Value: dense.ZeroFraction(set.pool, s.u)}, {Name: SparsityV, Value: dense.ZeroFraction(set.pool, s.v)}},
		})
		if set.stop.Evaluate(t) {
			if set.stop.Converged(prev, obj) {
				st.Reason = engine.Converged
				break
			}
			prev = obj
		}
	}
	if st.Reason == 0 {
		st.Reason = engine.IterationLimit
	}
	return newModel(s), st, nil
}

// accept makes (uNext, vNext) the current iterate; S = VVᵀ of the new V,
// computed by objectiveTerms, serves the next UpdateU.
func (s *solver) accept() {
	s.u, s.uNext = s.uNext, s.u
	s.v, s.vNext = s.vNext, s.v
	s.sv, s.svNext = s.svNext, s.sv
}

// objectiveTerms returns the three terms of the objective at (uNext,
// vNext), given gu = UᵀU and phi = DᵀU of uNext. The loss is
// ‖Dᵀ − V Uᵀ‖²_F = ‖D‖²_F − 2⟨Vᵀ-stored, DᵀU⟩ + ⟨VVᵀ, UᵀU⟩ from these parts
// (sparse.ResidualSqParts, compensated sums); VVᵀ of vNext is computed here
// into svNext, which becomes S of the next UpdateU when the iterate is
// accepted.
func (s *solver) objectiveTerms() []engine.Term {
	p := s.set.pool
	dense.Gram(p, s.svNext, s.vNext)
	loss := sparse.ResidualSqParts(p, s.dnorm2, s.vNext, s.phi, s.svNext, s.gu)
	var ut, vt engine.Term
	if s.set.variant.l1U() {
		ut = engine.Term{Name: TermU1, Value: s.set.lambda1 * sumAbs(p, s.uNext)}
	} else {
		ut = engine.Term{Name: TermU2, Value: s.set.lambda1 * dense.Dot(p, s.uNext, s.uNext)}
	}
	if s.set.variant.l1V() {
		vt = engine.Term{Name: TermV1, Value: s.set.lambda2 * sumAbs(p, s.vNext)}
	} else {
		vt = engine.Term{Name: TermV2, Value: s.set.lambda2 * dense.Dot(p, s.vNext, s.vNext)}
	}
	return []engine.Term{{Name: TermLoss, Value: loss}, ut, vt}
}

// sumAbs is Σ|a_ij|, compensated within fixed row blocks and over blocks in
// block order (the same bits for any number of workers).
func sumAbs(p *parallel.Pool, a *mat.Dense) float64 {
	r, c := a.Dims()
	raw := a.RawMatrix()
	part := make([]dense.Sum, parallel.Blocks(r, dense.RowBlock))
	p.For(r, dense.RowBlock, func(b, lo, hi int) {
		var t dense.Sum
		for i := lo; i < hi; i++ {
			for _, x := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
				t.Add(math.Abs(x))
			}
		}
		part[b] = t
	})
	var total dense.Sum
	for _, t := range part {
		total.AddSum(t)
	}
	return total.Value()
}
