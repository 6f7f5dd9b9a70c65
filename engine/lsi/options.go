package lsi

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/rsvd"
)

// The declared defaults (the tags of Options) are scikit-learn's
// TruncatedSVD defaults (10 extra sketch columns, 5 power iterations): the
// same sketch, re-orthonormalized at every step (by CholeskyQR2, engine/rsvd,
// falling back to Householder QR for an ill-conditioned block) where
// scikit-learn uses LU, so at least as accurate. Text spectra decay slowly,
// so the last of the K singular values converge slowly: the accurate
// setting, AccurateOversample(K) extra columns and AccuratePowerIters power
// iterations (about 10× the time), gives near-exact singular values.
// Accuracy and time of both settings: docs/measurements.md, "LSI: the
// sketch".
const (
	// DefaultK is the number of topics of the RLSI paper's topic tables
	// (Section 6.3: K = 20 for every method).
	DefaultK = 20
	// DefaultOversample is the number of extra sketch columns p
	// (scikit-learn's n_oversamples; Halko et al. Section 4.2 use p = 5–10).
	DefaultOversample = 10
	// DefaultPowerIters is the number of power iterations q
	// (scikit-learn's n_iter).
	DefaultPowerIters = 5
	// AccuratePowerIters is q of the accurate setting (catalog:
	// power-iters=20 oversample=K for K ≥ 10).
	AccuratePowerIters = 20
)

// AccurateOversample is p of the accurate setting, max(K, 10): a sketch of
// 2K columns for K ≥ 10.
func AccurateOversample(k int) int { return max(k, DefaultOversample) }

// Options configure LSI; Options implements engine.Method. Its declared
// fields are the parameters of the "lsi" catalog family (engine/param):
// Defaults returns K = 20, oversampling 10, 5 power iterations, seed 1
// and the default pool. In a literal, a zero K or Oversample selects its
// default, while a zero PowerIters means none.
type Options struct {
	// K is the number of topics (singular triplets); 0 means DefaultK. It
	// must not exceed min(M, N) of the corpus.
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K (singular triplets)"`
	// Oversample is the number of extra columns of the random sketch; 0
	// means DefaultOversample. The sketch has min(K + Oversample, M, N)
	// columns.
	Oversample int `param:"oversample" default:"10" range:"[1,inf)" doc:"extra columns p of the random sketch"`
	// PowerIters is the number of power (subspace) iterations q ≥ 0.
	PowerIters int `param:"power-iters" default:"5" range:"[0,inf)" doc:"power (subspace) iterations q; 0 for none"`
	// Accurate raises the sketch to the accurate setting: at least
	// AccurateOversample(K) extra columns and at least AccuratePowerIters
	// power iterations (with the other defaults, exactly that setting).
	// The RLSI experiments use it: their committed LSI baselines were
	// computed with it, when it was the default.
	Accurate bool `param:"accurate" default:"false" doc:"true: near-exact singular values, oversample ≥ max(K, 10) and ≥ 20 power iterations (about 10× the time)"`
	// Seed seeds the Gaussian test matrix (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the Gaussian test matrix"`
	// Pool runs the sparse × dense products; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Name is the registry name, "lsi".
func (o Options) Name() string { return "lsi" }

// resolve validates o against an M×N corpus and applies the defaults.
func (o Options) resolve(m, n int) (rsvd.Options, error) {
	r := rsvd.Options{K: o.K, Oversample: o.Oversample, PowerIters: o.PowerIters, Seed: o.Seed, Orth: rsvd.CholeskyQR2, Pool: o.Pool}
	if err := param.Check(o); err != nil {
		return r, fmt.Errorf("lsi: %w", err)
	}
	if err := engine.ResolveK("lsi", &r.K, DefaultK, m, n); err != nil {
		return r, err
	}
	if r.Oversample == 0 {
		r.Oversample = DefaultOversample
	}
	if o.Accurate {
		r.Oversample = max(r.Oversample, AccurateOversample(r.K))
		r.PowerIters = max(r.PowerIters, AccuratePowerIters)
	}
	if r.PowerIters == 0 {
		r.PowerIters = -1 // engine/rsvd reads 0 as its own default and a negative value as none
	}
	if r.Pool == nil {
		r.Pool = parallel.Default()
	}
	return r, nil
}
