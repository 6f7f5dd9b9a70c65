package rlsi

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/sparse"
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

// Fit runs Algorithm 1 of RLSI on the corpus through engine.Iterate: V⁽⁰⁾
// random (or InitV), then for t = 1, 2, …: U⁽ᵗ⁾ = UpdateU(D, V⁽ᵗ⁻¹⁾),
// V⁽ᵗ⁾ = UpdateV(D, U⁽ᵗ⁾), recording after each iteration the wall time, the
// fraction of zeros in U and V and (when evaluated) the objective and its
// three terms. It stops at Stopping's iteration limit or relative-change
// tolerance, on cancellation or when a step produces NaN/Inf (Status
// NumericalFailure naming the step), returning the last accepted iterate.
// A term-document matrix whose ‖D‖²_F overflows float64 is an error.
func (o Options) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	dt, set, err := engine.Prepare(c, "rlsi", o.resolve)
	if err != nil {
		return nil, engine.Status{}, err
	}
	if o.RelativeLambda {
		set.lambda1, set.lambda2, err = relativeLambdas(set.variant, set.lambda1, set.lambda2, DataScale(set.pool, c.D))
		if err != nil {
			return nil, engine.Status{}, err
		}
	}
	s := newSolver(set, c.D, dt)
	if math.IsNaN(s.dnorm2) || math.IsInf(s.dnorm2, 0) {
		return nil, engine.Status{}, fmt.Errorf("rlsi: initialization: ‖D‖²_F overflows float64 (largest entry %v): scale the term-document matrix down", slices.Max(c.D.Val))
	}
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

	st := engine.Iterate(ctx, set.stop, rec, engine.Steps{
		Step:      s.step,
		Objective: s.objective,
		Accept:    s.accept,
		Sparsity:  s.sparsity,
	})
	m := newModel(s)
	m.used = o.used(set)
	return m, st, nil
}

// step computes the candidate (uNext, vNext) of one iteration of
// Algorithm 1 from (u, v): U = UpdateU(D, V) (line 3), then V =
// UpdateV(D, U) with the new U (line 4), and S = VVᵀ of the new V, which
// serves the objective and, once accepted, the next UpdateU. It returns
// ctx.Err() when cancelled between or inside the updates (their parallel
// loops skip the blocks that start after a cancellation, so the candidate
// is then incomplete and is discarded).
func (s *solver) step(ctx context.Context, _ int) error {
	if err := s.updateU(ctx); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.updateV(ctx); err != nil {
		return err
	}
	dense.Gram(s.set.pool, s.svNext, s.vNext)
	return nil
}

// objective is the objective of Eq. 1 (or its variant) at the candidate,
// the sum of its three terms.
func (s *solver) objective() (float64, []engine.Term) {
	terms := s.objectiveTerms()
	return terms[0].Value + terms[1].Value + terms[2].Value, terms
}

// sparsity is the fraction of zeros of U and V of the current iterate.
func (s *solver) sparsity() []engine.Term {
	p := s.set.pool
	return []engine.Term{{Name: SparsityU, Value: dense.ZeroFraction(p, s.u)}, {Name: SparsityV, Value: dense.ZeroFraction(p, s.v)}}
}

// accept makes (uNext, vNext) the current iterate; S = VVᵀ of the new V,
// computed by step, serves the next UpdateU.
func (s *solver) accept() {
	s.u, s.uNext = s.uNext, s.u
	s.v, s.vNext = s.vNext, s.v
	s.sv, s.svNext = s.svNext, s.sv
}

// objectiveTerms returns the three terms of the objective at (uNext,
// vNext), given gu = UᵀU and phi = DᵀU of uNext and svNext = VVᵀ of vNext
// (all left by step). The loss is ‖Dᵀ − V Uᵀ‖²_F = ‖D‖²_F −
// 2⟨Vᵀ-stored, DᵀU⟩ + ⟨VVᵀ, UᵀU⟩ from these parts (sparse.ResidualSqParts,
// compensated sums).
func (s *solver) objectiveTerms() []engine.Term {
	p := s.set.pool
	loss := sparse.ResidualSqParts(p, s.dnorm2, s.vNext, s.phi, s.svNext, s.gu)
	var ut, vt engine.Term
	if s.set.variant.l1U() {
		ut = engine.Term{Name: TermU1, Value: s.set.lambda1 * dense.SumAbs(p, s.uNext)}
	} else {
		ut = engine.Term{Name: TermU2, Value: s.set.lambda1 * dense.Dot(p, s.uNext, s.uNext)}
	}
	if s.set.variant.l1V() {
		vt = engine.Term{Name: TermV1, Value: s.set.lambda2 * dense.SumAbs(p, s.vNext)}
	} else {
		vt = engine.Term{Name: TermV2, Value: s.set.lambda2 * dense.Dot(p, s.vNext, s.vNext)}
	}
	return []engine.Term{{Name: TermLoss, Value: loss}, ut, vt}
}
