package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/symmetric"
	"github.com/topicmf/topicmf/engine/symnmf"
)

// symnmfFamily is SymNMF on the document cosine matrix (engine/symnmf), a
// baseline of the TNMF paper.
func symnmfFamily() Family {
	return Family{
		Name: "symnmf",
		Doc:  "SymNMF: min ‖A−HHᵀ‖²_F, H ≥ 0, A = document cosine similarities, projected gradient with Armijo steps; cluster = argmax of a row of H (Kuang, Ding, Park, SDM 2012)",
		Params: append([]Param{
			{Key: "k", Default: strconv.Itoa(symnmf.DefaultK), Doc: "number of clusters K (1 ≤ K ≤ documents)"},
			{Key: "sigma", Default: strconv.FormatFloat(symnmf.DefaultSigma, 'g', -1, 64), Doc: "σ in (0, 1) of the Armijo rule"},
			{Key: "beta", Default: strconv.FormatFloat(symnmf.DefaultBeta, 'g', -1, 64), Doc: "β in (0, 1), the step shrink factor of the Armijo rule"},
			{Key: "storage", Default: symmetric.StorageAuto.String(), Doc: "A storage: auto (dense from density 0.5), sparse or dense"},
			{Key: "seed", Default: "0", Doc: "seed of the random H⁽⁰⁾ (2·sqrt(mean(A)/K)·Uniform[0,1))"},
		}, shortTextStoppingParams("maximum projected-gradient iterations", "‖A−HHᵀ‖²_F")...),
		New: func(p Params) (engine.Method, error) {
			var o symnmf.Options
			var err error
			if o.K, err = positiveInt(p, "k", symnmf.DefaultK); err != nil {
				return nil, err
			}
			for _, f := range []struct {
				key string
				v   *float64
				def float64
			}{{"sigma", &o.Sigma, symnmf.DefaultSigma}, {"beta", &o.Beta, symnmf.DefaultBeta}} {
				if *f.v, err = p.Float(f.key, f.def); err != nil {
					return nil, err
				}
				if !(*f.v > 0 && *f.v < 1) {
					return nil, fmt.Errorf("parameter %s = %v: want a number in (0, 1)", f.key, *f.v)
				}
			}
			if o.Storage, err = symmetric.ParseStorage(p.String("storage", symmetric.StorageAuto.String())); err != nil {
				return nil, fmt.Errorf("parameter storage: %w", err)
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
