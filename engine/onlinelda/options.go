package onlinelda

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/parallel"
)

// Defaults where an Options field is zero: scikit-learn 1.2's
// LatentDirichletAllocation defaults (n_components 10, learning_offset 10,
// learning_decay 0.7, batch_size 128, max_iter 10, max_doc_update_iter 100,
// mean_change_tol 1e-3; doc_topic_prior and topic_word_prior 1/K).
const (
	DefaultK             = 10
	DefaultTau0          = 10
	DefaultKappa         = 0.7
	DefaultBatchSize     = 128
	DefaultPasses        = 10
	DefaultMaxDocIters   = 100
	DefaultMeanChangeTol = 1e-3
)

// Options configure online variational Bayes LDA. The zero value is valid:
// every field at zero takes the default above. Options implements
// engine.Method.
type Options struct {
	// K is the number of topics (n_components); 0 means DefaultK.
	K int
	// Alpha is the symmetric Dirichlet prior of θ (doc_topic_prior); 0
	// means 1/K.
	Alpha float64
	// Eta is the symmetric Dirichlet prior of β (topic_word_prior); 0
	// means 1/K.
	Eta float64
	// Tau0 is τ0 ≥ 0 of ρ_t = (τ0 + t)^(−κ) (learning_offset, gensim's
	// offset); 0 means DefaultTau0. Use a tiny positive value for τ0 ≈ 0.
	Tau0 float64
	// Kappa is κ ∈ (0.5, 1] (learning_decay, gensim's decay); 0 means
	// DefaultKappa.
	Kappa float64
	// BatchSize is the number of documents per minibatch (batch_size,
	// gensim's chunksize); 0 means DefaultBatchSize.
	BatchSize int
	// Passes is the number of passes over the corpus (max_iter, gensim's
	// passes); 0 means DefaultPasses. One pass is one recorded iteration.
	Passes int
	// MaxDocIters caps the E-step iterations of one document
	// (max_doc_update_iter); 0 means DefaultMaxDocIters.
	MaxDocIters int
	// MeanChangeTol stops a document's E-step when the mean absolute change
	// of γ_d is below it (mean_change_tol); 0 means DefaultMeanChangeTol.
	MeanChangeTol float64
	// EvalEvery evaluates the training perplexity (an extra E-step over the
	// corpus) every EvalEvery passes and after the last; 0 means only after
	// the last.
	EvalEvery int
	// Seed seeds λ's and the fit's γ's Gamma(100, 1/100) draws.
	Seed uint64
	// Pool runs the parallel E-steps; nil means parallel.Default().
	Pool *parallel.Pool
}

// Name is the registry name "onlinelda".
func (o Options) Name() string { return "onlinelda" }

type settings struct {
	k                   int
	alpha, eta          float64
	tau0, kappa         float64
	batch, passes, docs int
	tol                 float64
	evalEvery           int
	seed                uint64
	pool                *parallel.Pool
}

func (o Options) resolve(terms, docs int) (settings, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Alpha", o.Alpha}, {"Eta", o.Eta}, {"Tau0", o.Tau0}, {"Kappa", o.Kappa}, {"MeanChangeTol", o.MeanChangeTol}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return settings{}, fmt.Errorf("onlinelda: %s = %v, want a finite number > 0 (or 0 for the default)", f.name, f.v)
		}
	}
	if o.K < 0 || o.BatchSize < 0 || o.Passes < 0 || o.MaxDocIters < 0 || o.EvalEvery < 0 {
		return settings{}, fmt.Errorf("onlinelda: K, BatchSize, Passes, MaxDocIters and EvalEvery must be ≥ 0 (0 for the defaults)")
	}
	set := settings{k: orInt(o.K, DefaultK), tau0: orFloat(o.Tau0, DefaultTau0), kappa: orFloat(o.Kappa, DefaultKappa),
		batch: orInt(o.BatchSize, DefaultBatchSize), passes: orInt(o.Passes, DefaultPasses), docs: orInt(o.MaxDocIters, DefaultMaxDocIters),
		tol: orFloat(o.MeanChangeTol, DefaultMeanChangeTol), seed: o.Seed, pool: o.Pool}
	set.alpha = orFloat(o.Alpha, 1/float64(set.k))
	set.eta = orFloat(o.Eta, 1/float64(set.k))
	set.evalEvery = orInt(o.EvalEvery, set.passes)
	if !(set.kappa > 0.5 && set.kappa <= 1) {
		return set, fmt.Errorf("onlinelda: Kappa = %v, want 0.5 < κ ≤ 1 (Hoffman et al. §2.2: the step sizes must satisfy Σρ_t = ∞, Σρ_t² < ∞)", set.kappa)
	}
	if terms == 0 || docs == 0 {
		return set, fmt.Errorf("onlinelda: empty corpus (%d terms × %d documents)", terms, docs)
	}
	if set.k > min(terms, docs) {
		return set, fmt.Errorf("onlinelda: K = %d exceeds min(terms, documents) = min(%d, %d)", set.k, terms, docs)
	}
	return set, nil
}

func orInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func orFloat(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
