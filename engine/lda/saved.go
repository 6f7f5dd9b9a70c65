package lda

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): φ ("phi", M×K), θ
// ("theta", N×K) and the options as used, α and the burn-ins resolved.
// Fold-in needs φ, α, the seed, the rounding rule and the fold-in sweeps.
func (m *Model) Save() engine.Saved {
	s := m.set
	return engine.Saved{
		Options: Options{K: s.k, Alpha: s.alpha, Beta: s.beta, Iters: s.iters, BurnIn: s.burnIn,
			EvalEvery: s.evalEvery, Seed: s.seed, RoundWeights: s.round,
			FoldInIters: s.foldIters, FoldInBurnIn: s.foldBurn},
		Matrices: map[string]*mat.Dense{"phi": m.phi, "theta": m.theta},
	}
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	phi, err := s.NonNegative("lda", "phi", -1, o.K)
	if err != nil {
		return nil, err
	}
	m, _ := phi.Dims()
	theta, err := s.NonNegative("lda", "theta", -1, o.K)
	if err != nil {
		return nil, err
	}
	n, _ := theta.Dims()
	set, err := o.resolve(m, n)
	if err != nil {
		return nil, fmt.Errorf("lda: saved model: %w", err)
	}
	return &Model{phi: phi, theta: theta, set: set}, nil
}
