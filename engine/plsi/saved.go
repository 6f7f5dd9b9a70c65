package plsi

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): P(w|z) ("phi", M×K),
// P(z|d) ("theta", N×K), the log-likelihood L ("loglik") and the options
// as used. FoldIn needs P(w|z) and the fold-in iterations and tolerance;
// the active terms are read again from P(w|z) on Load.
func (m *Model) Save() engine.Saved {
	s := m.set
	return engine.Saved{
		Options:  Options{K: s.k, Stopping: s.stop.Resolved(), Seed: s.seed, FoldInIters: s.foldInIters, FoldInTol: s.foldInTol},
		Matrices: map[string]*mat.Dense{"phi": m.phi, "theta": m.theta},
		Vectors:  map[string][]float64{"loglik": {m.loglik}},
	}
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	phi, err := s.NonNegative("plsi", "phi", -1, o.K)
	if err != nil {
		return nil, err
	}
	theta, err := s.NonNegative("plsi", "theta", -1, o.K)
	if err != nil {
		return nil, err
	}
	ll, err := s.Vector("plsi", "loglik", 1)
	if err != nil {
		return nil, err
	}
	m, _ := phi.Dims()
	n, _ := theta.Dims()
	set, err := o.resolve(m, n)
	if err != nil {
		return nil, fmt.Errorf("plsi: saved model: %w", err)
	}
	return (&solver{set: set, phi: phi, theta: theta, loglik: ll[0]}).model(), nil
}
