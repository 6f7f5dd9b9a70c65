package jtd

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/parallel"
)

// Defaults of the options that do not depend on the data (doc.go says why).
const (
	DefaultK           = 30 // the paper's smallest k (Fig. 3–4)
	DefaultGamma       = 0.01
	DefaultRho         = 1.5
	DefaultMuMaxFactor = 1e7
	DefaultInnerIters  = 5
	DefaultResidualTol = 1e-6
	DefaultMaxIter     = 100
	DefaultInitIters   = 10
)

// Options configures a fit of the noisy joint topic-document model. The zero
// value is valid: every field left at zero takes the default the doc comment
// names (data-dependent for λ, τ and μ0). Options implements engine.Method.
type Options struct {
	// K is the number of topics; 0 means DefaultK. 1 ≤ K ≤ min(M, N).
	K int
	// Lambda is λ > 0, the weight of ‖E‖₁; 0 means ŝ₁ = mean_n ‖D_n‖₁, the
	// average document's ℓ1 mass (doc.go).
	Lambda float64
	// Tau is τ > 0, the weight of ½‖N‖²_F; 0 means λ/σ̂ with σ̂ the RMS of
	// D's non-zero entries.
	Tau float64
	// LambdaFactor and TauFactor multiply the data-derived defaults of λ
	// and τ (used when Lambda, Tau are 0), for sensitivity sweeps and
	// ablations stated relative to the defaults (τ → ∞ removes N, λ → ∞
	// removes E); 0 means 1.
	LambdaFactor, TauFactor float64
	// Gamma is γ ≥ 0, the weight of ‖B‖²_F in the SNMF sub-problem (Eq. 11);
	// 0 means DefaultGamma. (γ exactly 0 is not available: it leaves the
	// B–S scale of Eq. 11 free.)
	Gamma float64
	// Mu0 is the initial penalty μ0 > 0; 0 means 1.25/‖D‖₂.
	Mu0 float64
	// Rho is ρ > 1, the growth of μ per iteration; 0 means DefaultRho.
	Rho float64
	// MuMax caps μ; 0 means DefaultMuMaxFactor·μ0.
	MuMax float64
	// InnerIters is the number of alternating-NNLS iterations of the SNMF
	// sub-problem per outer iteration; 0 means DefaultInnerIters.
	InnerIters int
	// InitIters is the number of ANLS NMF iterations on D that start (B, S);
	// 0 means DefaultInitIters, a negative value starts from a random B and
	// S = 0.
	InitIters int
	// MaxIter is the largest number of outer iterations; 0 means
	// DefaultMaxIter. EvalEvery of the engine's stopping rule is 1.
	MaxIter int
	// ResidualTol stops the fit when ‖D − BS − E − N‖_F/‖D‖_F ≤ ResidualTol;
	// 0 means DefaultResidualTol, a negative value runs MaxIter iterations.
	ResidualTol float64
	// Seed seeds the random starting B (engine.NewRand).
	Seed uint64
	// Pool runs the parallel kernels; nil means parallel.Default().
	Pool *parallel.Pool
}

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
	if math.IsNaN(o.ResidualTol) || math.IsInf(o.ResidualTol, 0) {
		return fmt.Errorf("jtd: ResidualTol = %v, want a finite number", o.ResidualTol)
	}
	return nil
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

func orDefaultInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
