package symnmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): H ("h", N×K), the term
// profiles D·H ("u", M×K), D̃·H ("p", M×K, which FoldIn multiplies a new
// document's normalized row by, and which needs the training documents
// to form), the density of A ("density") and the options as used. HᵀH is
// formed again on Load by the fit's kernel. BuildSeconds of a loaded model
// is 0.
func (m *Model) Save() engine.Saved {
	o := m.opts
	o.InitH, o.Pool, o.Stopping = nil, nil, o.Stopping.Resolved()
	return engine.Saved{Options: o, Matrices: map[string]*mat.Dense{"h": m.h, "u": m.u, "p": m.p},
		Vectors: map[string][]float64{"density": {m.density}}}
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	h, err := s.NonNegative("symnmf", "h", -1, o.K)
	if err != nil {
		return nil, err
	}
	u, err := s.NonNegative("symnmf", "u", -1, o.K)
	if err != nil {
		return nil, err
	}
	terms, _ := u.Dims()
	p, err := s.NonNegative("symnmf", "p", terms, o.K)
	if err != nil {
		return nil, err
	}
	density, err := s.Vector("symnmf", "density", 1)
	if err != nil {
		return nil, err
	}
	n, _ := h.Dims()
	if o, err = o.resolve(n); err != nil {
		return nil, fmt.Errorf("symnmf: saved model: %w", err)
	}
	m := &Model{opts: o, density: density[0], h: h, u: u, p: p, g: mat.NewDense(o.K, o.K, nil)}
	dense.Gram(o.Pool, m.g, h)
	return m, nil
}
