package jtd

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted noisy joint topic-document model. Every matrix is stored
// with one row per entity (doc.go): B is M×K (columns sum to 1), S is N×K
// (row n is S_n), and E, N and BS are N×M (row n is document n's part).
type Model struct {
	B, S, E, N, BS *mat.Dense
	// Residual is the final ‖D − BS − E − N‖_F/‖D‖_F.
	Residual float64
	set      settings
}

// TermTopics is B (M×K).
func (m *Model) TermTopics() *mat.Dense { return m.B }

// DocTopics is Sᵀ (N×K): row n is document n's topic mixture S_n.
func (m *Model) DocTopics() *mat.Dense { return m.S }

// FoldIn returns the topic mixtures S (n×K) of new documents X (rows, n×M),
// split with B fixed (Split).
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	parts, err := m.Split(ctx, x)
	if err != nil {
		return nil, err
	}
	return parts.S, nil
}

// Parts are new documents split as x = B s + e + n: S (n×K), and BS, E, N
// (n×M), one row per document.
type Parts struct {
	S, BS, E, N *mat.Dense
	Residual    float64
}

// Split splits new documents X (rows, n×M) with B fixed by the fit's ALM
// (doc.go, Fold-in): S starts from the NMF fold-in NNLS(BᵀB, XB), as the fit
// starts from ANLS NMF; then the same μ0, ρ, μ_max, iteration limit and
// residual tolerance apply, with the (B, S) step reduced to
// S ← NNLS(BᵀB, X⁽³⁾B).
func (m *Model) Split(ctx context.Context, x *sparse.CSR) (*Parts, error) {
	terms, k := m.B.Dims()
	if err := engine.CheckFoldIn(ctx, "jtd", x, terms, engine.Finite); err != nil {
		return nil, err
	}
	n := x.Rows
	if n == 0 {
		return &Parts{S: &mat.Dense{}, BS: &mat.Dense{}, E: &mat.Dense{}, N: &mat.Dense{}}, nil
	}
	set, p := m.set, m.set.pool
	nm := func() *mat.Dense { return mat.NewDense(n, terms, nil) }
	parts := &Parts{S: mat.NewDense(n, k, nil), BS: nm(), E: nm(), N: nm()}
	y, x3 := nm(), nm()
	rhs, bt := mat.NewDense(n, k, nil), mat.NewDense(k, terms, nil)
	gram := mat.NewDense(k, k, nil)
	dense.Gram(p, gram, m.B)
	normX := sparse.Frobenius(p, x)
	if normX == 0 {
		return parts, nil
	}
	// Start as the fit does: S from the ANLS NMF fold-in (β = 0).
	sparse.MulDense(p, rhs, x, m.B)
	if err := solve.NNLS(p, parts.S, gram, rhs); err != nil {
		return nil, fmt.Errorf("jtd: fold-in start: %w", err)
	}
	lowRank(p, parts.BS, parts.S, m.B, bt)
	mu := set.mu0
	for it := 1; it <= set.maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		splitParts(p, set, mu, x, parts.BS, y, parts.N, parts.E, parts.N, x3)
		dense.MulSmall(p, rhs, x3, m.B)
		if err := solve.NNLS(p, parts.S, gram, rhs); err != nil {
			return nil, fmt.Errorf("jtd: fold-in iteration %d: %w", it, err)
		}
		lowRank(p, parts.BS, parts.S, m.B, bt)
		sums := updateMultiplier(p, mu, x, parts.BS, parts.E, parts.N, y, y)
		if !sums.finite() {
			return nil, fmt.Errorf("jtd: fold-in iteration %d: the residual is not finite", it)
		}
		parts.Residual = math.Sqrt(sums.z2) / normX
		mu = math.Min(set.rho*mu, set.muMax)
		if parts.Residual <= set.residualTol {
			break
		}
	}
	return parts, nil
}
