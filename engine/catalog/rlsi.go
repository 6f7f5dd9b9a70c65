package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rlsi"
)

// rlsiFamily is Regularized Latent Semantic Indexing (engine/rlsi).
func rlsiFamily() Family {
	return Family{
		Name: "rlsi",
		Doc:  "Regularized LSI: min ‖D−UV‖²_F + λ1·R(U) + λ2·R(V), alternating lasso/ridge updates (Wang et al., SIGIR 2011, Eq. 1, Alg. 1–3)",
		Params: []Param{
			{Key: "k", Default: strconv.Itoa(rlsi.DefaultK), Doc: "number of topics K"},
			{Key: "lambda1", Default: strconv.FormatFloat(rlsi.DefaultLambda1, 'g', -1, 64), Doc: "λ1 > 0, weight of the regularizer on U"},
			{Key: "lambda2", Default: strconv.FormatFloat(rlsi.DefaultLambda2, 'g', -1, 64), Doc: "λ2 > 0, weight of the regularizer on V"},
			{Key: "variant", Default: rlsi.U1V2.String(), Doc: "norms on U and V: u1v2 (Eq. 1), u2v1, u1v1 or u2v2 (ℓ2 = squared)"},
			{Key: "iters", Default: strconv.Itoa(engine.DefaultMaxIter), Doc: "maximum outer iterations (Algorithm 1)"},
			{Key: "tol", Default: strconv.FormatFloat(engine.DefaultRelTol, 'g', -1, 64), Doc: "relative objective change that stops the fit; 0 or negative runs all iterations"},
			{Key: "inner-sweeps", Default: strconv.Itoa(rlsi.DefaultInnerSweeps), Doc: "maximum coordinate-descent sweeps per row of an ℓ1 update"},
			{Key: "inner-tol", Default: strconv.FormatFloat(rlsi.DefaultInnerTol, 'g', -1, 64), Doc: "a row's sweeps stop when its largest change ≤ inner-tol × its largest magnitude; 0 or negative runs all sweeps"},
			{Key: "seed", Default: "0", Doc: "seed of the random V⁽⁰⁾ (N(0,1) entries)"},
			{Key: "lambda-scale", Default: "absolute", Doc: "absolute: λ1, λ2 as given (Eq. 1); relative: λ stated for documents of unit RMS length, ℓ1 weights × ŝ^{3/2} and squared-ℓ2 weights × ŝ, ŝ = ‖D‖_F/√N (rlsi.Options.RelativeLambda)"},
			{Key: "init-scale", Default: "unit", Doc: "unit: V⁽⁰⁾ entries N(0,1); balanced: N(0,σ²) with σ = √(ŝ/N), ŝ = ‖D‖_F/√N (rlsi.Options.BalancedInit)"},
		},
		New: newRLSI,
	}
}

func newRLSI(p Params) (engine.Method, error) {
	var o rlsi.Options
	var err error
	if o.K, err = p.Int("k", rlsi.DefaultK); err != nil {
		return nil, err
	}
	if o.K <= 0 {
		return nil, fmt.Errorf("parameter k = %d: want ≥ 1", o.K)
	}
	if o.Lambda1, err = p.Float("lambda1", rlsi.DefaultLambda1); err != nil {
		return nil, err
	}
	if o.Lambda2, err = p.Float("lambda2", rlsi.DefaultLambda2); err != nil {
		return nil, err
	}
	// In Options a zero λ selects the default; on the command line that
	// would silently turn "lambda1=0" into 0.5, so it is refused here.
	for _, kv := range []struct {
		key string
		v   float64
	}{{"lambda1", o.Lambda1}, {"lambda2", o.Lambda2}} {
		if !(kv.v > 0) {
			return nil, fmt.Errorf("parameter %s = %v: want a number > 0", kv.key, kv.v)
		}
	}
	if o.Variant, err = rlsi.ParseVariant(p.String("variant", rlsi.U1V2.String())); err != nil {
		return nil, fmt.Errorf("parameter variant: %w", err)
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
		// 0 in Stopping means the default; "tol=0" asks for no early stop
		// short of an exact fixed point, the nearest being a disabled test.
		o.Stopping.RelTol = -1
	}
	if o.InnerSweeps, err = p.Int("inner-sweeps", rlsi.DefaultInnerSweeps); err != nil {
		return nil, err
	}
	if o.InnerSweeps <= 0 {
		return nil, fmt.Errorf("parameter inner-sweeps = %d: want ≥ 1", o.InnerSweeps)
	}
	if o.InnerTol, err = p.Float("inner-tol", rlsi.DefaultInnerTol); err != nil {
		return nil, err
	}
	if o.InnerTol == 0 {
		o.InnerTol = -1 // as for tol: 0 means run every sweep
	}
	if o.Seed, err = p.Uint64("seed", 0); err != nil {
		return nil, err
	}
	switch ls := p.String("lambda-scale", "absolute"); ls {
	case "absolute":
	case "relative":
		o.RelativeLambda = true
	default:
		return nil, fmt.Errorf("parameter lambda-scale = %q: want absolute or relative", ls)
	}
	switch is := p.String("init-scale", "unit"); is {
	case "unit":
	case "balanced":
		o.BalancedInit = true
	default:
		return nil, fmt.Errorf("parameter init-scale = %q: want unit or balanced", is)
	}
	return o, nil
}
