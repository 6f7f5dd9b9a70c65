package lsi

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rsvd"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): U_K ("u", M×K), the
// folded-in training documents ("v", N×K), σ_1 … σ_K ("sigma") and the
// options as used (the sketch size and power iterations resolved, so
// Accurate is false). Σ_K⁺ is formed again on Load with the same cutoff.
func (m *Model) Save() engine.Saved {
	return engine.Saved{Options: m.used, Matrices: map[string]*mat.Dense{"u": m.u, "v": m.v},
		Vectors: map[string][]float64{"sigma": m.sigma}}
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	u, err := s.Matrix("lsi", "u", -1, o.K)
	if err != nil {
		return nil, err
	}
	v, err := s.Matrix("lsi", "v", -1, o.K)
	if err != nil {
		return nil, err
	}
	sigma, err := s.Vector("lsi", "sigma", o.K)
	if err != nil {
		return nil, err
	}
	for k := 1; k < len(sigma); k++ {
		if sigma[k] > sigma[k-1] || sigma[k] < 0 {
			return nil, fmt.Errorf("lsi: saved vector \"sigma\": entry %d = %v, want non-negative and at most entry %d = %v", k, sigma[k], k-1, sigma[k-1])
		}
	}
	m, _ := u.Dims()
	n, _ := v.Dims()
	ro, err := o.resolve(m, n)
	if err != nil {
		return nil, fmt.Errorf("lsi: saved model: %w", err)
	}
	mod := newModel(&rsvd.Result{U: u, S: sigma, V: v}, ro.Pool)
	mod.v, mod.used = v, o
	return mod, nil
}
