package graphnmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): U ("u", M×K), V ("v",
// N×K) and the options as used, including the stopping rule FoldIn
// applies. The document graph is not saved: it belongs to the training
// documents, and a new document has no edge in it (FoldIn); a loaded
// model's Graph is nil and its GraphSeconds 0.
func (m *Model) Save() engine.Saved {
	o := m.opts
	o.U0, o.V0, o.Pool, o.Stopping = nil, nil, nil, o.Stopping.Resolved()
	return engine.Saved{Options: o, Matrices: map[string]*mat.Dense{"u": m.u, "v": m.v}}.WithStopping(o.Stopping)
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	u, err := s.NonNegative("graphnmf", "u", -1, o.K)
	if err != nil {
		return nil, err
	}
	v, err := s.NonNegative("graphnmf", "v", -1, o.K)
	if err != nil {
		return nil, err
	}
	if o.Stopping, err = s.Stopping("graphnmf", o.Stopping); err != nil {
		return nil, err
	}
	m, _ := u.Dims()
	n, _ := v.Dims()
	if o, err = o.resolve(m, n); err != nil {
		return nil, fmt.Errorf("graphnmf: saved model: %w", err)
	}
	return &Model{opts: o, u: u, v: v}, nil
}
