package nmfvariants

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"gonum.org/v1/gonum/mat"
)

// saved is the state of either variant: U ("u", M×K), V ("v", N×K) and
// the stopping rule FoldIn applies.
func (f *factors) saved(o engine.Method) engine.Saved {
	return engine.Saved{Options: o, Matrices: map[string]*mat.Dense{"u": f.u, "v": f.v}}.WithStopping(f.set.stop)
}

// Save returns the model's state (engine.Saved) and the options as used.
func (m *EModel) Save() engine.Saved {
	s := m.set
	return m.saved(EOptions{K: s.k, Lambda: s.lambda, Stopping: s.stop.Resolved(), Seed: s.seed})
}

// Save returns the model's state (engine.Saved) and the options as used.
func (m *IModel) Save() engine.Saved {
	s := m.set
	return m.saved(IOptions{K: s.k, Stopping: s.stop.Resolved(), Seed: s.seed})
}

// Load rebuilds a saved NMF_E model (engine.Loader) with the options o;
// UᵀU is formed again by the fit's kernel.
func (o EOptions) Load(s engine.Saved) (engine.Model, error) {
	f, err := load(settings{name: "nmfe", k: o.K, lambda: o.Lambda, stop: o.Stopping, seed: o.Seed, pool: o.Pool}, s)
	if err != nil {
		return nil, err
	}
	gu := mat.NewDense(f.set.k, f.set.k, nil)
	dense.Gram(f.set.pool, gu, f.u)
	return &EModel{factors: *f, gu: gu}, nil
}

// Load rebuilds a saved NMF_I model (engine.Loader) with the options o;
// the column sums of U are formed again by the fit's kernel.
func (o IOptions) Load(s engine.Saved) (engine.Model, error) {
	f, err := load(settings{name: "nmfi", k: o.K, stop: o.Stopping, seed: o.Seed, pool: o.Pool}, s)
	if err != nil {
		return nil, err
	}
	return &IModel{factors: *f, colSum: colSums(f.set.pool, f.u)}, nil
}

func load(set settings, s engine.Saved) (*factors, error) {
	u, err := s.NonNegative(set.name, "u", -1, set.k)
	if err != nil {
		return nil, err
	}
	v, err := s.NonNegative(set.name, "v", -1, set.k)
	if err != nil {
		return nil, err
	}
	if set.stop, err = s.Stopping(set.name, set.stop); err != nil {
		return nil, err
	}
	m, _ := u.Dims()
	n, _ := v.Dims()
	if set, err = set.resolve(m, n); err != nil {
		return nil, fmt.Errorf("%s: saved model: %w", set.name, err)
	}
	return &factors{set: set, u: u, v: v}, nil
}
