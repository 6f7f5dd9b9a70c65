package nmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): U ("u", M×K), V ("v",
// N×K) and the options as used, including the stopping rule FoldIn applies.
// A custom start (U0, V0) is not part of the state.
func (m *Model) Save() engine.Saved {
	o := m.opts
	o.U0, o.V0, o.Pool, o.Stopping = nil, nil, nil, o.Stopping.Resolved()
	if o.Init == InitCustom {
		o.Init = InitRandom // the start is gone; only U matters to fold-in
	}
	return engine.Saved{Options: o, Matrices: map[string]*mat.Dense{"u": m.u, "v": m.v}}.WithStopping(o.Stopping)
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	u, err := s.NonNegative("nmf", "u", -1, o.K)
	if err != nil {
		return nil, err
	}
	v, err := s.NonNegative("nmf", "v", -1, o.K)
	if err != nil {
		return nil, err
	}
	if o.Stopping, err = s.Stopping("nmf", o.Stopping); err != nil {
		return nil, err
	}
	mt, _ := u.Dims()
	n, _ := v.Dims()
	ro, err := o.resolved(mt, n)
	if err != nil {
		return nil, fmt.Errorf("nmf: saved model: %w", err)
	}
	return &Model{u: u, v: v, opts: ro}, nil
}
