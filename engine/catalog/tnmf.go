package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/symmetric"
	"github.com/topicmf/topicmf/engine/tnmf"
)

// tnmfFamily is TNMF, short-text topics by symmetric NMF of the PPMI term
// correlation matrix (engine/tnmf).
func tnmfFamily() Family {
	return Family{
		Name: "tnmf",
		Doc:  "TNMF: S = cosine of PPMI term co-occurrence vectors, U ← max(SU(UᵀU)⁻¹, 0), then V by Eq. 4.6 (e) or I-divergence Newton (i) (Yan et al., SDM 2013, Alg. 1)",
		Params: append([]Param{
			{Key: "k", Default: strconv.Itoa(tnmf.DefaultK), Doc: "number of topics K (1 ≤ K ≤ terms)"},
			{Key: "inference", Default: tnmf.InferE.String(), Doc: "document topics: e (TNMF_E, Eq. 4.6), i (TNMF_I, Newton on the I-divergence) or e-nnls (exact NNLS, not in the paper)"},
			{Key: "count", Default: tnmf.PerDocument.String(), Doc: "co-occurrence count: document (once per document containing both terms) or multiplicity (product of the weights)"},
			{Key: "storage", Default: symmetric.StorageAuto.String(), Doc: "S storage: auto (dense from density 0.5), sparse or dense"},
			{Key: "rescale", Default: "false", Doc: "true: after every Eq. 4.5 step, the column scales of U minimizing ‖S−UUᵀ‖ (not in the paper; removes the scale 2-cycle)"},
			{Key: "inner-sweeps", Default: strconv.Itoa(tnmf.DefaultInnerSweeps), Doc: "maximum sweeps per document of the Newton (i) or NNLS (e-nnls) inference"},
			{Key: "inner-tol", Default: strconv.FormatFloat(tnmf.DefaultInnerTol, 'g', -1, 64), Doc: "a document's sweeps stop when one lowers its objective by at most inner-tol times it; 0 or negative runs all sweeps"},
			{Key: "seed", Default: "0", Doc: "seed of the random U⁽⁰⁾"},
		}, shortTextStoppingParams("maximum U iterations of Algorithm 1 (Eq. 4.5)", "‖S−UUᵀ‖²_F (not monotone: usually runs all iterations)")...),
		New: newTNMF,
	}
}

func newTNMF(p Params) (engine.Method, error) {
	var o tnmf.Options
	var err error
	if o.K, err = positiveInt(p, "k", tnmf.DefaultK); err != nil {
		return nil, err
	}
	if o.Inference, err = tnmf.ParseInference(p.String("inference", tnmf.InferE.String())); err != nil {
		return nil, fmt.Errorf("parameter inference: %w", err)
	}
	if o.Count, err = tnmf.ParseCountMode(p.String("count", tnmf.PerDocument.String())); err != nil {
		return nil, fmt.Errorf("parameter count: %w", err)
	}
	if o.Storage, err = symmetric.ParseStorage(p.String("storage", symmetric.StorageAuto.String())); err != nil {
		return nil, fmt.Errorf("parameter storage: %w", err)
	}
	if o.Rescale, err = strconv.ParseBool(p.String("rescale", "false")); err != nil {
		return nil, fmt.Errorf("parameter rescale = %q: want true or false", p.String("rescale", ""))
	}
	if o.InnerSweeps, err = positiveInt(p, "inner-sweeps", tnmf.DefaultInnerSweeps); err != nil {
		return nil, err
	}
	if o.InnerTol, err = p.Float("inner-tol", tnmf.DefaultInnerTol); err != nil {
		return nil, err
	}
	if o.InnerTol == 0 {
		o.InnerTol = -1 // as for tol: 0 means run every sweep
	}
	if o.Seed, err = p.Uint64("seed", 0); err != nil {
		return nil, err
	}
	if o.Stopping, err = shortTextStopping(p); err != nil {
		return nil, err
	}
	return o, nil
}

// shortTextStoppingParams documents the "iters" and "tol" keys shared by
// the short-text families (tnmf, nmfe, nmfi, graphnmf, symnmf).
func shortTextStoppingParams(iters, objective string) []Param {
	return []Param{
		{Key: "iters", Default: strconv.Itoa(engine.DefaultMaxIter), Doc: iters},
		{Key: "tol", Default: strconv.FormatFloat(engine.DefaultRelTol, 'g', -1, 64), Doc: "relative change of " + objective + " that stops the fit; 0 or negative runs all iterations"},
	}
}

// shortTextStopping reads "iters" (≥ 1) and "tol" (0 → every iteration).
func shortTextStopping(p Params) (engine.Stopping, error) {
	var s engine.Stopping
	var err error
	if s.MaxIter, err = positiveInt(p, "iters", engine.DefaultMaxIter); err != nil {
		return s, err
	}
	if s.RelTol, err = p.Float("tol", engine.DefaultRelTol); err != nil {
		return s, err
	}
	if s.RelTol == 0 {
		// 0 in Stopping means the default; "tol=0" asks for every iteration.
		s.RelTol = -1
	}
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("parameter tol: %w", err)
	}
	return s, nil
}

// positiveInt reads an integer parameter that must be ≥ 1.
func positiveInt(p Params, key string, def int) (int, error) {
	v, err := p.Int(key, def)
	if err != nil {
		return 0, err
	}
	if v <= 0 {
		return 0, fmt.Errorf("parameter %s = %d: want ≥ 1", key, v)
	}
	return v, nil
}

// positiveFloat reads a number parameter that must be > 0 (Options read 0
// as "the default", so a 0 on a command line is refused rather than
// silently replaced).
func positiveFloat(p Params, key string, def float64) (float64, error) {
	v, err := p.Float(key, def)
	if err != nil {
		return 0, err
	}
	if !(v > 0) {
		return 0, fmt.Errorf("parameter %s = %v: want a number > 0", key, v)
	}
	return v, nil
}
