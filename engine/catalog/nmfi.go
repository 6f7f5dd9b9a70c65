package catalog

import (
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/nmfvariants"
)

// nmfiFamily is NMF_I, the TNMF paper's I-divergence NMF baseline
// (engine/nmfvariants).
func nmfiFamily() Family {
	return Family{
		Name: "nmfi",
		Doc:  "NMF_I: min D(D‖UVᵀ) (generalized I-divergence), U,V ≥ 0, Lee & Seung multiplicative updates, no regularizer (TNMF baseline, Yan et al. SDM 2013 §5.2)",
		Params: append([]Param{
			{Key: "k", Default: strconv.Itoa(nmfvariants.DefaultK), Doc: "number of topics K (1 ≤ K ≤ min(terms, documents))"},
			{Key: "seed", Default: "0", Doc: "seed of the random start (|N(0,1)|·sqrt(mean(D)/K))"},
		}, shortTextStoppingParams("maximum iterations (a V update and a U update each)", "the I-divergence")...),
		New: func(p Params) (engine.Method, error) {
			var o nmfvariants.IOptions
			var err error
			if o.K, err = positiveInt(p, "k", nmfvariants.DefaultK); err != nil {
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
