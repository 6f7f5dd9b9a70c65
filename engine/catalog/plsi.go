package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/plsi"
)

// plsiFamily is Probabilistic Latent Semantic Indexing (engine/plsi).
func plsiFamily() Family {
	return Family{
		Name: "plsi",
		Doc:  "PLSI: EM for P(w|z), P(z|d) maximizing Σ n(d,w) log Σ_z P(w|z)P(z|d), fold-in by EM with P(w|z) fixed (Hofmann, SIGIR 1999, Sec. 3–4)",
		Params: []Param{
			{Key: "k", Default: strconv.Itoa(plsi.DefaultK), Doc: "number of topics K"},
			{Key: "iters", Default: strconv.Itoa(engine.DefaultMaxIter), Doc: "maximum EM iterations"},
			{Key: "tol", Default: strconv.FormatFloat(engine.DefaultRelTol, 'g', -1, 64), Doc: "relative change of the negative log-likelihood that stops the fit; 0 or negative runs all iterations"},
			{Key: "seed", Default: "0", Doc: "seed of the random initial P(w|z) and P(z|d)"},
		},
		New: newPLSI,
	}
}

func newPLSI(p Params) (engine.Method, error) {
	var o plsi.Options
	var err error
	if o.K, err = p.Int("k", plsi.DefaultK); err != nil {
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
		o.Stopping.RelTol = -1 // as for rlsi: "tol=0" runs every iteration
	}
	if o.Seed, err = p.Uint64("seed", 0); err != nil {
		return nil, err
	}
	return o, nil
}
