package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouprlsi"
)

// groupStoppingParams are the stopping and seed parameters shared by the
// four GMF families (grouprlsi, crlsi, groupnmf, cnmf).
func groupStoppingParams() []Param {
	return []Param{
		{Key: "iters", Default: strconv.Itoa(engine.DefaultMaxIter), Doc: "maximum iterations"},
		{Key: "tol", Default: strconv.FormatFloat(engine.DefaultRelTol, 'g', -1, 64), Doc: "relative objective change that stops the fit; 0 or negative runs all iterations"},
		{Key: "seed", Default: "0", Doc: "seed of the random initialization"},
	}
}

// groupStopping reads iters, tol and seed.
func groupStopping(p Params) (engine.Stopping, uint64, error) {
	var s engine.Stopping
	var err error
	if s.MaxIter, err = p.Int("iters", engine.DefaultMaxIter); err != nil {
		return s, 0, err
	}
	if s.MaxIter <= 0 {
		return s, 0, fmt.Errorf("parameter iters = %d: want ≥ 1", s.MaxIter)
	}
	if s.RelTol, err = p.Float("tol", engine.DefaultRelTol); err != nil {
		return s, 0, err
	}
	if s.RelTol == 0 {
		s.RelTol = -1 // "tol=0": run every iteration (0 in Stopping is the default)
	}
	if err := s.Validate(); err != nil {
		return s, 0, fmt.Errorf("parameter tol: %w", err)
	}
	seed, err := p.Uint64("seed", 0)
	return s, seed, err
}

// groupTopicCount reads a topic count ≥ 0 where 0 means none (the
// packages' None).
func groupTopicCount(p Params, key string, def int) (int, error) {
	v, err := p.Int(key, def)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, fmt.Errorf("parameter %s = %d: want ≥ 0", key, v)
	}
	return v, nil
}

// groupLambdas reads lambda1 and lambda2 (> 0).
func groupLambdas(p Params, def1, def2 float64) (float64, float64, error) {
	l1, err := p.Float("lambda1", def1)
	if err != nil {
		return 0, 0, err
	}
	l2, err := p.Float("lambda2", def2)
	if err != nil {
		return 0, 0, err
	}
	for _, kv := range []struct {
		key string
		v   float64
	}{{"lambda1", l1}, {"lambda2", l2}} {
		if !(kv.v > 0) {
			return 0, 0, fmt.Errorf("parameter %s = %v: want a number > 0", kv.key, kv.v)
		}
	}
	return l1, l2, nil
}

func rlsiLambdaParams() []Param {
	return []Param{
		{Key: "lambda1", Default: strconv.FormatFloat(grouprlsi.DefaultLambda1, 'g', -1, 64), Doc: "λ1 > 0, weight of the ℓ1 norms of the topics (GMF §7.1: 0.01–0.1)"},
		{Key: "lambda2", Default: strconv.FormatFloat(grouprlsi.DefaultLambda2, 'g', -1, 64), Doc: "λ2 > 0, weight of the squared ℓ2 norms of the document representations (GMF §7.1: 0.1)"},
	}
}

// grouprlsiFamily is Group RLSI (engine/grouprlsi).
func grouprlsiFamily() Family {
	params := []Param{
		{Key: "ks", Default: strconv.Itoa(grouprlsi.DefaultKs), Doc: "number of shared topics Ks (0: none)"},
		{Key: "kc", Default: strconv.Itoa(grouprlsi.DefaultKc), Doc: "number of topics of each class Kc (0: none); K = Ks + P·Kc"},
	}
	params = append(append(params, rlsiLambdaParams()...), groupStoppingParams()...)
	return Family{
		Name:   "grouprlsi",
		Doc:    "Group RLSI: shared topics U0 and class topics U_p, ℓ1 on topics, ℓ2 on documents (Wang, Cao, Xu, Li, SIGIR 2012, Eq. 3, Alg. 1–4); needs class labels",
		Params: params,
		New: func(p Params) (engine.Method, error) {
			var o grouprlsi.Options
			var err error
			for _, kv := range []struct {
				key string
				dst *int
				def int
			}{{"ks", &o.Ks, grouprlsi.DefaultKs}, {"kc", &o.Kc, grouprlsi.DefaultKc}} {
				if *kv.dst, err = groupTopicCount(p, kv.key, kv.def); err != nil {
					return nil, err
				}
				if *kv.dst == 0 {
					*kv.dst = grouprlsi.None
				}
			}
			if o.Ks == grouprlsi.None && o.Kc == grouprlsi.None {
				return nil, fmt.Errorf("parameters ks = kc = 0: want at least one topic")
			}
			if o.Lambda1, o.Lambda2, err = groupLambdas(p, grouprlsi.DefaultLambda1, grouprlsi.DefaultLambda2); err != nil {
				return nil, err
			}
			if o.Stopping, o.Seed, err = groupStopping(p); err != nil {
				return nil, err
			}
			return o, nil
		},
	}
}

// crlsiFamily is CRLSI, one RLSI per class (engine/grouprlsi).
func crlsiFamily() Family {
	params := []Param{
		{Key: "kc", Default: strconv.Itoa(grouprlsi.DefaultKc), Doc: "number of topics of each class's RLSI model (GMF §7.3: Kc)"},
		{Key: "ks", Default: "0", Doc: "extra topics per class model (0, the paper's setting; Ks gives each class Ks + Kc topics)"},
	}
	params = append(append(params, rlsiLambdaParams()...), groupStoppingParams()...)
	return Family{
		Name:   "crlsi",
		Doc:    "CRLSI: one RLSI model per class, no shared topics (the per-class baseline of Wang, Cao, Xu, Li, SIGIR 2012, §7.3); needs class labels",
		Params: params,
		New: func(p Params) (engine.Method, error) {
			var o grouprlsi.PerClassOptions
			var err error
			if o.Kc, err = groupTopicCount(p, "kc", grouprlsi.DefaultKc); err != nil {
				return nil, err
			}
			if o.Ks, err = groupTopicCount(p, "ks", 0); err != nil {
				return nil, err
			}
			if o.Kc == 0 {
				o.Kc = grouprlsi.None
			}
			if o.Kc == grouprlsi.None && o.Ks == 0 {
				return nil, fmt.Errorf("parameters ks = kc = 0: want at least one topic per class")
			}
			if o.Lambda1, o.Lambda2, err = groupLambdas(p, grouprlsi.DefaultLambda1, grouprlsi.DefaultLambda2); err != nil {
				return nil, err
			}
			if o.Stopping, o.Seed, err = groupStopping(p); err != nil {
				return nil, err
			}
			return o, nil
		},
	}
}
