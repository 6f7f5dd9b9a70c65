package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/lsi"
)

// lsiFamily is Latent Semantic Indexing (engine/lsi).
func lsiFamily() Family {
	return Family{
		Name: "lsi",
		Doc:  "LSI: rank-K truncated SVD D ≈ U_K Σ_K V_Kᵀ by randomized subspace iteration, fold-in Σ⁻¹U_Kᵀq (Deerwester et al. 1990; Halko et al. 2011)",
		Params: []Param{
			{Key: "k", Default: strconv.Itoa(lsi.DefaultK), Doc: "number of topics K (singular triplets)"},
			{Key: "power-iters", Default: strconv.Itoa(lsi.DefaultPowerIters), Doc: "power (subspace) iterations q; 0 for none"},
			{Key: "oversample", Default: fmt.Sprintf("max(K, %d)", lsi.DefaultMinOversample), Doc: "extra columns p of the random sketch (≥ 1)"},
			{Key: "seed", Default: "0", Doc: "seed of the Gaussian test matrix"},
		},
		New: newLSI,
	}
}

func newLSI(p Params) (engine.Method, error) {
	var o lsi.Options
	var err error
	if o.K, err = p.Int("k", lsi.DefaultK); err != nil {
		return nil, err
	}
	if o.K <= 0 {
		return nil, fmt.Errorf("parameter k = %d: want ≥ 1", o.K)
	}
	if o.PowerIters, err = p.Int("power-iters", lsi.DefaultPowerIters); err != nil {
		return nil, err
	}
	switch {
	case o.PowerIters < 0:
		return nil, fmt.Errorf("parameter power-iters = %d: want ≥ 0", o.PowerIters)
	case o.PowerIters == 0:
		o.PowerIters = -1 // Options: 0 is the default, negative is none
	}
	if _, ok := p["oversample"]; ok {
		if o.Oversample, err = p.Int("oversample", 0); err != nil {
			return nil, err
		}
		if o.Oversample <= 0 {
			// 0 in Options means the default; on the command line it
			// would silently become max(K, 10), so it is refused.
			return nil, fmt.Errorf("parameter oversample = %d: want ≥ 1", o.Oversample)
		}
	}
	if o.Seed, err = p.Uint64("seed", 0); err != nil {
		return nil, err
	}
	return o, nil
}
