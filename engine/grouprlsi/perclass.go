package grouprlsi

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rlsi"
	"gonum.org/v1/gonum/mat"
)

// PerClassOptions configure CRLSI, the per-class baseline of GMF §7.3: one
// RLSI model (engine/rlsi, Uℓ1-Vℓ2, Eq. 1 of the RLSI paper) per class,
// trained on that class's documents only, with no shared topics. The zero
// value is valid. PerClassOptions implements engine.Method; its Fit needs a
// labelled corpus.
//
// Topics per class. GMF §7.3 trains CRLSI "under the same parameter
// settings in Section 7.1, except parameter Ks, as there exists no shared
// topic": each class's model has Kc topics (the default, Ks = 0). Setting
// Ks > 0 gives each class Ks + Kc topics, as many as a document sees in
// GRLSI. A class's model has min(Ks + Kc, M, N_p) topics, since engine/rlsi
// needs K ≤ min(M, N) (a class of 5 documents gets 5 topics); a class with
// no documents has no model.
type PerClassOptions struct {
	// Kc is the number of topics of each class's model; 0 means DefaultKc.
	Kc int
	// Ks adds Ks more topics to each class's model (0, the paper's
	// setting: none).
	Ks int
	// Lambda1, Lambda2: as in Options (0 means DefaultLambda1/2).
	Lambda1, Lambda2 float64
	// Stopping, InnerSweeps, InnerTol, ColdStart apply to every class's fit.
	Stopping    engine.Stopping
	InnerSweeps int
	InnerTol    float64
	ColdStart   bool
	// Seed: class p's model is seeded with grouping.ClassSeed(Seed, p).
	Seed uint64
	// Pool runs each class's fit (one class computes at a time, using the
	// whole pool); nil means parallel.Default().
	Pool *parallel.Pool
}

// Name is the registry name, "crlsi".
func (o PerClassOptions) Name() string { return "crlsi" }

// ClassOptions returns the engine/rlsi options of class p's model when the
// class has np documents and the corpus m terms.
func (o PerClassOptions) ClassOptions(p, m, np int) (rlsi.Options, error) {
	const who = "crlsi"
	kc, err := topicCount(who, "Kc", o.Kc, DefaultKc)
	if err != nil {
		return rlsi.Options{}, err
	}
	if o.Ks < 0 {
		return rlsi.Options{}, fmt.Errorf("%s: Ks = %d, want ≥ 0", who, o.Ks)
	}
	k := kc + o.Ks
	if k < 1 {
		return rlsi.Options{}, fmt.Errorf("%s: Ks + Kc = %d, want ≥ 1", who, k)
	}
	l1, err := positive(who, "Lambda1", o.Lambda1, DefaultLambda1)
	if err != nil {
		return rlsi.Options{}, err
	}
	l2, err := positive(who, "Lambda2", o.Lambda2, DefaultLambda2)
	if err != nil {
		return rlsi.Options{}, err
	}
	return rlsi.Options{K: min(k, m, max(np, 1)), Lambda1: l1, Lambda2: l2, Variant: rlsi.U1V2, Stopping: o.Stopping,
		InnerSweeps: o.InnerSweeps, InnerTol: o.InnerTol, ColdStart: o.ColdStart,
		Seed: grouping.ClassSeed(o.Seed, p), Pool: o.Pool}, nil
}

// Fit trains one RLSI model per class (see PerClassOptions), the classes
// in lockstep on the pool (grouping.FitPerClass): iteration t of every
// class, then the merged iteration t is recorded (objective and terms
// summed over classes), so progress is live and cancelling stops every
// class after the same iteration. The status merges the classes'
// (grouping.MergeStatus). Each class's fit depends on its documents and
// seed alone, so the result is the same bits for any number of workers.
func (o PerClassOptions) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	kper, err := o.ClassOptions(0, math.MaxInt, math.MaxInt)
	if err != nil {
		return nil, engine.Status{}, err
	}
	if o.Pool == nil {
		o.Pool = parallel.Default()
	}
	pc, st, err := grouping.FitPerClass(ctx, c, rec, "crlsi", kper.K, o.Pool, func(p, m, np int) (engine.Method, int, error) {
		co, err := o.ClassOptions(p, m, np)
		return co, co.K, err
	}, classLoss)
	if err != nil {
		return nil, engine.Status{}, err
	}
	return &PerClassModel{pc}, st, nil
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
// grouping.PerClass with this E.
type PerClassModel struct {
	*grouping.PerClass
}

// ClassModel is class p's RLSI model (nil when the class had no documents).
func (m *PerClassModel) ClassModel(p int) *rlsi.Model {
	cm, _ := m.Class(p).(*rlsi.Model)
	return cm
}

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
