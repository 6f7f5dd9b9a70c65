package groupnmf

import (
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
)

// Save returns the model's state (engine.Saved): the factors and the
// class layout (grouping.Factors.Saved) and the options as used, including
// the stopping rule FoldIn applies. The per-class Ũ_pᵀŨ_p are formed again
// on Load by the fit's kernels.
func (m *Model) Save() engine.Saved {
	s := m.set
	return m.Factors.Saved(Options{Ks: s.ks, Kc: s.kc, Stopping: s.stop.Resolved(), Seed: s.seed, VFirst: s.vFirst}).
		WithStopping(s.stop)
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	var err error
	if o.Stopping, err = s.Stopping("groupnmf", o.Stopping); err != nil {
		return nil, err
	}
	set, err := o.resolve()
	if err != nil {
		return nil, err
	}
	lay, u, v, err := grouping.LoadFactors("groupnmf", s, set.ks, set.kc, true)
	if err != nil {
		return nil, err
	}
	return newModel(&solver{set: set, lay: lay, m: lay.M, n: lay.N, Blocks: grouping.Blocks{Ks: set.ks, Kc: set.kc, P: lay.P}, u: u, v: v}), nil
}

// Load rebuilds a saved CNMF model (engine.Loader) with the options o:
// each class's NMF model with the options ClassOptions gives.
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
	o.Stopping, o.Pool = o.Stopping.Resolved(), nil
	return o
}

// classMethod is ClassOptions as a grouping.ClassMethod.
func (o PerClassOptions) classMethod(p, m, np int) (engine.Method, int, error) {
	co, err := o.ClassOptions(p, m, np)
	return co, co.K, err
}
