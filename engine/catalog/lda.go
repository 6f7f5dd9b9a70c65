package catalog

import (
	"fmt"
	"math"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/lda"
)

// ldaFamily is Latent Dirichlet Allocation by collapsed Gibbs sampling
// (engine/lda).
func ldaFamily() Family {
	return Family{
		Name: "lda",
		Doc:  "LDA by collapsed Gibbs sampling, estimates averaged after burn-in, fold-in by Gibbs with φ fixed (Blei et al. 2003; Griffiths & Steyvers, PNAS 2004)",
		Params: []Param{
			{Key: "k", Default: strconv.Itoa(lda.DefaultK), Doc: "number of topics K"},
			{Key: "alpha", Default: "50/K", Doc: "symmetric Dirichlet parameter of θ (> 0)"},
			{Key: "beta", Default: strconv.FormatFloat(lda.DefaultBeta, 'g', -1, 64), Doc: "symmetric Dirichlet parameter of φ (> 0)"},
			{Key: "iters", Default: strconv.Itoa(lda.DefaultIters), Doc: "Gibbs sweeps over all tokens"},
			{Key: "burnin", Default: "iters/2", Doc: "initial sweeps not averaged into φ and θ (0 ≤ burnin < iters)"},
			{Key: "seed", Default: "0", Doc: "seed of the initial assignment and the sampler"},
			{Key: "round", Default: "false", Doc: "round non-integer weights of D to counts (true) instead of refusing them (false)"},
		},
		New: newLDA,
	}
}

func newLDA(p Params) (engine.Method, error) {
	var o lda.Options
	var err error
	if o.K, err = p.Int("k", lda.DefaultK); err != nil {
		return nil, err
	}
	if o.K <= 0 {
		return nil, fmt.Errorf("parameter k = %d: want ≥ 1", o.K)
	}
	if _, ok := p["alpha"]; ok {
		if o.Alpha, err = p.Float("alpha", 0); err != nil {
			return nil, err
		}
		if !(o.Alpha > 0) || math.IsInf(o.Alpha, 0) {
			return nil, fmt.Errorf("parameter alpha = %v: want a finite number > 0", o.Alpha)
		}
	}
	if o.Beta, err = p.Float("beta", lda.DefaultBeta); err != nil {
		return nil, err
	}
	if !(o.Beta > 0) || math.IsInf(o.Beta, 0) {
		return nil, fmt.Errorf("parameter beta = %v: want a finite number > 0", o.Beta)
	}
	if o.Iters, err = p.Int("iters", lda.DefaultIters); err != nil {
		return nil, err
	}
	if o.Iters <= 0 {
		return nil, fmt.Errorf("parameter iters = %d: want ≥ 1", o.Iters)
	}
	if _, ok := p["burnin"]; ok {
		if o.BurnIn, err = p.Int("burnin", 0); err != nil {
			return nil, err
		}
		switch {
		case o.BurnIn < 0 || o.BurnIn >= o.Iters:
			return nil, fmt.Errorf("parameter burnin = %d: want 0 ≤ burnin < iters = %d", o.BurnIn, o.Iters)
		case o.BurnIn == 0:
			o.BurnIn = -1 // Options: 0 is the default iters/2, negative is none
		}
	}
	if o.Seed, err = p.Uint64("seed", 0); err != nil {
		return nil, err
	}
	if o.RoundWeights, err = strconv.ParseBool(p.String("round", "false")); err != nil {
		return nil, fmt.Errorf("parameter round = %q: want true or false", p["round"])
	}
	return o, nil
}
