package groupnmf

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/nmf"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// PerClassOptions configure CNMF, the per-class baseline of GMF §7.3: one
// NMF model (engine/nmf, random initialization) per class, trained on that
// class's documents only, with no shared topics. The zero value is valid.
// PerClassOptions implements engine.Method; its Fit needs a labelled
// corpus.
//
// Topics per class. GMF §7.3 trains CNMF "under the same parameter
// settings in Section 7.1, except parameter Ks": each class's model has Kc
// topics (the default, Ks = 0); Ks > 0 gives each class Ks + Kc topics, as
// many as a document sees in Group NMF. A class's model has
// min(Ks + Kc, M, N_p) topics (engine/nmf needs K ≤ min(M, N)); a class
// with no documents has no model.
type PerClassOptions struct {
	// Kc is the number of topics of each class's model; 0 means DefaultKc.
	Kc int
	// Ks adds Ks more topics to each class's model (0, the paper's
	// setting: none).
	Ks int
	// Stopping applies to every class's fit (and its fold-in).
	Stopping engine.Stopping
	// Seed: class p's model is seeded with grouping.ClassSeed(Seed, p).
	Seed uint64
	// Pool runs each class's fit (one class computes at a time, using the
	// whole pool); nil means parallel.Default().
	Pool *parallel.Pool
}

// Name is the registry name, "cnmf".
func (o PerClassOptions) Name() string { return "cnmf" }

// ClassOptions returns the engine/nmf options of class p's model when the
// class has np documents and the corpus m terms.
func (o PerClassOptions) ClassOptions(p, m, np int) (nmf.Options, error) {
	const who = "cnmf"
	kc, err := topicCount(who, "Kc", o.Kc, DefaultKc)
	if err != nil {
		return nmf.Options{}, err
	}
	if o.Ks < 0 {
		return nmf.Options{}, fmt.Errorf("%s: Ks = %d, want ≥ 0", who, o.Ks)
	}
	k := kc + o.Ks
	if k < 1 {
		return nmf.Options{}, fmt.Errorf("%s: Ks + Kc = %d, want ≥ 1", who, k)
	}
	if err := o.Stopping.Validate(); err != nil {
		return nmf.Options{}, fmt.Errorf("%s: Stopping: %w", who, err)
	}
	return nmf.Options{K: min(k, m, max(np, 1)), Stopping: o.Stopping, Init: nmf.InitRandom,
		Seed: grouping.ClassSeed(o.Seed, p), Pool: o.Pool}, nil
}

// Fit trains one NMF model per class (see PerClassOptions), the classes
// in lockstep on the pool (grouping.RunClasses): iteration t of every
// class, then the merged iteration t is recorded (loss summed over
// classes), so progress is live and cancelling stops every class after the
// same iteration. The status merges the classes' (grouping.MergeStatus).
// Each class's fit depends on its documents and seed alone, so the result
// is the same bits for any number of workers.
func (o PerClassOptions) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	if _, err := o.ClassOptions(0, 1, 1); err != nil {
		return nil, engine.Status{}, err
	}
	lay, err := grouping.New(c, "cnmf")
	if err != nil {
		return nil, engine.Status{}, err
	}
	pool := o.Pool
	if pool == nil {
		pool = parallel.Default()
	}
	o.Pool = pool
	opts := make([]nmf.Options, lay.P)
	subs := make([]*engine.Corpus, lay.P)
	for p := 0; p < lay.P; p++ {
		if opts[p], err = o.ClassOptions(p, lay.M, lay.Size(p)); err != nil {
			return nil, engine.Status{}, err
		}
		if lay.Size(p) == 0 {
			continue
		}
		if subs[p], err = lay.ClassCorpus(c, p); err != nil {
			return nil, engine.Status{}, fmt.Errorf("cnmf: class %s: %w", lay.ClassNames[p], err)
		}
	}
	kper, _ := o.ClassOptions(0, math.MaxInt, math.MaxInt)
	models := make([]*nmf.Model, lay.P)
	var classes []int
	for q := 0; q < lay.P; q++ {
		if lay.Size(q) > 0 {
			classes = append(classes, q)
		}
	}
	runs, err := grouping.RunClasses(classes, func(q int, rec *engine.Recorder) (engine.Status, error) {
		m, st, err := opts[q].Fit(ctx, subs[q], rec)
		if err != nil {
			return st, fmt.Errorf("cnmf: class %s: %w", lay.ClassNames[q], err)
		}
		models[q] = m.(*nmf.Model)
		return st, nil
	}, func(q int) []float64 {
		k := float64(opts[q].K)
		return []float64{float64(lay.M) * k, float64(lay.Size(q)) * k}
	}, rec)
	if err != nil {
		return nil, engine.Status{}, err
	}
	st := grouping.MergeStatus(runs, lay.ClassNames)
	pm := &PerClassModel{models: models, k: kper.K, m: lay.M, pool: pool, classNames: lay.ClassNames,
		labels: make([]int, lay.N), row: make([]int, lay.N)}
	for n, pos := range lay.Pos {
		p := int(lay.ClassOf[pos])
		pm.labels[n] = p
		pm.row[n] = pos - lay.Offset[p]
	}
	pm.u = mat.NewDense(lay.M, lay.P*pm.k, nil)
	for p, cm := range models {
		if cm != nil {
			u := cm.TermTopics()
			_, kp := u.Dims()
			pm.u.Slice(0, lay.M, p*pm.k, p*pm.k+kp).(*mat.Dense).Copy(u)
		}
	}
	return pm, st, nil
}

