package jtd

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
)

// Defaults of the options that do not depend on the data, as declared on
// Options (doc.go says why). K's default is the paper's smallest k (Fig. 3–4).
const (
	DefaultK           = 30
	DefaultGamma       = 0.01
	DefaultRho         = 1.5
	DefaultMuMaxFactor = 1e7
	DefaultInnerIters  = 5
	DefaultResidualTol = 1e-6
	DefaultMaxIter     = 100
	DefaultInitIters   = 10
)

// Options configures a fit of the noisy joint topic-document model; every
// option is declared once, by its tags (engine/param). Start from
// Defaults(). In a Go literal, ResidualTol at 0 means exactly 0 (run every
// iteration), while the other fields at 0 select their defaults
// (data-dependent for λ, τ, μ0 and μ_max: doc.go says why).
type Options struct {
	// K is the number of topics, 1 ≤ K ≤ min(M, N).
	K int `param:"k" default:"30" range:"[1,inf)" doc:"number of topics K"`
	// Lambda is λ, the weight of ‖E‖₁; 0 means LambdaFactor·ŝ₁ with
	// ŝ₁ = mean_n ‖D_n‖₁, the average document's ℓ1 mass (doc.go).
	Lambda float64 `param:"lambda" default:"mean document ℓ1 mass" auto:"0" range:"(0,inf)" doc:"λ, weight of ‖E‖₁ (keyword part)"`
	// Tau is τ, the weight of ½‖N‖²_F; 0 means TauFactor·λ/σ̂ with σ̂ the
	// RMS of D's non-zero entries.
	Tau float64 `param:"tau" default:"λ/RMS of the non-zero weights" auto:"0" range:"(0,inf)" doc:"τ, weight of ½‖N‖²_F (noise part)"`
	// LambdaFactor and TauFactor multiply the data-derived defaults of λ
	// and τ (used when Lambda, Tau are 0), for sensitivity sweeps and
	// ablations stated relative to the defaults (τ → ∞ removes N, λ → ∞
	// removes E).
	LambdaFactor float64 `param:"lambda-factor" default:"1" range:"(0,inf)" doc:"multiplies the default λ (when lambda is unset)"`
	TauFactor    float64 `param:"tau-factor" default:"1" range:"(0,inf)" doc:"multiplies the default τ (when tau is unset); large values remove N"`
	// Gamma is γ, the weight of ‖B‖²_F in the SNMF sub-problem (Eq. 11).
	Gamma float64 `param:"gamma" default:"0.01" range:"(0,inf)" doc:"γ, weight of ‖B‖²_F in the (B, S) sub-problem (Eq. 11)"`
	// Mu0 is the initial penalty μ0; 0 means 1.25/‖D‖₂.
	Mu0 float64 `param:"mu0" default:"1.25/‖D‖₂" auto:"0" range:"(0,inf)" doc:"initial ALM penalty μ0"`
	// Rho is ρ > 1, the growth of μ per iteration.
	Rho float64 `param:"rho" default:"1.5" range:"(1,inf)" doc:"growth ρ of μ per iteration"`
	// MuMax caps μ; 0 means DefaultMuMaxFactor·μ0.
	MuMax float64 `param:"mu-max" default:"1e7·μ0" auto:"0" range:"(0,inf)" doc:"cap of μ (not in the paper; μ overflows without it)"`
	// InnerIters is the number of alternating-NNLS iterations of the SNMF
	// sub-problem per outer iteration.
	InnerIters int `param:"inner" default:"5" range:"[1,inf)" doc:"ANLS iterations of the (B, S) sub-problem per ALM iteration"`
	// InitIters is the number of ANLS NMF iterations on D that start (B, S);
	// a negative value (Go only) starts from a random B and S = 0.
	InitIters int `param:"init-iters" default:"10" range:"[1,inf)" doc:"ANLS NMF iterations on D that start (B, S)"`
	// MaxIter is the largest number of outer iterations.
	MaxIter int `param:"iters" default:"100" range:"[1,inf)" doc:"maximum ALM iterations"`
	// ResidualTol stops the fit when ‖D − BS − E − N‖_F/‖D‖_F ≤ ResidualTol.
	ResidualTol float64 `param:"residual-tol" default:"1e-6" range:"[0,inf)" doc:"stop when ‖D−BS−E−N‖_F/‖D‖_F ≤ residual-tol; 0 runs every iteration"`
	// Seed seeds the random starting B (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random starting B"`
	// Pool runs the parallel kernels; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults.
func Defaults() Options { return param.DefaultsOf[Options]() }

// Name is the registry name "jtd".
func (o Options) Name() string { return "jtd" }

// settings are the options resolved against a corpus.
type settings struct {
	k                      int
	lambda, tau, gamma     float64
	mu0, rho, muMax        float64
	inner, maxIter         int
	initIters              int
	residualTol            float64
	seed                   uint64
	pool                   *parallel.Pool
	sigmaHat, spectralNorm float64 // the data scales the defaults used
	meanL1                 float64
}

func positiveOrZero(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("jtd: %s = %v, want a finite number > 0 (or 0 for the default)", name, v)
	}
	return nil
}

// check validates what can be checked without the data.
func (o Options) check() error {
	if o.K < 0 {
		return fmt.Errorf("jtd: K = %d, want ≥ 1 (or 0 for the default %d)", o.K, DefaultK)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"λ (Lambda)", o.Lambda}, {"τ (Tau)", o.Tau}, {"γ (Gamma)", o.Gamma}, {"μ0 (Mu0)", o.Mu0}, {"μ_max (MuMax)", o.MuMax},
		{"LambdaFactor", o.LambdaFactor}, {"TauFactor", o.TauFactor}} {
		if err := positiveOrZero(f.name, f.v); err != nil {
			return err
		}
	}
	if o.Rho != 0 && !(o.Rho > 1) || math.IsInf(o.Rho, 0) {
		return fmt.Errorf("jtd: ρ (Rho) = %v, want a finite number > 1 (or 0 for the default %v)", o.Rho, DefaultRho)
	}
	if o.InnerIters < 0 || o.MaxIter < 0 {
		return fmt.Errorf("jtd: InnerIters = %d, MaxIter = %d, want ≥ 0 (0 for the defaults)", o.InnerIters, o.MaxIter)
	}
	if math.IsNaN(o.ResidualTol) || math.IsInf(o.ResidualTol, 0) || o.ResidualTol < 0 {
		return fmt.Errorf("jtd: ResidualTol = %v, want a finite number ≥ 0", o.ResidualTol)
	}
	return nil
}
