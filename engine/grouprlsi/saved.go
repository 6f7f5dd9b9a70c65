package grouprlsi

import (
	"cmp"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/rlsi"
)

// Save returns the model's state (engine.Saved): the factors and the
// class layout (grouping.Factors.Saved) and the options as used. FoldIn
// needs U, λ2 and the classes; the per-class (Ũ_pᵀŨ_p + λ2 I)⁻¹ are formed
// again on Load by the fit's kernels.
func (m *Model) Save() engine.Saved {
	s := m.set
	return m.Factors.Saved(Options{Ks: s.ks, Kc: s.kc, Lambda1: s.lambda1, Lambda2: s.lambda2, Stopping: s.stop.Resolved(),
		InnerSweeps: s.innerSweeps, InnerTol: s.innerTol, ColdStart: s.coldStart, Seed: s.seed})
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	set, err := o.resolve()
	if err != nil {
		return nil, err
	}
	lay, u, v, err := grouping.LoadFactors("grouprlsi", s, set.ks, set.kc, false)
	if err != nil {
		return nil, err
	}
	return newModel(&solver{set: set, lay: lay, m: lay.M, n: lay.N, Blocks: grouping.Blocks{Ks: set.ks, Kc: set.kc, P: lay.P}, u: u, v: v}), nil
}

// Load rebuilds a saved CRLSI model (engine.Loader) with the options o:
// each class's RLSI model with the options ClassOptions gives.
func (o PerClassOptions) Load(s engine.Saved) (engine.Model, error) {
	s.Options = o
	pc, err := grouping.LoadPerClass(s, o.Pool, o.classMethod, classLoss)
	if err != nil {
		return nil, err // it names the family (s.Options.Name())
	}
	return &PerClassModel{PerClass: pc}, nil
}

// used is o with its defaults written out, as a saved model records it.
func (o PerClassOptions) used() PerClassOptions {
	o.InnerSweeps = cmp.Or(o.InnerSweeps, rlsi.DefaultInnerSweeps)
	o.Stopping, o.Pool = o.Stopping.Resolved(), nil
	return o
}

// classMethod is ClassOptions as a grouping.ClassMethod.
func (o PerClassOptions) classMethod(p, m, np int) (engine.Method, int, error) {
	co, err := o.ClassOptions(p, m, np)
	return co, co.K, err
}
