package catalog

import (
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/nmfvariants"
)

// nmfeFamily is NMF_E, the TNMF paper's ℓ2-regularized Euclidean NMF
// baseline (engine/nmfvariants).
func nmfeFamily() Family {
	return Family{
		Name: "nmfe",
		Doc:  "NMF_E: min ‖D−UVᵀ‖²_F + λ(‖U‖²_F + ‖V‖²_F), U,V ≥ 0, multiplicative updates (TNMF baseline, Yan et al. SDM 2013 §5.2)",
		Params: append([]Param{
			{Key: "k", Default: strconv.Itoa(nmfvariants.DefaultK), Doc: "number of topics K (1 ≤ K ≤ min(terms, documents))"},
			{Key: "lambda", Default: strconv.FormatFloat(nmfvariants.DefaultLambda, 'g', -1, 64), Doc: "λ > 0 of the ℓ2 regularizer on both factors"},
			{Key: "seed", Default: "0", Doc: "seed of the random start (|N(0,1)|·sqrt(mean(D)/K))"},
		}, shortTextStoppingParams("maximum iterations (a V update and a U update each)", "the objective")...),
		New: func(p Params) (engine.Method, error) {
			var o nmfvariants.EOptions
			var err error
			if o.K, err = positiveInt(p, "k", nmfvariants.DefaultK); err != nil {
				return nil, err
			}
			if o.Lambda, err = positiveFloat(p, "lambda", nmfvariants.DefaultLambda); err != nil {
				return nil, err
			}
			if o.Seed, err = p.Uint64("seed", 0); err != nil {
				return nil, err
			}
			if o.Stopping, err = shortTextStopping(p); err != nil {
				return nil, err
			}
			return o, nil
		},
	}
}
