package grouping

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// ClassMethod returns the single-class method (e.g. engine/nmf or
// engine/rlsi options) that fits class p's model of a per-class baseline
// when the class has np documents and the corpus m terms, and that model's
// number of topics K_p.
type ClassMethod func(p, m, np int) (engine.Method, int, error)

// ClassLoss returns E(d_i; U_p) for every new document d_i given class p's
// term-topic matrix u (M×K_p), phi = XU_p (n×K_p), the rows v (n×K_p) of the
// class model's fold-in and norms[i] = ‖d_i‖². It is the family-specific
// part of a per-class baseline's class prediction.
type ClassLoss func(pool *parallel.Pool, u, phi, v *mat.Dense, norms []float64) []float64

// FitPerClass fits a per-class baseline (CRLSI, CNMF; GMF §7.3): one
// single-class model per non-empty class, method(p, M, N_p) trained on
// ClassCorpus(p), the classes in lockstep on the pool (RunClasses): iteration
// t of every class, then the merged iteration t is recorded in rec (MergeAt),
// so progress is live and cancelling stops every class after the same
// iteration. The status merges the classes' (MergeStatus). A class with
// no documents, or whose documents are all empty, has no model (its
// documents read E = +Inf). The merged model's factors, P·Kper topics,
// must fit in memory (checkMerged), or nothing is fitted. opts are the
// baseline's options (its name names it in errors; PerClass.Save records
// them); method(0, ∞, ∞) (math.MaxInt) checks the options
// before the corpus is read and gives the number of topics per class
// (Kper); pool (nil: parallel.Default()) runs the classes and the fold-in;
// loss gives the model's class prediction rule. Each class's fit depends on
// its documents and seed alone, so the result is the same bits for any
// number of workers.
func FitPerClass(ctx context.Context, c *engine.Corpus, rec *engine.Recorder, opts engine.Method,
	pool *parallel.Pool, method ClassMethod, loss ClassLoss) (*PerClass, engine.Status, error) {
	who := opts.Name()
	_, kper, err := method(0, math.MaxInt, math.MaxInt)
	if err != nil {
		return nil, engine.Status{}, err
	}
	if pool == nil {
		pool = parallel.Default()
	}
	lay, err := New(c, who)
	if err != nil {
		return nil, engine.Status{}, err
	}
	if err := lay.checkMerged(who, kper); err != nil {
		return nil, engine.Status{}, err
	}
	classOpts := make([]engine.Method, lay.P)
	ks := make([]int, lay.P)
	subs := make([]*engine.Corpus, lay.P)
	for p := 0; p < lay.P; p++ {
		if classOpts[p], ks[p], err = method(p, lay.M, lay.Size(p)); err != nil {
			return nil, engine.Status{}, err
		}
		if lay.Size(p) == 0 {
			continue
		}
		if subs[p], err = lay.ClassCorpus(c, p); err != nil {
			return nil, engine.Status{}, fmt.Errorf("%s: class %s: %w", who, lay.ClassNames[p], err)
		}
		if !slices.ContainsFunc(subs[p].D.Val, func(v float64) bool { return v != 0 }) {
			subs[p] = nil // all its documents are empty: nothing to factor, no model
		}
	}
	models := make([]engine.Model, lay.P)
	var classes []int
	for q := 0; q < lay.P; q++ {
		if subs[q] != nil {
			classes = append(classes, q)
		}
	}
	runs, err := RunClasses(classes, func(q int, rec *engine.Recorder) (engine.Status, error) {
		m, st, err := classOpts[q].Fit(ctx, subs[q], rec)
		if err != nil {
			return st, fmt.Errorf("%s: class %s: %w", who, lay.ClassNames[q], err)
		}
		models[q] = m
		return st, nil
	}, func(q int) []float64 {
		k := float64(ks[q])
		return []float64{float64(lay.M) * k, float64(lay.Size(q)) * k}
	}, rec)
	if err != nil {
		return nil, engine.Status{}, err
	}
	return newPerClass(opts, lay, models, kper, pool, loss), MergeStatus(runs, lay.ClassNames), nil
}

