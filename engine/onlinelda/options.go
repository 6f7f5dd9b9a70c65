package onlinelda

import (
	"cmp"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
)

// Defaults as declared on Options: scikit-learn 1.2's
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

// Options configure online variational Bayes LDA; every option is declared
// once, by its tags (engine/param), named as scikit-learn names it. Start
// from Defaults(): in a Go literal MeanChangeTol at 0 means exactly 0 (every
// document's E-step runs MaxDocIters iterations), while the other fields at
// 0 select their defaults. Options implements engine.Method.
type Options struct {
	// K is the number of topics (n_components).
	K int `param:"k" default:"10" range:"[1,inf)" doc:"number of topics (n_components)"`
	// Alpha is the symmetric Dirichlet prior of θ (doc_topic_prior); 0
	// means 1/K.
	Alpha float64 `param:"alpha" default:"1/K" auto:"0" range:"(0,inf)" doc:"Dirichlet prior of θ (doc_topic_prior)"`
	// Eta is the symmetric Dirichlet prior of β (topic_word_prior); 0
	// means 1/K.
	Eta float64 `param:"eta" default:"1/K" auto:"0" range:"(0,inf)" doc:"Dirichlet prior of β (topic_word_prior)"`
	// Tau0 is τ0 of ρ_t = (τ0 + t)^(−κ) (learning_offset, gensim's offset).
	Tau0 float64 `param:"tau0" default:"10" range:"(0,inf)" doc:"τ0 of the step size ρ_t = (τ0 + t)^(−κ) (learning_offset)"`
	// Kappa is κ ∈ (0.5, 1] (learning_decay, gensim's decay).
	Kappa float64 `param:"kappa" default:"0.7" range:"(0.5,1]" doc:"κ of the step size (learning_decay)"`
	// BatchSize is the number of documents per minibatch (batch_size,
	// gensim's chunksize).
	BatchSize int `param:"batch" default:"128" range:"[1,inf)" doc:"documents per minibatch (batch_size)"`
	// Passes is the number of passes over the corpus (max_iter, gensim's
	// passes). One pass is one recorded iteration.
	Passes int `param:"passes" default:"10" range:"[1,inf)" doc:"passes over the corpus (max_iter)"`
	// MaxDocIters caps the E-step iterations of one document
	// (max_doc_update_iter).
	MaxDocIters int `param:"max-doc-iters" default:"100" range:"[1,inf)" doc:"E-step iterations of a document at most (max_doc_update_iter)"`
	// MeanChangeTol stops a document's E-step when the mean absolute change
	// of γ_d is below it (mean_change_tol).
	MeanChangeTol float64 `param:"mean-change-tol" default:"0.001" range:"[0,inf)" doc:"a document's E-step stops when γ's mean change is below it (mean_change_tol)"`
	// EvalEvery evaluates the training perplexity (an extra E-step over the
	// corpus) every EvalEvery passes and after the last; 0 means only after
	// the last.
	EvalEvery int `param:"eval-every" default:"passes" auto:"0" range:"[1,inf)" doc:"evaluate the bound and perplexity every eval-every passes and after the last"`
	// Seed seeds λ's and the fit's γ's Gamma(100, 1/100) draws.
	Seed uint64 `param:"seed" default:"1" doc:"seed of the Gamma(100, 1/100) draws of λ and γ"`
	// Pool runs the parallel E-steps; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults.
func Defaults() Options { return param.DefaultsOf[Options]() }

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

// resolve checks the options and applies the defaults. A value out of
// range is an error naming its field and its catalog key, e.g.
// "onlinelda: BatchSize (batch) = -3, want ≥ 1 (0 for the default 128)".
func (o Options) resolve(terms, docs int) (settings, error) {
	for _, f := range []struct {
		field, key string
		v          float64
		zero       string // what 0 means
	}{{"Alpha", "alpha", o.Alpha, "the default 1/K"}, {"Eta", "eta", o.Eta, "the default 1/K"}, {"Tau0", "tau0", o.Tau0, "the default 10"},
		{"Kappa", "kappa", o.Kappa, "the default 0.7"}, {"MeanChangeTol", "mean-change-tol", o.MeanChangeTol, "every E-step runs MaxDocIters iterations"}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return settings{}, fmt.Errorf("onlinelda: %s (%s) = %v, want a finite number > 0 (0: %s)", f.field, f.key, f.v, f.zero)
		}
	}
	for _, f := range []struct {
		field, key string
		v, def     int
	}{{"K", "k", o.K, DefaultK}, {"BatchSize", "batch", o.BatchSize, DefaultBatchSize}, {"Passes", "passes", o.Passes, DefaultPasses},
		{"MaxDocIters", "max-doc-iters", o.MaxDocIters, DefaultMaxDocIters}} {
		if f.v < 0 {
			return settings{}, fmt.Errorf("onlinelda: %s (%s) = %d, want ≥ 1 (0 for the default %d)", f.field, f.key, f.v, f.def)
		}
	}
	if o.EvalEvery < 0 {
		return settings{}, fmt.Errorf("onlinelda: EvalEvery (eval-every) = %d, want ≥ 1 (0 for the default: Passes)", o.EvalEvery)
	}
	set := settings{k: cmp.Or(o.K, DefaultK), tau0: cmp.Or(o.Tau0, DefaultTau0), kappa: cmp.Or(o.Kappa, DefaultKappa),
		batch: cmp.Or(o.BatchSize, DefaultBatchSize), passes: cmp.Or(o.Passes, DefaultPasses), docs: cmp.Or(o.MaxDocIters, DefaultMaxDocIters),
		tol: o.MeanChangeTol, seed: o.Seed, pool: o.Pool}
	set.alpha = cmp.Or(o.Alpha, 1/float64(set.k))
	set.eta = cmp.Or(o.Eta, 1/float64(set.k))
	set.evalEvery = cmp.Or(o.EvalEvery, set.passes)
	if !(set.kappa > 0.5 && set.kappa <= 1) {
		return set, fmt.Errorf("onlinelda: Kappa (kappa) = %v, want 0.5 < κ ≤ 1 (Hoffman et al. §2.2: the step sizes must satisfy Σρ_t = ∞, Σρ_t² < ∞)", set.kappa)
	}
	if err := engine.ResolveK("onlinelda", &set.k, DefaultK, terms, docs); err != nil {
		return set, err
	}
	return set, nil
}
