package grouprlsi

import (
	"context"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/rlsi"
	"gonum.org/v1/gonum/mat"
)

// PerClassOptions configure CRLSI, the per-class baseline of GMF §7.3: one
// RLSI model (engine/rlsi, Uℓ1-Vℓ2, Eq. 1 of the RLSI paper) per class,
// trained on that class's documents only, with no shared topics.
// PerClassOptions implements engine.Method; its Fit needs a labelled
// corpus. Its declared fields are the parameters of the "crlsi" catalog
// family (engine/param); DefaultsPerClass returns Kc = 8, Ks = 0,
// λ1 = 0.01, λ2 = 0.1, the engine's default stopping rule and engine/rlsi's
// inner-loop defaults.
//
// Topics per class. GMF §7.3 trains CRLSI "under the same parameter
// settings in Section 7.1, except parameter Ks, as there exists no shared
// topic": each class's model has Kc topics (the default, Ks = 0). Setting
// Ks > 0 gives each class Ks + Kc topics, as many as a document sees in
// GRLSI. A class's model has min(Ks + Kc, M, N_p) topics, since engine/rlsi
// needs K ≤ min(M, N) (a class of 5 documents gets 5 topics); a class with
// no documents, or only empty ones, has no model. The merged model's K =
// P·(Ks + Kc) is bounded by memory only (grouping.Layout.checkMerged).
type PerClassOptions struct {
	// Kc is the number of topics of each class's model (0: none).
	Kc int `param:"kc" default:"8" range:"[0,inf)" doc:"number of topics of each class's RLSI model (GMF §7.3: Kc)"`
	// Ks adds Ks more topics to each class's model (0, the paper's
	// setting: none).
	Ks int `param:"ks" default:"0" range:"[0,inf)" doc:"extra topics per class model (0, the paper's setting; Ks gives each class Ks + Kc topics)"`
	// Lambda1, Lambda2: as in Options.
	Lambda1 float64 `param:"lambda1" default:"0.01" range:"[0,inf)" doc:"λ1 ≥ 0, weight of the ℓ1 norms of the topics (GMF §7.1: 0.01–0.1)"`
	Lambda2 float64 `param:"lambda2" default:"0.1" range:"[0,inf)" doc:"λ2 ≥ 0, weight of the squared ℓ2 norms of the document representations (GMF §7.1: 0.1)"`
	// Stopping, InnerSweeps, InnerTol, ColdStart apply to every class's fit
	// (engine/rlsi's meaning of each).
	Stopping    engine.Stopping `param:"iters,tol"`
	InnerSweeps int             `param:"inner-sweeps" default:"100" range:"[1,inf)" doc:"maximum coordinate-descent sweeps per row of an ℓ1 update"`
	InnerTol    float64         `param:"inner-tol" default:"1e-5" doc:"a row's sweeps stop when its largest change ≤ inner-tol × its largest magnitude; 0 or negative runs all sweeps"`
	ColdStart   bool
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
func (o PerClassOptions) Check() error { return grouping.CheckTopics("crlsi", o, o.Ks, o.Kc) }

// Name is the registry name, "crlsi".
func (o PerClassOptions) Name() string { return "crlsi" }

// ClassOptions returns the engine/rlsi options of class p's model when the
// class has np documents and the corpus m terms.
func (o PerClassOptions) ClassOptions(p, m, np int) (rlsi.Options, error) {
	if err := o.Check(); err != nil {
		return rlsi.Options{}, err
	}
	return rlsi.Options{K: min(o.Ks+o.Kc, m, max(np, 1)), Lambda1: o.Lambda1, Lambda2: o.Lambda2, Variant: rlsi.U1V2, Stopping: o.Stopping,
		InnerSweeps: o.InnerSweeps, InnerTol: o.InnerTol, ColdStart: o.ColdStart,
		Seed: grouping.ClassSeed(o.Seed, p), Pool: o.Pool}, nil
}

// Fit trains one RLSI model per class (see PerClassOptions) by
// grouping.FitPerClass: the classes in lockstep on the pool, the merged
// iteration (objective and terms summed over classes) recorded after each,
// the same bits for any number of workers.
func (o PerClassOptions) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	return grouping.FitPerClassOf[*rlsi.Model](ctx, c, rec, o.used(), o.Pool, o.classMethod, classLoss)
}

// PerClassModel is a fitted CRLSI model: one RLSI model per class. It
// implements engine.Model with K = P·Kper topics (Kper = Kc + Ks): class p's
// topics are columns [p·Kper, p·Kper + K_p) of TermTopics, the rest of its
// Kper columns zero when the class had fewer documents than Kper.
//
// Its FoldIn assigns each new document the class ŷ = argmin_p E(d; U_p),
// E(d; U_p) = min_v ‖d − U_pv‖² + λ2‖v‖² (the rule of GMF §4.3 applied to
// the class models), and folds it in by that class's RLSI model (RLSI §5);
// FoldInClass, ReconstructionErrors and PredictClasses are those of
// grouping.PerClass with this E. ClassModel(p) is class p's RLSI model
// (nil when the class had no documents).
type PerClassModel = grouping.PerClassOf[*rlsi.Model]

// classLoss is E = ‖d‖² − (U_pᵀd)ᵀv at the minimizer v of
// ‖d − U_pv‖² + λ2‖v‖².
func classLoss(_ *parallel.Pool, _, phi, v *mat.Dense, norms []float64) []float64 {
	n, _ := v.Dims()
	es := make([]float64, n)
	for i := 0; i < n; i++ {
		pr, vr := phi.RawRowView(i), v.RawRowView(i)
		e := norms[i]
		for j, a := range pr {
			e -= a * vr[j]
		}
		es[i] = e
	}
	return es
}
