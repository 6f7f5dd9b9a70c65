package grouprlsi

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted GRLSI model. It implements engine.Model; topic k of
// TermTopics is shared for k < Ks and belongs to class (k − Ks)/Kc
// otherwise (TopicClass).
//
// Fold-in (GMF §4.3; the methods of the embedded grouping.FoldMethods):
// FoldInClass represents a new document of known class by Eq. 8, v_d =
// argmin_v ‖d − Ũ_{y_d}v‖²₂ + λ2‖v‖²₂ = Σ_{y_d}Ũ_{y_d}ᵀd, with the Σ_p and
// kernels of the fit's V update, so a training document folds in to
// exactly its fitted representation; FoldIn (unknown class) first assigns
// ŷ = argmin_p E(d; Ũ_p), E(d; Ũ_p) = min_v ‖d − Ũ_pv‖²₂ + λ2‖v‖²₂,
// computed at the minimizer of Eq. 8 as ‖d‖² − (Ũ_pᵀd)ᵀv
// (ReconstructionErrors, PredictClasses). Classes without training
// documents read E = +Inf (they are never predicted).
type Model struct {
	*grouping.Factors // U, V and their accessors
	lambda2           float64
	pool              *parallel.Pool
	sigma             []*mat.Dense // per class (Ũ_pᵀŨ_p + λ2 I)⁻¹
	sigmaErr          []error
	set               settings // the settings of the fit (Save)

	grouping.FoldMethods
}

func newModel(s *solver) *Model {
	lay := s.lay
	m := &Model{Factors: grouping.NewFactors(lay, s.u, s.v, s.Ks, s.Kc), lambda2: s.set.lambda2, pool: s.set.pool, set: s.set,
		sigma: make([]*mat.Dense, s.P), sigmaErr: make([]error, s.P)}
	m.FoldMethods = grouping.FoldMethods{Who: "grouprlsi", P: s.P, Terms: s.m, Project: m.project}
	// Same kernels and inputs as the last UpdateV: the same bits.
	utu := s.NewGrams()
	grouping.TopicGrams(m.pool, s.u, s.Ks, s.Kc, utu)
	for p := range utu {
		m.sigma[p], m.sigmaErr[p] = solve.RidgeInverse(utu[p], m.lambda2)
	}
	return m
}

// Lambda2 is λ2 as used.
func (m *Model) Lambda2() float64 { return m.lambda2 }

// project folds in the rows of X: with classes[i] ≥ 0 in that class, else
// in the predicted class; it also returns E (when wantErr) and the classes
// used.
func (m *Model) project(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
	u := m.TermTopics()
	ks, kc, np := m.Dims()
	for p, err := range m.sigmaErr {
		if err != nil {
			return nil, nil, nil, fmt.Errorf("grouprlsi: class %d: (Ũ_pᵀŨ_p + λ2 I)⁻¹: %v", p, err)
		}
	}
	kt := ks + kc
	return grouping.FoldGroup(ctx, grouping.Group{Pool: m.pool, U: u, Ks: ks, Kc: kc, P: np,
		Sizes: m.ClassSizes(), Block: 64, NewFolder: func() grouping.Folder {
			phi, v := mat.NewDense(1, kt, nil), mat.NewDense(1, kt, nil)
			pr, vr := phi.RawRowView(0), v.RawRowView(0)
			var d2 float64
			return grouping.Folder{XU: pr, V: vr,
				Row: func(_ int, vals []float64) {
					d2 = 0
					for _, a := range vals {
						d2 += a * a
					}
				},
				Fold: func(p int) float64 {
					dense.MulSmall(m.pool, v, phi, m.sigma[p])
					e := d2
					for j, a := range pr {
						e -= a * vr[j]
					}
					return e
				}}
		}}, x, classes, wantErr)
}
