package gnmfnc

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
)

// Defaults applied where an Options field is zero: the paper's chosen
// setting (§3.1: "(Ks, Kp) = (20, 8)", "a = 100", "σ1 = σ2 = σ3 = 1").
const (
	DefaultKs    = 20
	DefaultKp    = 8
	DefaultA     = 100
	DefaultSigma = 1
)

// Off, as Options.A or a Sigma field, sets that weight to exactly 0 (0
// selects the default).
const Off = -1

// Eps is ε of the guarded multiplicative updates (the value of engine/nmf
// and engine/groupnmf): every update factor is (num + ε)/(den + ε).
const Eps = 1e-16

// Options configure GNMFNC (COLING 2014, Eq. 1–3). The zero value is valid:
// the paper's (Ks, Kp) = (20, 8), a = 100, σ1 = σ2 = σ3 = 1, the engine's
// default stopping rule, seed 0 and the default pool. Options implements
// engine.Method; its Fit needs a corpus whose every document has a category
// (class label).
type Options struct {
	// Ks is the number of shared topics (columns of U_s); 0 means
	// DefaultKs. Ks ≥ 1: α_p = a/(Ks·Kp) needs it.
	Ks int
	// Kp is the number of category-specific topics of every category; 0
	// means DefaultKp. Kp ≥ 1. The model has K = Ks + P·Kp topics in all.
	Kp int
	// A is the common factor a of §3.1: α_p = a/(Ks·Kp), β_l = a/(Kp·Kl)
	// (Kl = Kp for every category). 0 means DefaultA, Off means a = 0 (no
	// regularizer R).
	A float64
	// Sigma1, Sigma2, Sigma3 are the shrinkage weights σ1 (U_s), σ2 (U_p)
	// and σ3 (V_p) of Eq. 3; 0 means DefaultSigma, Off means 0.
	Sigma1, Sigma2, Sigma3 float64
	// Stopping bounds the iterations and sets the relative-change test on
	// the objective L of Eq. 3.
	Stopping engine.Stopping
	// Seed seeds the random initialization (engine.NewRand).
	Seed uint64
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Name is the registry name, "gnmfnc".
func (o Options) Name() string { return "gnmfnc" }

// settings are the resolved options.
type settings struct {
	ks, kp           int
	a, alpha, beta   float64
	sig1, sig2, sig3 float64
	stop             engine.Stopping
	seed             uint64
	pool             *parallel.Pool
}

// weight applies the default and Off to a weight field.
func weight(name string, v, def float64) (float64, error) {
	switch {
	case v == 0:
		return def, nil
	case v == Off:
		return 0, nil
	case math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
		return 0, fmt.Errorf("gnmfnc: %s = %v, want a finite number > 0 (0 for the default %v, Off for none)", name, v, def)
	}
	return v, nil
}

// Alpha is α_p = a/(Ks·Kp) and Beta is β_l = a/(Kp·Kl) with Kl = Kp
// (§3.1). With the paper's a = 100 and (Ks, Kp) = (20, 8), α = 0.625 as
// §3.1 says; β = 100/64 = 1.5625 by the same formula (the paper's "αp = βl
// = 0.625" holds for α only).
func Alpha(a float64, ks, kp int) float64 { return a / (float64(ks) * float64(kp)) }

// Beta is β_l = a/(Kp·Kl) (see Alpha).
func Beta(a float64, kp, kl int) float64 { return a / (float64(kp) * float64(kl)) }

func (o Options) resolve() (settings, error) {
	s := settings{stop: o.Stopping, seed: o.Seed, pool: o.Pool, ks: o.Ks, kp: o.Kp}
	if s.ks == 0 {
		s.ks = DefaultKs
	}
	if s.kp == 0 {
		s.kp = DefaultKp
	}
	if s.ks < 1 || s.kp < 1 {
		return s, fmt.Errorf("gnmfnc: Ks = %d, Kp = %d, want both ≥ 1 (0 for the defaults %d, %d): α_p = a/(Ks·Kp) needs shared and category topics", o.Ks, o.Kp, DefaultKs, DefaultKp)
	}
	var err error
	if s.a, err = weight("A", o.A, DefaultA); err != nil {
		return s, err
	}
	if s.sig1, err = weight("Sigma1", o.Sigma1, DefaultSigma); err != nil {
		return s, err
	}
	if s.sig2, err = weight("Sigma2", o.Sigma2, DefaultSigma); err != nil {
		return s, err
	}
	if s.sig3, err = weight("Sigma3", o.Sigma3, DefaultSigma); err != nil {
		return s, err
	}
	s.alpha, s.beta = Alpha(s.a, s.ks, s.kp), Beta(s.a, s.kp, s.kp)
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("gnmfnc: Stopping: %w", err)
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
