package gnmfnc

import (
	"cmp"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
)

// The declared defaults (the tags of Options): the paper's chosen setting
// (§3.1: "(Ks, Kp) = (20, 8)", "a = 100", "σ1 = σ2 = σ3 = 1").
const (
	DefaultKs    = 20
	DefaultKp    = 8
	DefaultA     = 100
	DefaultSigma = 1
)

// Eps is ε of the guarded multiplicative updates (the value of engine/nmf
// and engine/groupnmf): every update factor is (num + ε)/(den + ε).
const Eps = 1e-16

// Options configure GNMFNC (COLING 2014, Eq. 1–3); every option is declared
// once, by its tags (engine/param). Start from Defaults(): in a Go literal a
// and the σ's at 0 mean exactly 0 (that term is absent), while Ks, Kp and
// the iteration limit at 0 select their defaults. Options implements
// engine.Method; its Fit needs a corpus whose every document has a category
// (class label).
type Options struct {
	// Ks is the number of shared topics (columns of U_s), ≥ 1: α_p =
	// a/(Ks·Kp) needs it.
	Ks int `param:"ks" default:"20" range:"[1,inf)" doc:"shared topics Ks"`
	// Kp is the number of category-specific topics of every category, ≥ 1.
	// Ks + Kp is at most min(M, N) (Fit's error otherwise); the model has
	// K = Ks + P·Kp topics in all, which may exceed it.
	Kp int `param:"kp" default:"8" range:"[1,inf)" doc:"topics of each category Kp (K = ks + categories·kp)"`
	// A is the common factor a of §3.1: α_p = a/(Ks·Kp), β_l = a/(Kp·Kl)
	// (Kl = Kp for every category); 0 removes the regularizer R.
	A float64 `param:"a" default:"100" range:"[0,inf)" doc:"a of α_p = a/(Ks·Kp) and β_l = a/(Kp·Kl) (§3.1); 0: no regularizer R"`
	// Sigma1, Sigma2, Sigma3 are the shrinkage weights σ1 (U_s), σ2 (U_p)
	// and σ3 (V_p) of Eq. 3.
	Sigma1 float64 `param:"sigma1" default:"1" range:"[0,inf)" doc:"σ1, weight of ‖U_sᵀ1 − 1‖² (Eq. 3)"`
	Sigma2 float64 `param:"sigma2" default:"1" range:"[0,inf)" doc:"σ2, weight of ‖U_pᵀ1 − 1‖² (Eq. 3)"`
	Sigma3 float64 `param:"sigma3" default:"1" range:"[0,inf)" doc:"σ3, weight of ‖V_p1 − 1‖² (Eq. 3)"`
	// Stopping bounds the iterations and sets the relative-change test on
	// the objective L of Eq. 3.
	Stopping engine.Stopping `param:"iters,tol" tol:"relative change of the objective of Eq. 3 that stops the fit; 0 runs every iteration"`
	// Seed seeds the random initialization (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random initialization"`
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults.
func Defaults() Options { return param.DefaultsOf[Options]() }

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

// Alpha is α_p = a/(Ks·Kp) and Beta is β_l = a/(Kp·Kl) with Kl = Kp
// (§3.1). With the paper's a = 100 and (Ks, Kp) = (20, 8), α = 0.625 as
// §3.1 says; β = 100/64 = 1.5625 by the same formula (the paper's "αp = βl
// = 0.625" holds for α only).
func Alpha(a float64, ks, kp int) float64 { return a / (float64(ks) * float64(kp)) }

// Beta is β_l = a/(Kp·Kl) (see Alpha).
func Beta(a float64, kp, kl int) float64 { return a / (float64(kp) * float64(kl)) }

func (o Options) resolve() (settings, error) {
	if err := param.Check(o); err != nil {
		return settings{}, fmt.Errorf("gnmfnc: %w", err)
	}
	s := settings{stop: o.Stopping, seed: o.Seed, pool: o.Pool, ks: cmp.Or(o.Ks, DefaultKs), kp: cmp.Or(o.Kp, DefaultKp),
		a: o.A, sig1: o.Sigma1, sig2: o.Sigma2, sig3: o.Sigma3}
	s.alpha, s.beta = Alpha(s.a, s.ks, s.kp), Beta(s.a, s.kp, s.kp)
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("gnmfnc: Stopping: %w", err)
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
