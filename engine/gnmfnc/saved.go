package gnmfnc

import (
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
)

// Save returns the model's state (engine.Saved): the factors and the
// category layout (grouping.Factors.Saved) and the options as used. The
// per-category Ũ_pᵀŨ_p that FoldIn's NNLS solves with are formed again on
// Load by the fit's kernel.
func (m *Model) Save() engine.Saved {
	s := m.set
	return m.Factors.Saved(Options{Ks: s.ks, Kp: s.kp, A: s.a, Sigma1: s.sig1, Sigma2: s.sig2, Sigma3: s.sig3,
		Stopping: s.stop.Resolved(), Seed: s.seed})
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	set, err := o.resolve()
	if err != nil {
		return nil, err
	}
	lay, u, v, err := grouping.LoadFactors("gnmfnc", s, set.ks, set.kp, true)
	if err != nil {
		return nil, err
	}
	return newModel(&solver{set: set, lay: lay, m: lay.M, n: lay.N, Blocks: grouping.Blocks{Ks: set.ks, Kc: set.kp, P: lay.P}, u: u, v: v}), nil
}