// PerClassModel is a fitted CNMF model: one NMF model per class. It
// implements engine.Model with K = P·Kper topics (Kper = Kc + Ks): class p's
// topics are columns [p·Kper, p·Kper + K_p) of TermTopics, the rest of its
// Kper columns zero when the class had fewer documents than Kper.
type PerClassModel struct {
	models     []*nmf.Model // nil for a class without documents
	k, m       int          // Kper, M
	u          *mat.Dense
	pool       *parallel.Pool
	classNames []string
	labels     []int // corpus index → class
	row        []int // corpus index → row in its class's model

	once      sync.Once
	docTopics *mat.Dense
}

// ClassModel is class p's NMF model (nil when the class had no documents).
func (m *PerClassModel) ClassModel(p int) *nmf.Model { return m.models[p] }

// TopicsPerClass is Kper.
func (m *PerClassModel) TopicsPerClass() int { return m.k }

// ClassNames are the class names of the training corpus.
func (m *PerClassModel) ClassNames() []string { return m.classNames }

// TermTopics is [U_1 … U_P] (M × P·Kper). It is the model's own matrix.
func (m *PerClassModel) TermTopics() *mat.Dense { return m.u }

// DocTopics is N × P·Kper (corpus order): row n holds document n's
// representation from its class's model in that class's columns.
func (m *PerClassModel) DocTopics() *mat.Dense {
	m.once.Do(func() {
		n := len(m.labels)
		if n == 0 {
			m.docTopics = &mat.Dense{}
			return
		}
		m.docTopics = mat.NewDense(n, len(m.models)*m.k, nil)
		for i, p := range m.labels {
			copy(m.docTopics.RawRowView(i)[p*m.k:], m.models[p].DocTopics().RawRowView(m.row[i]))
		}
	})
	return m.docTopics
}

// FoldIn represents new documents of unknown class: each is assigned the
// class ŷ = argmin_p E(d; U_p), E(d; U_p) = min_{v≥0} ‖d − U_pv‖² (the
// rule of GMF §5.3 applied to the class models, the minimum being the loss
// at the class model's fold-in), and folded in by that
// class's NMF model. It returns an n × P·Kper matrix laid out like
// DocTopics.
func (m *PerClassModel) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	reps, _, _, err := m.project(ctx, x, nil, false)
	return reps, err
}

