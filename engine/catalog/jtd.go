package catalog

import (
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/jtd"
	"github.com/topicmf/topicmf/engine/onlinelda"
	"github.com/topicmf/topicmf/engine/snmf"
)

// jtdFamily is the noisy joint topic-document model (engine/jtd).
func jtdFamily() Family {
	return Family{
		Name: "jtd",
		Doc:  "noisy joint topic-document model D = BS + E + N by inexact ALM with an SNMF sub-problem (Min & Ma, ICASSP 2013, Eq. 3–12)",
		Params: []Param{
			{Key: "k", Default: strconv.Itoa(jtd.DefaultK), Doc: "number of topics K"},
			{Key: "lambda", Default: "mean document ℓ1 mass", Doc: "λ > 0, weight of ‖E‖₁"},
			{Key: "tau", Default: "λ/RMS of D's non-zeros", Doc: "τ > 0, weight of ½‖N‖²_F"},
			{Key: "lambda-factor", Default: "1", Doc: "multiplies the default λ (when lambda is unset)"},
			{Key: "tau-factor", Default: "1", Doc: "multiplies the default τ (when tau is unset); large values remove N"},
			{Key: "gamma", Default: strconv.FormatFloat(jtd.DefaultGamma, 'g', -1, 64), Doc: "γ > 0, weight of ‖B‖²_F in the SNMF sub-problem (Eq. 11)"},
			{Key: "mu0", Default: "1.25/‖D‖₂", Doc: "initial ALM penalty μ0 > 0"},
			{Key: "rho", Default: strconv.FormatFloat(jtd.DefaultRho, 'g', -1, 64), Doc: "growth ρ > 1 of μ per iteration"},
			{Key: "inner", Default: strconv.Itoa(jtd.DefaultInnerIters), Doc: "ANLS iterations of the SNMF sub-problem per outer iteration"},
			{Key: "init-iters", Default: strconv.Itoa(jtd.DefaultInitIters), Doc: "ANLS NMF iterations that start (B, S)"},
			{Key: "iters", Default: strconv.Itoa(jtd.DefaultMaxIter), Doc: "maximum outer iterations"},
			{Key: "residual-tol", Default: strconv.FormatFloat(jtd.DefaultResidualTol, 'g', -1, 64), Doc: "stop when ‖D−BS−E−N‖_F/‖D‖_F ≤ residual-tol (negative: run every iteration)"},
			{Key: "seed", Default: "0", Doc: "seed of the random starting B"},
		},
		New: func(p Params) (engine.Method, error) {
			var o jtd.Options
			var err error
			if o.K, err = p.Int("k", 0); err != nil {
				return nil, err
			}
			for _, f := range []struct {
				key string
				dst *float64
			}{{"lambda", &o.Lambda}, {"tau", &o.Tau}, {"gamma", &o.Gamma}, {"mu0", &o.Mu0}, {"rho", &o.Rho}, {"residual-tol", &o.ResidualTol},
				{"lambda-factor", &o.LambdaFactor}, {"tau-factor", &o.TauFactor}} {
				if *f.dst, err = p.Float(f.key, 0); err != nil {
					return nil, err
				}
			}
			if o.InnerIters, err = p.Int("inner", 0); err != nil {
				return nil, err
			}
			if o.InitIters, err = p.Int("init-iters", 0); err != nil {
				return nil, err
			}
			if o.MaxIter, err = p.Int("iters", 0); err != nil {
				return nil, err
			}
			if o.Seed, err = p.Uint64("seed", 0); err != nil {
				return nil, err
			}
			return o, nil
		},
	}
}

