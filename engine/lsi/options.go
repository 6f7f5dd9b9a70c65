package lsi

import (
	"fmt"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/rsvd"
)

// The declared defaults (the tags of Options). They are chosen for
// accuracy, LSI being the exact truncated SVD: on MED's tf-idf matrix (a
// flat spectrum, σ_20/σ_1 ≈ 0.48) with K = 20 they give the K singular
// values to a relative 3e-7 of a dense reference, where engine/rsvd's own
// defaults (10 extra columns, 4 power iterations) leave errors of 3%.
const (
	// DefaultK is the number of topics of the RLSI paper's topic tables
	// (Section 6.3: K = 20 for every method).
	DefaultK = 20
	// DefaultMinOversample is the smallest default oversampling: the
	// default is max(K, DefaultMinOversample) extra sketch columns, so the
	// sketch has 2K columns for K ≥ 10 (Halko et al. Section 4.2 use
	// p = 5–10 for rapidly decaying spectra; text spectra decay slowly).
	DefaultMinOversample = rsvd.DefaultOversample
	// DefaultPowerIters is the number of power iterations q.
	DefaultPowerIters = 20
)

// Options configure LSI; Options implements engine.Method. Its declared
// fields are the parameters of the "lsi" catalog family (engine/param):
// Defaults returns K = 20, oversampling max(K, 10), 20 power iterations,
// seed 0 and the default pool. In a literal, a zero K or Oversample
// selects its default, while a zero PowerIters means none.
type Options struct {
	// K is the number of topics (singular triplets); 0 means DefaultK. It
	// must not exceed min(M, N) of the corpus.
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K (singular triplets)"`
	// Oversample is the number of extra columns of the random sketch; 0
	// means max(K, DefaultMinOversample). The sketch has
	// min(K + Oversample, M, N) columns.
	Oversample int `param:"oversample" default:"max(K, 10)" auto:"0" range:"[1,inf)" doc:"extra columns p of the random sketch"`
	// PowerIters is the number of power (subspace) iterations q ≥ 0.
	PowerIters int `param:"power-iters" default:"20" range:"[0,inf)" doc:"power (subspace) iterations q; 0 for none"`
	// Seed seeds the Gaussian test matrix (engine.NewRand).
	Seed uint64 `param:"seed" default:"0" doc:"seed of the Gaussian test matrix"`
	// Pool runs the sparse × dense products; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options {
	var o Options
	param.Defaults(&o)
	return o
}

// Name is the registry name, "lsi".
func (o Options) Name() string { return "lsi" }

// resolve validates o against an M×N corpus and applies the defaults.
func (o Options) resolve(m, n int) (rsvd.Options, error) {
	r := rsvd.Options{K: o.K, Oversample: o.Oversample, PowerIters: o.PowerIters, Seed: o.Seed, Pool: o.Pool}
	if err := param.Check(o); err != nil {
		return r, fmt.Errorf("lsi: %w", err)
	}
	if r.K == 0 {
		r.K = DefaultK
	}
	if r.K > min(m, n) {
		return r, fmt.Errorf("lsi: K = %d exceeds min(M, N) = min(%d terms, %d documents) = %d", r.K, m, n, min(m, n))
	}
	if r.Oversample == 0 {
		r.Oversample = max(r.K, DefaultMinOversample)
	}
	if r.PowerIters == 0 {
		r.PowerIters = -1 // engine/rsvd reads 0 as its own default and a negative value as none
	}
	if r.Pool == nil {
		r.Pool = parallel.Default()
	}
	return r, nil
}