// newPerClass is the per-class baseline with the options opts of the
// class models (nil for a class without one) on the layout lay.
func newPerClass(opts engine.Method, lay *Layout, models []engine.Model, kper int, pool *parallel.Pool, loss ClassLoss) *PerClass {
	who := opts.Name()
	pm := &PerClass{who: who, opts: opts, models: models, k: kper, pool: pool, classNames: lay.ClassNames,
		labels: make([]int, lay.N), row: make([]int, lay.N), loss: loss}
	pm.FoldMethods = FoldMethods{Who: who, P: lay.P, Terms: lay.M, Trained: func(c int) bool { return pm.models[c] != nil }, Project: pm.project}
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
	return pm
}

// checkMerged is the check of a per-class baseline's merged model, made
// before any class is fitted: each class's model has min(Kper, M, N_p)
// topics, so only memory bounds the P·Kper columns of [U_1 … U_P]
// (engine.CheckMemory; a width beyond the int range does not fit).
func (l *Layout) checkMerged(who string, kper int) error {
	k, _ := sum(0, l.P, kper)
	return engine.CheckMemory(who, k, kper, l.M, l.N)
}

// PerClassOf is a fitted per-class baseline whose class models are of
// type M (*nmf.Model for CNMF, *rlsi.Model for CRLSI): PerClass with the
// class models typed.
type PerClassOf[M engine.Model] struct {
	*PerClass
}

// ClassModel is class p's model (nil when the class had no documents).
func (m *PerClassOf[M]) ClassModel(p int) M {
	cm, _ := m.Class(p).(M)
	return cm
}

// FitPerClassOf is FitPerClass for class models of type M: the Fit of the
// per-class baselines, returning a *PerClassOf[M] (nil on an error).
func FitPerClassOf[M engine.Model](ctx context.Context, c *engine.Corpus, rec *engine.Recorder, opts engine.Method,
	pool *parallel.Pool, method ClassMethod, loss ClassLoss) (engine.Model, engine.Status, error) {
	pc, st, err := FitPerClass(ctx, c, rec, opts, pool, method, loss)
	if err != nil {
		return nil, engine.Status{}, err
	}
	return &PerClassOf[M]{pc}, st, nil
}

// PerClass is a fitted per-class baseline: one single-class model per
// class. It implements engine.Model with K = P·Kper topics: class p's topics
// are columns [p·Kper, p·Kper + K_p) of TermTopics, the rest of its Kper
// columns zero when the class had fewer documents than Kper. The families'
// models (grouprlsi.PerClassModel, groupnmf.PerClassModel) are PerClassOf
// their class models, which embeds it.
//
// Its fold-in methods (FoldMethods) assign a new document of unknown class
// the class ŷ = argmin_p E(d; U_p) (the rule of GMF §4.3/§5.3 applied to
// the class models, E as the family's ClassLoss defines it) and fold it in
// by that class's model; a given class (FoldInClass, the query of GMF §7.3
// being assigned the class of the document it is matched with) must have a
// model; ReconstructionErrors reads +Inf for a class without a model.
type PerClass struct {
	who        string
	opts       engine.Method  // the baseline's options (Save)
	models     []engine.Model // nil for a class without documents
	k          int            // Kper
	u          *mat.Dense
	pool       *parallel.Pool
	classNames []string
	labels     []int // corpus index → class
	row        []int // corpus index → row in its class's model
	loss       ClassLoss
	FoldMethods

	once      sync.Once
	docTopics *mat.Dense
}

// Class is class p's model (nil when the class had no documents).
func (m *PerClass) Class(p int) engine.Model { return m.models[p] }

// TopicsPerClass is Kper.
func (m *PerClass) TopicsPerClass() int { return m.k }

// ClassNames are the class names of the training corpus.
func (m *PerClass) ClassNames() []string { return m.classNames }

// TermTopics is [U_1 … U_P] (M × P·Kper). It is the model's own matrix.
func (m *PerClass) TermTopics() *mat.Dense { return m.u }

// DocTopics is N × P·Kper (corpus order): row n holds document n's
// representation from its class's model in that class's columns.
func (m *PerClass) DocTopics() *mat.Dense {
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

func (m *PerClass) project(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
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
			return nil, nil, nil, fmt.Errorf("%s: class %s: %w", m.who, m.classNames[p], err)
		}
		vs[p] = v
		_, kp := v.Dims()
		phi := mat.NewDense(n, kp, nil)
		sparse.MulDense(m.pool, phi, x, cm.TermTopics())
		es[p] = m.loss(m.pool, cm.TermTopics(), phi, v, norms)
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
