package tnmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): U ("u", M×K), Vᵀ ("v",
// N×K), UᵀU as the fit formed it ("g", K×K: with Rescale it is rescaled
// with U rather than formed again), the count of pseudo-inverse steps
// ("pseudo_steps") and the options as used. (UᵀU)⁻¹ and the column sums of
// U are formed again on Load (finish). The term correlation S (M×M) is
// not saved: inference does not read it, and a loaded model's Correlation
// is nil and its BuildSeconds 0.
func (m *Model) Save() engine.Saved {
	s := m.set
	return engine.Saved{
		Options: Options{K: s.k, Count: s.count, Storage: s.storage, Stopping: s.stop.Resolved(), Inference: s.inference,
			InnerSweeps: s.sweeps, InnerTol: s.tol, Rescale: s.rescale, Seed: s.seed},
		Matrices: map[string]*mat.Dense{"u": m.u, "v": m.v, "g": m.g},
		Vectors:  map[string][]float64{"pseudo_steps": {float64(m.pseudoSteps)}},
	}
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	u, err := s.NonNegative("tnmf", "u", -1, o.K)
	if err != nil {
		return nil, err
	}
	v, err := s.NonNegative("tnmf", "v", -1, o.K)
	if err != nil {
		return nil, err
	}
	g, err := s.NonNegative("tnmf", "g", o.K, o.K)
	if err != nil {
		return nil, err
	}
	steps, err := s.Counts("tnmf", "pseudo_steps", 1, 1<<30)
	if err != nil {
		return nil, err
	}
	terms, _ := u.Dims()
	set, err := o.resolve(terms)
	if err != nil {
		return nil, fmt.Errorf("tnmf: saved model: %w", err)
	}
	m := &Model{set: set, u: u, v: v, g: g, pseudoSteps: steps[0]}
	m.finish()
	return m, nil
}
