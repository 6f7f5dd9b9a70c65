package gnmfnc

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted GNMFNC model. It implements engine.Model; topic k of
// TermTopics is shared for k < Ks and belongs to category (k − Ks)/Kp
// otherwise (TopicClass).
//
// Fold-in (§2.4, Eq. 12; the methods of the embedded grouping.FoldMethods):
// a query q of category p is v_q = argmin_{v≥0} ‖q − [U_s, U_p]v‖²₂, solved
// exactly by engine/solve.NNLS with G = Ũ_pᵀŨ_p and right-hand side Ũ_pᵀq
// (FoldInClass). With the category unknown (FoldIn), the query is folded
// into every category that has training documents and assigned ŷ =
// argmin_p E(q; Ũ_p), E(q; Ũ_p) = min_{v≥0} ‖q − Ũ_pv‖²₂ (the rule of GMF
// §4.3; ties to the lowest category); ReconstructionErrors and
// PredictClasses return E and ŷ. Representations are laid out like
// DocTopics: v in the Ks shared columns and the Kp columns of the category
// used, 0 elsewhere — the embedding in the full K = Ks + P·Kp space in
// which TopicScore compares a query with a question of another category.
type Model struct {
	*grouping.Factors // U = [U_s | U_1 … U_P], V (Kc = Kp) and their accessors
	pool              *parallel.Pool
	utu               []*mat.Dense // Ũ_pᵀŨ_p
	set               settings     // the settings of the fit (Save)

	grouping.FoldMethods
}

func newModel(s *solver) *Model {
	m := &Model{Factors: grouping.NewFactors(s.lay, s.u, s.v, s.Ks, s.Kc), pool: s.set.pool, utu: s.NewGrams(), set: s.set}
	m.FoldMethods = grouping.FoldMethods{Who: "gnmfnc", P: s.P, Terms: s.m, Project: m.project}
	grouping.TopicGrams(m.pool, s.u, s.Ks, s.Kc, m.utu)
	return m
}

// TopicScore is s_topic(q, d) = ⟨v_q, v_d⟩ / (‖v_q‖₂‖v_d‖₂) of Eq. 13 for
// two representations in the full K-space layout of DocTopics and FoldIn.
// A query and a question of the same category are compared on all their
// Ks + Kp topics; of different categories, only the shared topics add to
// the inner product while each norm counts the vector's own category
// topics, so category-specific mass lowers the score. A zero vector scores
// 0. It panics if the lengths differ.
func TopicScore(q, d []float64) float64 {
	if len(q) != len(d) {
		panic(fmt.Sprintf("gnmfnc.TopicScore: vectors of length %d and %d", len(q), len(d)))
	}
	var dot, nq, nd float64
	for i, x := range q {
		dot += x * d[i]
		nq += x * x
		nd += d[i] * d[i]
	}
	if nq == 0 || nd == 0 {
		return 0
	}
	return dot / (math.Sqrt(nq) * math.Sqrt(nd))
}

// project folds in the rows of X (grouping.Projection): every row is
// solved by NNLS in the categories it needs (its given one, or every
// trained one when its category is unknown or wantErr).
func (m *Model) project(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
	u := m.TermTopics()
	ks, kp, np := m.Dims()
	sizes, names := m.ClassSizes(), m.ClassNames()
	n, kt := x.Rows, ks+kp
	pred := make([]int, n)
	if n == 0 {
		return &mat.Dense{}, &mat.Dense{}, pred, nil
	}
	anyTrained := false
	for _, sz := range sizes {
		anyTrained = anyTrained || sz > 0
	}
	xu := mat.NewDense(n, ks+np*kp, nil) // row i = (Uᵀx_i)ᵀ
	sparse.MulDense(m.pool, xu, x, u)
	x2 := make([]float64, n)
	for i := range x2 {
		_, vals := x.Row(i)
		var s dense.Sum
		for _, a := range vals {
			s.Add(a * a)
		}
		x2[i] = s.Value()
	}
	errs := mat.NewDense(n, np, nil)
	best := make([]float64, n)
	for i := range best {
		best[i], pred[i] = math.Inf(1), -1
	}
	sol := make([][]float64, n) // the representation in pred[i]
	for p := 0; p < np; p++ {
		var rows []int
		for i := 0; i < n; i++ {
			given := -1
			if classes != nil {
				given = classes[i]
			}
			if given == p || ((given < 0 || wantErr) && (sizes[p] > 0 || !anyTrained)) {
				rows = append(rows, i)
			} else {
				errs.Set(i, p, math.Inf(1))
			}
		}
		if len(rows) == 0 {
			continue
		}
		rhs := mat.NewDense(len(rows), kt, nil)
		for r, i := range rows {
			src := xu.RawRowView(i)
			dst := rhs.RawRowView(r)
			copy(dst[:ks], src[:ks])
			copy(dst[ks:], src[ks+p*kp:ks+(p+1)*kp])
		}
		sol0 := mat.NewDense(len(rows), kt, nil)
		if err := solve.NNLS(m.pool, sol0, m.utu[p], rhs); err != nil {
			return nil, nil, nil, fmt.Errorf("gnmfnc: fold-in into category %q: %w", names[p], err)
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		g := m.utu[p].RawMatrix()
		for r, i := range rows {
			v, b := sol0.RawRowView(r), rhs.RawRowView(r)
			var e dense.Sum // ‖x‖² − 2vᵀŨᵀx + vᵀ(ŨᵀŨ)v
			e.Add(x2[i])
			for j, vj := range v {
				if vj == 0 {
					continue
				}
				gv := 0.0
				for l, vl := range v {
					gv += g.Data[j*g.Stride+l] * vl
				}
				e.Add(vj * (gv - 2*b[j]))
			}
			ep := math.Max(e.Value(), 0)
			errs.Set(i, p, ep)
			given := -1
			if classes != nil {
				given = classes[i]
			}
			if given == p || (given < 0 && ep < best[i]) {
				best[i], pred[i], sol[i] = ep, p, v
			}
		}
	}
	reps := mat.NewDense(n, ks+np*kp, nil)
	for i := 0; i < n; i++ {
		if pred[i] >= 0 {
			dst, p := reps.RawRowView(i), pred[i]
			copy(dst[:ks], sol[i][:ks])
			copy(dst[ks+p*kp:ks+(p+1)*kp], sol[i][ks:])
		}
	}
	if !wantErr {
		errs = nil
	}
	return reps, errs, pred, nil
}