// onlineldaFamily is LDA by online variational Bayes (engine/onlinelda).
func onlineldaFamily() Family {
	return Family{
		Name: "onlinelda",
		Doc:  "LDA by online variational Bayes (Hoffman, Blei & Bach, NIPS 2010, Alg. 2), scikit-learn's settings and names",
		Params: []Param{
			{Key: "k", Default: strconv.Itoa(onlinelda.DefaultK), Doc: "number of topics (n_components)"},
			{Key: "alpha", Default: "1/K", Doc: "Dirichlet prior of θ (doc_topic_prior)"},
			{Key: "eta", Default: "1/K", Doc: "Dirichlet prior of β (topic_word_prior)"},
			{Key: "tau0", Default: strconv.FormatFloat(onlinelda.DefaultTau0, 'g', -1, 64), Doc: "learning_offset τ0 of ρ_t = (τ0 + t)^(−κ)"},
			{Key: "kappa", Default: strconv.FormatFloat(onlinelda.DefaultKappa, 'g', -1, 64), Doc: "learning_decay κ ∈ (0.5, 1]"},
			{Key: "batch", Default: strconv.Itoa(onlinelda.DefaultBatchSize), Doc: "documents per minibatch (batch_size)"},
			{Key: "passes", Default: strconv.Itoa(onlinelda.DefaultPasses), Doc: "passes over the corpus (max_iter)"},
			{Key: "seed", Default: "0", Doc: "seed of the Gamma(100, 1/100) draws of λ and γ"},
		},
		New: func(p Params) (engine.Method, error) {
			var o onlinelda.Options
			var err error
			if o.K, err = p.Int("k", 0); err != nil {
				return nil, err
			}
			for _, f := range []struct {
				key string
				dst *float64
			}{{"alpha", &o.Alpha}, {"eta", &o.Eta}, {"tau0", &o.Tau0}, {"kappa", &o.Kappa}} {
				if *f.dst, err = p.Float(f.key, 0); err != nil {
					return nil, err
				}
			}
			if o.BatchSize, err = p.Int("batch", 0); err != nil {
				return nil, err
			}
			if o.Passes, err = p.Int("passes", 0); err != nil {
				return nil, err
			}
			if o.Seed, err = p.Uint64("seed", 0); err != nil {
				return nil, err
			}
			return o, nil
		},
	}
}

// snmfFamilies are NMF by alternating NNLS and Kim & Park's sparse SNMF/R
// (engine/snmf).
func snmfFamilies() []Family {
	anls := Family{
		Name: "nmf-anls",
		Doc:  "NMF by alternating non-negativity-constrained least squares, NNLS by block principal pivoting (Kim & Park 2011)",
		Params: []Param{
			{Key: "k", Default: strconv.Itoa(snmf.DefaultK), Doc: "number of topics K"},
			{Key: "iters", Default: strconv.Itoa(engine.DefaultMaxIter), Doc: "maximum iterations"},
			{Key: "seed", Default: "0", Doc: "seed of the random starting U"},
		},
	}
	anls.New = func(p Params) (engine.Method, error) { return newSNMF(p, false) }
	sparseNMF := Family{
		Name: "snmf",
		Doc:  "sparse NMF SNMF/R: min ½{‖D−UVᵀ‖² + η‖U‖² + βΣ‖v_n‖₁²} by alternating NNLS (Kim & Park, Bioinformatics 2007)",
		Params: append(append([]Param(nil), anls.Params...),
			Param{Key: "eta", Default: "0.01", Doc: "η ≥ 0, weight of ‖U‖²_F"},
			Param{Key: "beta", Default: "0.01", Doc: "β ≥ 0, weight of Σ_n ‖v_n‖₁²"}),
	}
	sparseNMF.New = func(p Params) (engine.Method, error) { return newSNMF(p, true) }
	return []Family{anls, sparseNMF}
}

func newSNMF(p Params, sparse bool) (engine.Method, error) {
	var o snmf.Options
	var err error
	if o.K, err = p.Int("k", 0); err != nil {
		return nil, err
	}
	if o.Stopping.MaxIter, err = p.Int("iters", 0); err != nil {
		return nil, err
	}
	if o.Seed, err = p.Uint64("seed", 0); err != nil {
		return nil, err
	}
	if sparse {
		if o.Eta, err = p.Float("eta", 0.01); err != nil {
			return nil, err
		}
		if o.Beta, err = p.Float("beta", 0.01); err != nil {
			return nil, err
		}
	}
	return o, nil
}
