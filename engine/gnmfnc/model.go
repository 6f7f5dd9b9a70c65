package gnmfnc

import (
	"context"
	"fmt"
	"math"
	"sync"

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
	u          *mat.Dense // M×K = [U_s | U_1 … U_P]
	v          *mat.Dense // N×(Ks+Kp), class-major rows
	pos        []int      // corpus index → class-major row
	labels     []int      // corpus index → category
	sizes      []int
	classNames []string
	ks, kp, np int
	pool       *parallel.Pool
	utu        []*mat.Dense // Ũ_pᵀŨ_p

	grouping.FoldMethods

	once      sync.Once
	docTopics *mat.Dense
}

func newModel(s *solver) *Model {
	lay := s.lay
	m := &Model{u: s.u, v: s.v, pos: lay.Pos, labels: make([]int, lay.N), sizes: make([]int, lay.P),
		classNames: lay.ClassNames, ks: s.ks, kp: s.kp, np: s.np, pool: s.set.pool, utu: s.squares(s.kt)}
	m.FoldMethods = grouping.FoldMethods{Who: "gnmfnc", P: s.np, Project: m.project}
	for n, pos := range lay.Pos {
		m.labels[n] = int(lay.ClassOf[pos])
	}
	for p := range m.sizes {
		m.sizes[p] = lay.Size(p)
	}
	grouping.TopicGrams(m.pool, m.u, s.ks, s.kp, m.utu)
	return m
}

// TermTopics is U = [U_s | U_1 … U_P] (M×K, K = Ks + P·Kp), the model's own.
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is N×K (corpus order): row n holds question n's v_n = [h_n;
// w_n] in the Ks shared columns and the Kp columns of its category, 0
// elsewhere. Built on first call.
func (m *Model) DocTopics() *mat.Dense {
	m.once.Do(func() {
		m.docTopics = mat.NewDense(len(m.pos), m.ks+m.np*m.kp, nil)
		for i, pos := range m.pos {
			m.scatter(m.docTopics.RawRowView(i), m.v.RawRowView(pos), m.labels[i])
		}
	})
	return m.docTopics
}

func (m *Model) scatter(dst, v []float64, p int) {
	copy(dst[:m.ks], v[:m.ks])
	copy(dst[m.ks+p*m.kp:m.ks+(p+1)*m.kp], v[m.ks:])
}

// Shared is U_s (M×Ks view).
func (m *Model) Shared() *mat.Dense { return cols(m.u, 0, m.ks) }

// ClassTopics is U_p (M×Kp view).
func (m *Model) ClassTopics(p int) *mat.Dense { return cols(m.u, m.ks+p*m.kp, m.ks+(p+1)*m.kp) }

// TopicClass is −1 for a shared topic and the category of a category topic.
func (m *Model) TopicClass(k int) int {
	if k < m.ks {
		return -1
	}
	return (k - m.ks) / m.kp
}

// Dims returns Ks, Kp and P.
func (m *Model) Dims() (ks, kp, p int) { return m.ks, m.kp, m.np }

// ClassNames are the category names of the training corpus.
func (m *Model) ClassNames() []string { return m.classNames }

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
	mm, _ := m.u.Dims()
	if err := grouping.CheckQueries("gnmfnc", x, mm); err != nil {
		return nil, nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	n, kt := x.Rows, m.ks+m.kp
	pred := make([]int, n)
	if n == 0 {
		return &mat.Dense{}, &mat.Dense{}, pred, nil
	}
	anyTrained := false
	for _, sz := range m.sizes {
		anyTrained = anyTrained || sz > 0
	}
	xu := mat.NewDense(n, m.ks+m.np*m.kp, nil) // row i = (Uᵀx_i)ᵀ
	sparse.MulDense(m.pool, xu, x, m.u)
	x2 := make([]float64, n)
	for i := range x2 {
		_, vals := x.Row(i)
		var s dense.Sum
		for _, a := range vals {
			s.Add(a * a)
		}
		x2[i] = s.Value()
	}
	errs := mat.NewDense(n, m.np, nil)
	best := make([]float64, n)
	for i := range best {
		best[i], pred[i] = math.Inf(1), -1
	}
	sol := make([][]float64, n) // the representation in pred[i]
	for p := 0; p < m.np; p++ {
		var rows []int
		for i := 0; i < n; i++ {
			given := -1
			if classes != nil {
				given = classes[i]
			}
			if given == p || ((given < 0 || wantErr) && (m.sizes[p] > 0 || !anyTrained)) {
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
			copy(dst[:m.ks], src[:m.ks])
			copy(dst[m.ks:], src[m.ks+p*m.kp:m.ks+(p+1)*m.kp])
		}
		sol0 := mat.NewDense(len(rows), kt, nil)
		if err := solve.NNLS(m.pool, sol0, m.utu[p], rhs); err != nil {
			return nil, nil, nil, fmt.Errorf("gnmfnc: fold-in into category %q: %w", m.classNames[p], err)
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
	reps := mat.NewDense(n, m.ks+m.np*m.kp, nil)
	for i := 0; i < n; i++ {
		if pred[i] >= 0 {
			m.scatter(reps.RawRowView(i), sol[i], pred[i])
		}
	}
	if !wantErr {
		errs = nil
	}
	return reps, errs, pred, nil
}
