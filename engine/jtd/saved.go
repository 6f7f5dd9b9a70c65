package jtd

import (
	"cmp"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): B ("b", M×K), S ("s",
// N×K), the parts E ("e"), N ("n") and BS ("bs") of the training documents
// (N×M each), the final residual ("residual") and the options as used:
// λ, τ, μ0 and μ_max resolved from the data scales they were derived from,
// so that Load needs no data. FoldIn (Split) needs B and the ALM settings.
func (m *Model) Save() engine.Saved {
	s := m.set
	return engine.Saved{
		Options: Options{K: s.k, Lambda: s.lambda, Tau: s.tau, LambdaFactor: 1, TauFactor: 1, Gamma: s.gamma,
			Mu0: s.mu0, Rho: s.rho, MuMax: s.muMax, InnerIters: s.inner, InitIters: s.initIters,
			MaxIter: s.maxIter, ResidualTol: s.residualTol, Seed: s.seed},
		Matrices: map[string]*mat.Dense{"b": m.B, "s": m.S, "e": m.E, "n": m.N, "bs": m.BS},
		Vectors:  map[string][]float64{"residual": {m.Residual}},
	}
}

// Load rebuilds a saved model (engine.Loader) with the options o, which
// must give λ, τ, μ0 and μ_max as used (Save writes them).
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if o.Lambda == 0 || o.Tau == 0 || o.Mu0 == 0 || o.MuMax == 0 {
		return nil, fmt.Errorf("jtd: saved model: lambda, tau, mu0 and mu-max must be the values used, got %v, %v, %v, %v", o.Lambda, o.Tau, o.Mu0, o.MuMax)
	}
	b, err := s.NonNegative("jtd", "b", -1, o.K)
	if err != nil {
		return nil, err
	}
	terms, _ := b.Dims()
	sm, err := s.NonNegative("jtd", "s", -1, o.K)
	if err != nil {
		return nil, err
	}
	docs, _ := sm.Dims()
	parts := map[string]*mat.Dense{}
	for _, name := range []string{"e", "n", "bs"} {
		if parts[name], err = s.Matrix("jtd", name, docs, terms); err != nil {
			return nil, err
		}
	}
	res, err := s.Vector("jtd", "residual", 1)
	if err != nil {
		return nil, err
	}
	set := settings{k: o.K, lambda: o.Lambda, tau: o.Tau, gamma: cmp.Or(o.Gamma, DefaultGamma), mu0: o.Mu0,
		rho: cmp.Or(o.Rho, DefaultRho), muMax: o.MuMax, inner: cmp.Or(o.InnerIters, DefaultInnerIters),
		maxIter: cmp.Or(o.MaxIter, DefaultMaxIter), initIters: cmp.Or(o.InitIters, DefaultInitIters),
		residualTol: o.ResidualTol, seed: o.Seed, pool: o.Pool}
	if set.muMax < set.mu0 {
		return nil, fmt.Errorf("jtd: saved model: μ_max = %v is below μ0 = %v", set.muMax, set.mu0)
	}
	return &Model{B: b, S: sm, E: parts["e"], N: parts["n"], BS: parts["bs"], Residual: res[0], set: set}, nil
}
