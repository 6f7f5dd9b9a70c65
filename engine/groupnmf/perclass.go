package groupnmf

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/nmf"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/solve"
	"gonum.org/v1/gonum/mat"
)

// PerClassOptions configure CNMF, the per-class baseline of GMF §7.3: one
// NMF model (engine/nmf, random initialization) per class, trained on that
// class's documents only, with no shared topics. PerClassOptions
// implements engine.Method; its Fit needs a labelled corpus. Its declared
// fields are the parameters of the "cnmf" catalog family (engine/param);
// DefaultsPerClass returns Kc = 8, Ks = 0 and the engine's default
// stopping rule.
//
// Topics per class. GMF §7.3 trains CNMF "under the same parameter
// settings in Section 7.1, except parameter Ks": each class's model has Kc
// topics (the default, Ks = 0); Ks > 0 gives each class Ks + Kc topics, as
// many as a document sees in Group NMF. A class's model has
// min(Ks + Kc, M, N_p) topics (engine/nmf needs K ≤ min(M, N)); a class
// with no documents, or only empty ones, has no model. The merged model's
// K = P·(Ks + Kc) is bounded by memory only (grouping.Layout.checkMerged).
type PerClassOptions struct {
	// Kc is the number of topics of each class's model (0: none).
	Kc int `param:"kc" default:"8" range:"[0,inf)" doc:"number of topics of each class's NMF model (GMF §7.3: Kc)"`
	// Ks adds Ks more topics to each class's model (0, the paper's
	// setting: none).
	Ks int `param:"ks" default:"0" range:"[0,inf)" doc:"extra topics per class model (0, the paper's setting; Ks gives each class Ks + Kc topics)"`
	// Stopping applies to every class's fit (and its fold-in).
	Stopping engine.Stopping `param:"iters,tol"`
	// Seed: class p's model is seeded with grouping.ClassSeed(Seed, p).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random initialization"`
	// Pool runs each class's fit (one class computes at a time, using the
	// whole pool); nil means parallel.Default().
	Pool *parallel.Pool
}

// DefaultsPerClass returns the declared defaults of every parameter (the
// tags of PerClassOptions).
func DefaultsPerClass() PerClassOptions { return param.DefaultsOf[PerClassOptions]() }

// Check reports a parameter outside its range, or Ks = Kc = 0; it needs no
// corpus.
func (o PerClassOptions) Check() error { return grouping.CheckTopics("cnmf", o, o.Ks, o.Kc) }

// Name is the registry name, "cnmf".
func (o PerClassOptions) Name() string { return "cnmf" }

// ClassOptions returns the engine/nmf options of class p's model when the
// class has np documents and the corpus m terms.
func (o PerClassOptions) ClassOptions(p, m, np int) (nmf.Options, error) {
	if err := o.Check(); err != nil {
		return nmf.Options{}, err
	}
	if err := o.Stopping.Validate(); err != nil {
		return nmf.Options{}, fmt.Errorf("cnmf: Stopping: %w", err)
	}
	return nmf.Options{K: min(o.Ks+o.Kc, m, max(np, 1)), Stopping: o.Stopping, Init: nmf.InitRandom,
		Seed: grouping.ClassSeed(o.Seed, p), Pool: o.Pool}, nil
}

// Fit trains one NMF model per class (see PerClassOptions) by
// grouping.FitPerClass: the classes in lockstep on the pool, the merged
// iteration (loss summed over classes) recorded after each, the same bits
// for any number of workers.
func (o PerClassOptions) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	if err := c.CheckNonNegative("cnmf"); err != nil {
		return nil, engine.Status{}, err
	}
	return grouping.FitPerClassOf[*nmf.Model](ctx, c, rec, o.used(), o.Pool, o.classMethod, classLoss)
}

// PerClassModel is a fitted CNMF model: one NMF model per class. It
// implements engine.Model with K = P·Kper topics (Kper = Kc + Ks): class p's
// topics are columns [p·Kper, p·Kper + K_p) of TermTopics, the rest of its
// Kper columns zero when the class had fewer documents than Kper.
//
// Its FoldIn assigns each new document the class ŷ = argmin_p E(d; U_p),
// E(d; U_p) = min_{v≥0} ‖d − U_pv‖² (the rule of GMF §5.3 applied to the
// class models, the minimum being the loss at the class model's fold-in,
// nmf.Model.FoldIn), and folds it in by that class's NMF model;
// FoldInClass, ReconstructionErrors and PredictClasses are those of
// grouping.PerClass with this E. ClassModel(p) is class p's NMF model (nil
// when the class had no documents).
type PerClassModel = grouping.PerClassOf[*nmf.Model]

// classLoss is E = ‖d − U_pv‖² = ‖d‖² − 2vᵀU_pᵀd + vᵀ(U_pᵀU_p)v at the
// fold-in's v (compensated sum, clamped at 0).
func classLoss(pool *parallel.Pool, u, phi, v *mat.Dense, norms []float64) []float64 {
	n, kp := v.Dims()
	g := mat.NewDense(kp, kp, nil)
	dense.Gram(pool, g, u)
	gv := make([]float64, kp)
	es := make([]float64, n)
	for i := 0; i < n; i++ {
		pr, vr := phi.RawRowView(i), v.RawRowView(i)
		solve.MulSym(gv, g.RawMatrix().Data, vr)
		var e dense.Sum
		e.Add(norms[i])
		for j, a := range pr {
			e.Add(-2 * vr[j] * a)
			e.Add(vr[j] * gv[j])
		}
		es[i] = math.Max(e.Value(), 0)
	}
	return es
}
