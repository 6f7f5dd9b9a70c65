package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/nmf"
)

// nmfFamily is non-negative matrix factorization by multiplicative updates
// (engine/nmf).
func nmfFamily() Family {
	return Family{
		Name: "nmf",
		Doc:  "NMF: min ‖D−UVᵀ‖²_F, U,V ≥ 0, by multiplicative updates (Lee & Seung, NIPS 2001, eq. 4), ε-guarded",
		Params: []Param{
			{Key: "k", Default: strconv.Itoa(nmf.DefaultK), Doc: "number of topics K (1 ≤ K ≤ min(terms, documents))"},
			{Key: "iters", Default: strconv.Itoa(engine.DefaultMaxIter), Doc: "maximum iterations (one V update and one U update each)"},
			{Key: "tol", Default: strconv.FormatFloat(engine.DefaultRelTol, 'g', -1, 64), Doc: "relative decrease of ‖D−UVᵀ‖²_F that stops the fit; 0 or negative runs all iterations"},
			{Key: "seed", Default: "0", Doc: "seed of the random initialization and of the randomized SVD of nndsvd"},
			{Key: "init", Default: nmf.InitRandom, Doc: "random (|N(0,1)|·sqrt(mean(D)/K), as scikit-learn), nndsvd (Boutsidis & Gallopoulos 2008) or nndsvda (zeros filled with mean(D))"},
		},
		New: newNMF,
	}
}

func newNMF(p Params) (engine.Method, error) {
	var o nmf.Options
	var err error
	if o.K, err = p.Int("k", nmf.DefaultK); err != nil {
		return nil, err
	}
	if o.K <= 0 {
		return nil, fmt.Errorf("parameter k = %d: want ≥ 1", o.K)
	}
	if o.Stopping.MaxIter, err = p.Int("iters", engine.DefaultMaxIter); err != nil {
		return nil, err
	}
	if o.Stopping.MaxIter <= 0 {
		return nil, fmt.Errorf("parameter iters = %d: want ≥ 1", o.Stopping.MaxIter)
	}
	if o.Stopping.RelTol, err = p.Float("tol", engine.DefaultRelTol); err != nil {
		return nil, err
	}
	if o.Stopping.RelTol == 0 {
		// 0 in Stopping means the default; "tol=0" asks for every iteration.
		o.Stopping.RelTol = -1
	}
	if err := o.Stopping.Validate(); err != nil {
		return nil, fmt.Errorf("parameter tol: %w", err)
	}
	if o.Seed, err = p.Uint64("seed", 0); err != nil {
		return nil, err
	}
	switch o.Init = p.String("init", nmf.InitRandom); o.Init {
	case nmf.InitRandom, nmf.InitNNDSVD, nmf.InitNNDSVDA:
	default:
		// "custom" needs matrices, which string parameters cannot carry.
		return nil, fmt.Errorf("parameter init = %q: want random, nndsvd or nndsvda", o.Init)
	}
	return o, nil
}
