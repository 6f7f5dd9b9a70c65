package groupnmf

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
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
	u          *mat.Dense // M×K = [U0 | U_1 … U_P]
	v          *mat.Dense // N×(Ks+Kc), class-major rows
	pos        []int      // corpus index → class-major row
	labels     []int      // corpus index → class
	sizes      []int
	classNames []string
	ks, kc, np int
	stop       engine.Stopping
	pool       *parallel.Pool
	utu        [][]float64 // per class Ũ_pᵀŨ_p, packed (Ks+Kc)²

	grouping.FoldMethods

	once      sync.Once
	docTopics *mat.Dense
}

func newModel(s *solver) *Model {
	lay := s.lay
	m := &Model{u: s.u, v: s.v, pos: lay.Pos, labels: make([]int, lay.N), sizes: make([]int, lay.P),
		classNames: lay.ClassNames, ks: s.ks, kc: s.kc, np: s.np, stop: s.set.stop, pool: s.set.pool,
		utu: make([][]float64, s.np)}
	m.FoldMethods = grouping.FoldMethods{Who: "groupnmf", P: s.np, Project: m.project}
	for n, pos := range lay.Pos {
		m.labels[n] = int(lay.ClassOf[pos])
	}
	for p := range m.sizes {
		m.sizes[p] = lay.Size(p)
	}
	kt := s.ks + s.kc
	g := make([]*mat.Dense, s.np)
	for p := range g {
		g[p] = mat.NewDense(kt, kt, nil)
	}
	grouping.TopicGrams(m.pool, m.u, s.ks, s.kc, g)
	for p, gp := range g {
		m.utu[p] = gp.RawMatrix().Data
	}
	return m
}

// TermTopics is U = [U0 | U_1 … U_P] (M×K, K = Ks + P·Kc), the model's own.
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is N×K (corpus order): row n holds document n's representation
// [h_n; w_n] in the Ks shared columns and the Kc columns of its class, 0
// elsewhere. Built on first call; Representations gives the compact form.
func (m *Model) DocTopics() *mat.Dense {
	m.once.Do(func() {
		m.docTopics = mat.NewDense(len(m.pos), m.ks+m.np*m.kc, nil)
		for i, pos := range m.pos {
			m.scatter(m.docTopics.RawRowView(i), m.v.RawRowView(pos), m.labels[i])
		}
	})
	return m.docTopics
}

func (m *Model) scatter(dst, v []float64, p int) {
	copy(dst[:m.ks], v[:m.ks])
	copy(dst[m.ks+p*m.kc:m.ks+(p+1)*m.kc], v[m.ks:])
}

// Representations returns the compact N×(Ks+Kc) matrix (a copy) whose row
// n (corpus order) is v_n = [h_n; w_n] in document n's own class topics.
func (m *Model) Representations() *mat.Dense {
	out := mat.NewDense(len(m.pos), m.ks+m.kc, nil)
	for i, pos := range m.pos {
		copy(out.RawRowView(i), m.v.RawRowView(pos))
	}
	return out
}

// Shared is U0 (M×Ks view), nil when Ks = 0.
func (m *Model) Shared() *mat.Dense {
	if m.ks == 0 {
		return nil
	}
	return cols(m.u, 0, m.ks)
}

// ClassTopics is U_p (M×Kc view), nil when Kc = 0.
func (m *Model) ClassTopics(p int) *mat.Dense {
	if m.kc == 0 {
		return nil
	}
	return cols(m.u, m.ks+p*m.kc, m.ks+(p+1)*m.kc)
}

// TopicClass is −1 for a shared topic and the class of a class topic.
func (m *Model) TopicClass(k int) int {
	if k < m.ks {
		return -1
	}
	return (k - m.ks) / m.kc
}

// Dims returns Ks, Kc and P.
func (m *Model) Dims() (ks, kc, p int) { return m.ks, m.kc, m.np }

// ClassNames are the class names of the training corpus.
func (m *Model) ClassNames() []string { return m.classNames }

func (m *Model) project(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
	mm, _ := m.u.Dims()
	if err := grouping.CheckQueries("groupnmf", x, mm); err != nil {
		return nil, nil, nil, err
	}
	for q, val := range x.Val {
		if val < 0 {
			r, c := x.Locate(q)
			return nil, nil, nil, fmt.Errorf("groupnmf: fold-in: X[%d,%d] = %v, want non-negative", r, c, val)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	kt := m.ks + m.kc
	reps, errs, pred, err := grouping.FoldGroup(ctx, grouping.Group{Pool: m.pool, U: m.u, Ks: m.ks, Kc: m.kc, P: m.np,
		Sizes: m.sizes, Block: sparse.RowBlock, NewFolder: func() grouping.Folder {
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
				Fold: func(p int) float64 { return foldRow(v, xu, m.utu[p], den, x2, start, m.stop) }}
		}}, x, classes, wantErr)
	if err != nil {
		return nil, nil, nil, err
	}
	if r, c, bad := dense.FirstNonFinite(m.pool, reps); bad {
		return nil, nil, nil, fmt.Errorf("groupnmf: fold-in: document %d, topic %d: the update produced a non-finite value", r, c)
	}
	return reps, errs, pred, nil
}

// foldRow solves min_{v≥0} ‖x − Ũv‖² for one document by the fit's V
// update with Ũ fixed: v starts at start, xu = Ũᵀx, g = ŨᵀŨ (packed),
// x2 = ‖x‖², den scratch; each step v_j ← v_j·(xu_j + ε)/(den_j + ε) with
// den = g·v, and the loss ‖x‖² − 2vᵀŨᵀx + vᵀ(ŨᵀŨ)v (compensated) is
// tested with stop at the iterations stop.Evaluate selects. It returns
// the loss at the final v. This is engine/nmf's fold-in rule step for
// step, so with one class and Kc = 0 the result is nmf's bit for bit.
func foldRow(v, xu, g, den []float64, x2, start float64, stop engine.Stopping) float64 {
	for j := range v {
		v[j] = start
	}
	mulVecSym(den, v, g)
	loss := func() float64 {
		var s dense.Sum
		s.Add(x2)
		for j := range v {
			s.Add(-2 * v[j] * xu[j])
			s.Add(v[j] * den[j])
		}
		return math.Max(s.Value(), 0)
	}
	prev := math.NaN()
	for t := 1; t <= stop.Iterations(); t++ {
		for j := range v {
			v[j] *= (xu[j] + Eps) / (den[j] + Eps)
		}
		mulVecSym(den, v, g)
		if !stop.Evaluate(t) {
			continue
		}
		f := loss()
		if stop.Converged(prev, f) {
			return f
		}
		prev = f
	}
	return loss()
}

// mulVecSym sets dst = g·v for the symmetric k×k g (row-major).
func mulVecSym(dst, v, g []float64) {
	k := len(v)
	for j := 0; j < k; j++ {
		row := g[j*k : j*k+k]
		acc := 0.0
		for i, vi := range v {
			acc += row[i] * vi
		}
		dst[j] = acc
	}
}
