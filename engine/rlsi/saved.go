package rlsi

import (
	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// used returns o as the fit used it: K resolved, and λ1, λ2 as used
// (absolute, a relative λ scaled by the data, RLSI §6.1 read as relative.go
// explains), so that Restore rebuilds the same model. The starting V and
// the pool are not part of it.
func (o Options) used(set settings) Options {
	o.K, o.Lambda1, o.Lambda2, o.RelativeLambda = set.k, set.lambda1, set.lambda2, false
	o.InnerSweeps = set.innerSweeps
	o.InitV, o.Pool, o.Stopping = nil, nil, o.Stopping.Resolved()
	return o
}

// Save returns the model's state (engine.Saved): U ("u", M×K), Vᵀ ("v",
// N×K) and the options as used, λ1 and λ2 absolute. FoldIn needs U, the
// variant, λ2 and the inner sweeps and tolerance; (UᵀU + λ2 I)⁻¹ is formed
// again on Load by the fit's kernels.
func (m *Model) Save() engine.Saved {
	return engine.Saved{Options: m.used, Matrices: map[string]*mat.Dense{"u": m.u, "v": m.v}}
}

// Load rebuilds a saved model (engine.Loader) with the options o: Restore
// of its factors.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	u, err := s.Matrix("rlsi", "u", -1, o.K)
	if err != nil {
		return nil, err
	}
	v, err := s.Matrix("rlsi", "v", -1, o.K)
	if err != nil {
		return nil, err
	}
	return o.Restore(u, v)
}
