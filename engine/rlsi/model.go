package rlsi

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted RLSI model. It implements engine.Model.
type Model struct {
	u, v     *mat.Dense // U (M×K) and Vᵀ (N×K)
	variant  Variant
	lambda1  float64
	lambda2  float64
	sweeps   int
	tol      float64
	pool     *parallel.Pool
	gu       *mat.Dense // UᵀU
	sigma    *mat.Dense // (UᵀU + λ2 I)⁻¹ for the ℓ2-on-V variants
	sigmaErr error      // why sigma could not be formed, if it could not
	used     Options    // the options as used (Save)
}

func newModel(s *solver) *Model {
	k := s.set.k
	m := &Model{u: s.u, v: s.v, variant: s.set.variant, lambda1: s.set.lambda1, lambda2: s.set.lambda2,
		sweeps: s.set.innerSweeps, tol: s.set.innerTol, pool: s.set.pool, gu: mat.NewDense(k, k, nil)}
	// Same kernels, same inputs as the last UpdateV: the same bits.
	dense.Gram(m.pool, m.gu, m.u)
	if !m.variant.l1V() {
		m.sigma, m.sigmaErr = solve.RidgeInverse(m.gu, m.lambda2)
	}
	return m
}

// TermTopics is U (M×K); column k is topic u_k. It is the model's own
// matrix, not a copy.
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is Vᵀ (N×K); row n is v_n. It is the model's own matrix, not a
// copy.
func (m *Model) DocTopics() *mat.Dense { return m.v }

// Variant is the regularization variant the model was fitted with.
func (m *Model) Variant() Variant { return m.variant }

// Lambdas returns λ1 and λ2 as used (defaults applied).
func (m *Model) Lambdas() (lambda1, lambda2 float64) { return m.lambda1, m.lambda2 }

// FoldIn represents each row q of X (n × M, weighted like the training D)
// in the topic space as RLSI Section 5 defines it:
//
//	ℓ2 on V: v_q = argmin_v ‖q − Uv‖²₂ + λ2‖v‖²₂ = (UᵀU + λ2 I)⁻¹ Uᵀq,
//	ℓ1 on V: v_q = argmin_v ‖q − Uv‖²₂ + λ2‖v‖₁   (footnote 3),
//
// the ℓ2 form with the same Σ and the same kernels as the V update of the
// fit (so a training document folds in to exactly its fitted row of Vᵀ
// after the last iteration), the ℓ1 form by coordinate descent from v = 0
// with the fit's InnerSweeps and InnerTol. It returns an n×K matrix.
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	if err := engine.CheckFoldIn(ctx, "rlsi", x, m.u.RawMatrix().Rows, engine.Finite); err != nil {
		return nil, err
	}
	rows, k := x.Rows, m.u.RawMatrix().Cols
	if rows == 0 {
		return &mat.Dense{}, nil
	}
	phi := mat.NewDense(rows, k, nil)
	sparse.MulDense(m.pool, phi, x, m.u) // row i = (Uᵀq_i)ᵀ
	out := mat.NewDense(rows, k, nil)
	if m.variant.l1V() {
		lassoRows(ctx, m.pool, solve.NewLassoPool(k, m.pool.Workers()), out, out, phi, m.gu, m.lambda2, m.sweeps, m.tol, true)
	} else {
		if m.sigma == nil {
			return nil, fmt.Errorf("rlsi: FoldIn: (UᵀU + λ2 I)⁻¹: %v", m.sigmaErr)
		}
		dense.MulSmall(m.pool, out, phi, m.sigma)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
