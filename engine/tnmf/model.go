package tnmf

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted TNMF model. It implements engine.Model.
type Model struct {
	set          settings
	corr         *Correlation
	u, v         *mat.Dense // U (M×K), Vᵀ (N×K)
	g, ginv      *mat.Dense // UᵀU and its (pseudo-)inverse
	ginvPseudo   bool
	colSum       []float64 // Σ_i u_ik
	normS2       float64
	pseudoSteps  int
	buildSeconds float64
}

// finish prepares what inference needs from the final U: (UᵀU)⁻¹ (the
// pseudo-inverse if UᵀU is singular, see gramInverse) and the column sums.
func (m *Model) finish() {
	k := m.set.k
	if m.ginv, m.ginvPseudo, _ = gramInverse(m.g); m.ginv == nil {
		// UᵀU had a non-finite entry: the fit stopped with NumericalFailure
		// and inference is not run on it; keep a zero inverse.
		m.ginv = mat.NewDense(k, k, nil)
	}
	m.colSum = make([]float64, k)
	r, _ := m.u.Dims()
	for i := 0; i < r; i++ {
		for j, x := range m.u.RawRowView(i) {
			m.colSum[j] += x
		}
	}
}

// TermTopics is U (M×K); column k is topic k's term weights. It is the
// model's own matrix, not a copy.
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is Vᵀ (N×K) inferred for the training documents; row n is
// document n. The model's own matrix, not a copy.
func (m *Model) DocTopics() *mat.Dense { return m.v }

// Correlation is the term correlation the fit used (S and its
// intermediate matrices), shared with the other fits on the same corpus
// and settings: never modify it.
func (m *Model) Correlation() *Correlation { return m.corr }

// Inference is the document inference the model uses.
func (m *Model) Inference() Inference { return m.set.inference }

// BuildSeconds is the wall time spent building S, or finding it built by
// the previous fit on the same corpus and settings.
func (m *Model) BuildSeconds() float64 { return m.buildSeconds }

// PseudoInverseSteps counts the U iterations in which UᵀU was singular or
// ill-conditioned and its pseudo-inverse was used (see Step).
func (m *Model) PseudoInverseSteps() int { return m.pseudoSteps }

// FoldIn represents each row of X (n×M, weighted like the training D) by
// the model's inference — Eq. 4.6 for TNMF_E, the Newton iterations of
// Section 4.2 for TNMF_I with the same start and stopping rule — exactly as
// the training documents were: folding in the training DT gives DocTopics
// bit for bit. It returns an n×K matrix.
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	mt, _ := m.u.Dims()
	if err := engine.CheckFoldIn(ctx, "tnmf", x, mt, nil); err != nil {
		return nil, err
	}
	v, err := m.infer(ctx, x)
	if err != nil {
		return nil, err
	}
	if r, c, bad := dense.FirstNonFinite(m.set.pool, v); bad {
		return nil, fmt.Errorf("tnmf: FoldIn: inference %s: row %d, topic %d = %v is not finite (the document's scale overflows float64)", m.set.inference, r, c, v.At(r, c))
	}
	return v, nil
}
