package groupnmf

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted Group NMF model. It implements engine.Model; topic k
// of TermTopics is shared for k < Ks and belongs to class (k − Ks)/Kc
// otherwise (TopicClass).
//
// Fold-in (GMF §5.3; the methods of the embedded grouping.FoldMethods):
// FoldInClass represents a new document of known class by Eq. 10, v_d =
// argmin_{v≥0} ‖d − Ũ_{y_d}v‖²₂, solved as engine/nmf folds in: the fit's
// V update (Algorithm 5 line 10) with Ũ fixed, v ← v ∗ (Ũᵀd + ε) /
// (ŨᵀŨv + ε), from the constant start sqrt(mean(d)/(Ks+Kc)) (mean over the
// M entries of d), stopped by the fit's Stopping rule applied to the
// document's own loss; FoldIn (unknown class) first assigns ŷ = argmin_p
// E(d; Ũ_p) with E(d; Ũ_p) = min_{v≥0} ‖d − Ũ_pv‖²₂, the loss at the
// fold-in's stopping point (ReconstructionErrors, PredictClasses). X must
// be non-negative. Classes without training documents read E = +Inf.
type Model struct {
	*grouping.Factors // U, V and their accessors
	stop              engine.Stopping
	pool              *parallel.Pool
	utu               [][]float64 // per class Ũ_pᵀŨ_p, packed (Ks+Kc)²
	set               settings    // the settings of the fit (Save)

	grouping.FoldMethods
}

func newModel(s *solver) *Model {
	lay := s.lay
	m := &Model{Factors: grouping.NewFactors(lay, s.u, s.v, s.Ks, s.Kc), stop: s.set.stop, pool: s.set.pool, set: s.set,
		utu: make([][]float64, s.P)}
	m.FoldMethods = grouping.FoldMethods{Who: "groupnmf", P: s.P, Terms: s.m, Project: m.project}
	g := s.NewGrams()
	grouping.TopicGrams(m.pool, s.u, s.Ks, s.Kc, g)
	for p, gp := range g {
		m.utu[p] = gp.RawMatrix().Data
	}
	return m
}

func (m *Model) project(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
	u := m.TermTopics()
	ks, kc, np := m.Dims()
	mm, _ := u.Dims()
	for q, val := range x.Val {
		if val < 0 {
			r, c := x.Locate(q)
			return nil, nil, nil, fmt.Errorf("groupnmf: FoldIn: X[%d,%d] = %v, want finite and non-negative", r, c, val)
		}
	}
	kt := ks + kc
	reps, errs, pred, err := grouping.FoldGroup(ctx, grouping.Group{Pool: m.pool, U: u, Ks: ks, Kc: kc, P: np,
		Sizes: m.ClassSizes(), Block: sparse.RowBlock, NewFolder: func() grouping.Folder {
			xu, v, den := make([]float64, kt), make([]float64, kt), make([]float64, kt)
			var x2, start float64
			return grouping.Folder{XU: xu, V: v,
				Row: func(_ int, vals []float64) {
					var s1, s2 dense.Sum
					for _, a := range vals {
						s1.Add(a)
						s2.Add(a * a)
					}
					x2, start = s2.Value(), math.Sqrt(s1.Value()/(float64(mm)*float64(kt)))
				},
				Fold: func(p int) float64 { return solve.Multiplicative(ctx, v, xu, m.utu[p], den, x2, start, Eps, m.stop) }}
		}}, x, classes, wantErr)
	if err != nil {
		return nil, nil, nil, err
	}
	if r, c, bad := dense.FirstNonFinite(m.pool, reps); bad {
		return nil, nil, nil, fmt.Errorf("groupnmf: FoldIn: document %d, topic %d: the update produced a non-finite value", r, c)
	}
	return reps, errs, pred, nil
}
