package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/graphnmf"
)

// graphnmfFamily is graph-regularized NMF (engine/graphnmf), a baseline of
// the TNMF paper.
func graphnmfFamily() Family {
	return Family{
		Name: "graphnmf",
		Doc:  "graph-regularized NMF: min ‖D−UVᵀ‖²_F + λ·Tr(VᵀLV) on a cosine p-NN document graph, multiplicative updates (Cai, He, Han, Huang, TPAMI 2011)",
		Params: append([]Param{
			{Key: "k", Default: strconv.Itoa(graphnmf.DefaultK), Doc: "number of topics K (1 ≤ K ≤ min(terms, documents))"},
			{Key: "lambda", Default: strconv.FormatFloat(graphnmf.DefaultLambda, 'g', -1, 64), Doc: "λ > 0 of the graph regularizer (Cai et al. use 100)"},
			{Key: "neighbors", Default: strconv.Itoa(graphnmf.DefaultNeighbors), Doc: "p of the p-nearest-neighbour graph (by cosine)"},
			{Key: "weighting", Default: graphnmf.Binary.String(), Doc: "edge weights: binary (0-1), heat (exp(−‖x̃i−x̃j‖²/σ)) or cosine"},
			{Key: "sigma", Default: strconv.FormatFloat(graphnmf.DefaultSigma, 'g', -1, 64), Doc: "σ > 0 of the heat weighting"},
			{Key: "normalize", Default: "true", Doc: "scale the columns of U to unit norm at the end (V by the inverse), as the authors' code"},
			{Key: "seed", Default: "0", Doc: "seed of the random start (|N(0,1)|·sqrt(mean(D)/K))"},
		}, shortTextStoppingParams("maximum iterations (a V update and a U update each)", "the objective")...),
		New: func(p Params) (engine.Method, error) {
			var o graphnmf.Options
			var err error
			if o.K, err = positiveInt(p, "k", graphnmf.DefaultK); err != nil {
				return nil, err
			}
			if o.Lambda, err = positiveFloat(p, "lambda", graphnmf.DefaultLambda); err != nil {
				return nil, err
			}
			if o.Neighbors, err = positiveInt(p, "neighbors", graphnmf.DefaultNeighbors); err != nil {
				return nil, err
			}
			if o.Weighting, err = graphnmf.ParseWeighting(p.String("weighting", graphnmf.Binary.String())); err != nil {
				return nil, fmt.Errorf("parameter weighting: %w", err)
			}
			if o.Sigma, err = positiveFloat(p, "sigma", graphnmf.DefaultSigma); err != nil {
				return nil, err
			}
			norm, err := strconv.ParseBool(p.String("normalize", "true"))
			if err != nil {
				return nil, fmt.Errorf("parameter normalize = %q: want true or false", p.String("normalize", ""))
			}
			o.NoNormalize = !norm
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