// FoldInClass folds in documents of known class (classes[i], or −1 to
// predict it) by that class's NMF model (nmf.Model.FoldIn; the query of GMF §7.3 is assigned the class of the
// document it is matched with).
func (m *PerClassModel) FoldInClass(ctx context.Context, x *sparse.CSR, classes []int) (*mat.Dense, error) {
	if x != nil && len(classes) != x.Rows {
		return nil, fmt.Errorf("cnmf: FoldInClass: %d classes for %d documents", len(classes), x.Rows)
	}
	for i, c := range classes {
		if c < -1 || c >= len(m.models) || (c >= 0 && m.models[c] == nil) {
			return nil, fmt.Errorf("cnmf: FoldInClass: document %d has class %d, want −1 or a trained class in 0..%d", i, c, len(m.models)-1)
		}
	}
	reps, _, _, err := m.project(ctx, x, classes, false)
	return reps, err
}

// ReconstructionErrors returns the n×P matrix of E(d; U_p) (+Inf for a
// class without a model).
func (m *PerClassModel) ReconstructionErrors(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	_, e, _, err := m.project(ctx, x, nil, true)
	return e, err
}

// PredictClasses returns argmin_p E(d; U_p) for every row of X (ties to the
// lowest class).
func (m *PerClassModel) PredictClasses(ctx context.Context, x *sparse.CSR) ([]int, error) {
	_, _, pred, err := m.project(ctx, x, nil, false)
	return pred, err
}

func (m *PerClassModel) project(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
	if err := grouping.CheckQueries("cnmf", x, m.m); err != nil {
		return nil, nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	n, np := x.Rows, len(m.models)
	pred := make([]int, n)
	if n == 0 {
		return &mat.Dense{}, &mat.Dense{}, pred, nil
	}
	need := make([]bool, np) // classes to fold every row into
	for p, cm := range m.models {
		need[p] = cm != nil && (classes == nil || wantErr)
	}
	for _, c := range classes {
		if c < 0 {
			for p, cm := range m.models {
				need[p] = need[p] || cm != nil
			}
			break
		}
	}
	for _, c := range classes {
		if c >= 0 {
			need[c] = true
		}
	}
	vs := make([]*mat.Dense, np)
	es := make([][]float64, np)
	norms := make([]float64, n)
	for i := range norms {
		_, val := x.Row(i)
		for _, a := range val {
			norms[i] += a * a
		}
	}
	for p, cm := range m.models {
		if !need[p] {
			continue
		}
		v, err := cm.FoldIn(ctx, x)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("cnmf: class %s: %w", m.classNames[p], err)
		}
		vs[p] = v
		// E = ‖d − U_pv‖² = ‖d‖² − 2vᵀU_pᵀd + vᵀ(U_pᵀU_p)v at the fold-in's v.
		_, kp := v.Dims()
		phi := mat.NewDense(n, kp, nil)
		sparse.MulDense(m.pool, phi, x, cm.TermTopics())
		g := mat.NewDense(kp, kp, nil)
		dense.Gram(m.pool, g, cm.TermTopics())
		gv := make([]float64, kp)
		es[p] = make([]float64, n)
		for i := 0; i < n; i++ {
			pr, vr := phi.RawRowView(i), v.RawRowView(i)
			mulVecSym(gv, vr, g.RawMatrix().Data)
			var e dense.Sum
			e.Add(norms[i])
			for j, a := range pr {
				e.Add(-2 * vr[j] * a)
				e.Add(vr[j] * gv[j])
			}
			es[p][i] = math.Max(e.Value(), 0)
		}
	}
	var errs *mat.Dense
	if wantErr {
		errs = mat.NewDense(n, np, nil)
	}
	reps := mat.NewDense(n, np*m.k, nil)
	for i := 0; i < n; i++ {
		given := -1
		if classes != nil {
			given = classes[i]
		}
		best, bestE := -1, math.Inf(1)
		for p := range m.models {
			if es[p] == nil {
				if wantErr {
					errs.Set(i, p, math.Inf(1))
				}
				continue
			}
			if wantErr {
				errs.Set(i, p, es[p][i])
			}
			if best < 0 || es[p][i] < bestE {
				best, bestE = p, es[p][i]
			}
		}
		if given >= 0 {
			best = given
		}
		pred[i] = best
		if best >= 0 {
			copy(reps.RawRowView(i)[best*m.k:], vs[best].RawRowView(i))
		}
	}
	return reps, errs, pred, nil
}
