package grouprlsi

import (
	"context"
	"fmt"
	"sync"

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
	u          *mat.Dense // M×K = [U0 | U_1 … U_P]
	v          *mat.Dense // N×(Ks+Kc), class-major rows
	pos        []int      // corpus index → class-major row of v
	labels     []int      // corpus index → class
	sizes      []int      // training documents per class
	classNames []string
	ks, kc, np int
	lambda2    float64
	pool       *parallel.Pool
	sigma      []*mat.Dense // per class (Ũ_pᵀŨ_p + λ2 I)⁻¹
	sigmaErr   []error

	grouping.FoldMethods

	once      sync.Once
	docTopics *mat.Dense
}

func newModel(s *solver) *Model {
	lay := s.lay
	m := &Model{u: s.u, v: s.v, pos: lay.Pos, labels: make([]int, lay.N), sizes: make([]int, lay.P),
		classNames: lay.ClassNames, ks: s.ks, kc: s.kc, np: s.np, lambda2: s.set.lambda2, pool: s.set.pool,
		sigma: make([]*mat.Dense, s.np), sigmaErr: make([]error, s.np)}
	m.FoldMethods = grouping.FoldMethods{Who: "grouprlsi", P: s.np, Project: m.project}
	for n, pos := range lay.Pos {
		m.labels[n] = int(lay.ClassOf[pos])
	}
	for p := range m.sizes {
		m.sizes[p] = lay.Size(p)
	}
	// Same kernels and inputs as the last UpdateV: the same bits.
	kt := s.ks + s.kc
	utu := make([]*mat.Dense, s.np)
	for p := range utu {
		utu[p] = mat.NewDense(kt, kt, nil)
	}
	grouping.TopicGrams(m.pool, m.u, s.ks, s.kc, utu)
	for p := range utu {
		m.sigma[p], m.sigmaErr[p] = solve.RidgeInverse(utu[p], m.lambda2)
	}
	return m
}

// TermTopics is U = [U0 | U_1 … U_P] (M×K, K = Ks + P·Kc). It is the
// model's own matrix, not a copy.
func (m *Model) TermTopics() *mat.Dense { return m.u }

// DocTopics is the N×K matrix whose row n (corpus order) holds document n's
// representation v_n = [h_n; w_n] in the columns of its topics: the Ks
// shared columns and the Kc columns of its class; the other columns are 0.
// It is built on first call (N·K values); Representations gives the
// compact form.
func (m *Model) DocTopics() *mat.Dense {
	m.once.Do(func() {
		n := len(m.pos)
		if n == 0 {
			m.docTopics = &mat.Dense{}
			return
		}
		k := m.ks + m.np*m.kc
		m.docTopics = mat.NewDense(n, k, nil)
		for i, pos := range m.pos {
			m.scatter(m.docTopics.RawRowView(i), m.v.RawRowView(pos), m.labels[i])
		}
	})
	return m.docTopics
}

// scatter writes the compact representation v (Ks+Kc) of a document of
// class p into its columns of a K-wide row.
func (m *Model) scatter(dst, v []float64, p int) {
	copy(dst[:m.ks], v[:m.ks])
	copy(dst[m.ks+p*m.kc:m.ks+(p+1)*m.kc], v[m.ks:])
}

// Representations returns the compact N×(Ks+Kc) matrix (a copy) whose row n
// (corpus order) is v_n = [h_n; w_n] of GMF §3.1 for document n in its own
// class's topics.
func (m *Model) Representations() *mat.Dense {
	n := len(m.pos)
	if n == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(n, m.ks+m.kc, nil)
	for i, pos := range m.pos {
		copy(out.RawRowView(i), m.v.RawRowView(pos))
	}
	return out
}

// Shared is U0 (M×Ks view of TermTopics), nil when Ks = 0.
func (m *Model) Shared() *mat.Dense {
	if m.ks == 0 {
		return nil
	}
	return cols(m.u, 0, m.ks)
}

// ClassTopics is U_p (M×Kc view of TermTopics), nil when Kc = 0.
func (m *Model) ClassTopics(p int) *mat.Dense {
	if m.kc == 0 {
		return nil
	}
	return cols(m.u, m.ks+p*m.kc, m.ks+(p+1)*m.kc)
}

// TopicClass is −1 for a shared topic k (k < Ks) and the class of a
// class-specific topic otherwise.
func (m *Model) TopicClass(k int) int {
	if k < m.ks {
		return -1
	}
	return (k - m.ks) / m.kc
}

// Dims returns Ks, Kc and the number of classes P.
func (m *Model) Dims() (ks, kc, p int) { return m.ks, m.kc, m.np }

// ClassNames are the class names of the training corpus.
func (m *Model) ClassNames() []string { return m.classNames }

// Lambda2 is λ2 as used.
func (m *Model) Lambda2() float64 { return m.lambda2 }

// project folds in the rows of X: with classes[i] ≥ 0 in that class, else
// in the predicted class; it also returns E (when wantErr) and the classes
// used.
func (m *Model) project(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
	mm, _ := m.u.Dims()
	if err := grouping.CheckQueries("grouprlsi", x, mm); err != nil {
		return nil, nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	for p, err := range m.sigmaErr {
		if err != nil {
			return nil, nil, nil, fmt.Errorf("grouprlsi: class %d: (Ũ_pᵀŨ_p + λ2 I)⁻¹: %v", p, err)
		}
	}
	kt := m.ks + m.kc
	return grouping.FoldGroup(ctx, grouping.Group{Pool: m.pool, U: m.u, Ks: m.ks, Kc: m.kc, P: m.np,
		Sizes: m.sizes, Block: 64, NewFolder: func() grouping.Folder {
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
