package snmf

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): U ("u", M×K), V ("v",
// N×K) and the options as used (ANLS for "nmf-anls", Options for "snmf";
// FoldIn needs β).
func (m *Model) Save() engine.Saved {
	o := m.opts
	o.Pool, o.Stopping = nil, o.Stopping.Resolved()
	var opts engine.Method = o
	if m.name == DefaultsANLS().Name() {
		opts = ANLS{K: o.K, Stopping: o.Stopping, Seed: o.Seed}
	}
	return engine.Saved{Options: opts, Matrices: map[string]*mat.Dense{"u": m.U, "v": m.V}}
}

// Load rebuilds a saved SNMF/R model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) { return o.load(o.Name(), s) }

// Load rebuilds a saved ANLS model (engine.Loader) with the options o.
func (o ANLS) Load(s engine.Saved) (engine.Model, error) {
	return Options{K: o.K, Stopping: o.Stopping, Seed: o.Seed, Pool: o.Pool}.load(o.Name(), s)
}

func (o Options) load(name string, s engine.Saved) (engine.Model, error) {
	u, err := s.NonNegative(name, "u", -1, o.K)
	if err != nil {
		return nil, err
	}
	v, err := s.NonNegative(name, "v", -1, o.K)
	if err != nil {
		return nil, err
	}
	m, _ := u.Dims()
	n, _ := v.Dims()
	if o, err = o.validate(name, m, n); err != nil {
		return nil, fmt.Errorf("%s: saved model: %w", name, err)
	}
	return &Model{U: u, V: v, name: name, opts: o}, nil
}
