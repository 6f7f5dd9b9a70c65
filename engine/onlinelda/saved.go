package onlinelda

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

// Save returns the model's state (engine.Saved): λ ("lambda", W×K), θ of
// the training documents ("theta", N×K) and the options as used, α and η
// resolved. FoldIn needs exp(E[log β]), which Load computes again from λ
// by the fit's kernel, and α and the E-step's limits.
func (m *Model) Save() engine.Saved {
	s := m.set
	return engine.Saved{
		Options: Options{K: s.k, Alpha: s.alpha, Eta: s.eta, Tau0: s.tau0, Kappa: s.kappa, BatchSize: s.batch,
			Passes: s.passes, MaxDocIters: s.docs, MeanChangeTol: s.tol, EvalEvery: s.evalEvery, Seed: s.seed},
		Matrices: map[string]*mat.Dense{"lambda": m.lambda, "theta": m.theta},
	}
}

// Load rebuilds a saved model (engine.Loader) with the options o.
func (o Options) Load(s engine.Saved) (engine.Model, error) {
	lambda, err := s.NonNegative("onlinelda", "lambda", -1, o.K)
	if err != nil {
		return nil, err
	}
	theta, err := s.NonNegative("onlinelda", "theta", -1, o.K)
	if err != nil {
		return nil, err
	}
	w, k := lambda.Dims()
	n, _ := theta.Dims()
	set, err := o.resolve(w, n)
	if err != nil {
		return nil, fmt.Errorf("onlinelda: saved model: %w", err)
	}
	for i := range w {
		for j, v := range lambda.RawRowView(i) {
			if !(v > 0) {
				return nil, fmt.Errorf("onlinelda: saved matrix \"lambda\": entry (%d, %d) = %v, want > 0 (a Dirichlet parameter)", i+1, j+1, v)
			}
		}
	}
	m := &Model{lambda: lambda, expElogBeta: mat.NewDense(w, k, nil), theta: theta, set: set}
	expDirichlet(set.pool, m.expElogBeta, lambda)
	return m, nil
}
