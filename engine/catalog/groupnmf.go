package catalog

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/groupnmf"
)

// groupnmfFamily is Group NMF (engine/groupnmf).
func groupnmfFamily() Family {
	params := []Param{
		{Key: "ks", Default: strconv.Itoa(groupnmf.DefaultKs), Doc: "number of shared topics Ks (0: none)"},
		{Key: "kc", Default: strconv.Itoa(groupnmf.DefaultKc), Doc: "number of topics of each class Kc (0: none); K = Ks + P·Kc"},
		{Key: "order", Default: "alg5", Doc: "update order: alg5 (U0, U_p, then V_p, GMF Algorithm 5) or vfirst (V_p first, as engine/nmf)"},
	}
	return Family{
		Name:   "groupnmf",
		Doc:    "Group NMF: shared topics U0 and class topics U_p, non-negative, multiplicative updates (Wang, Cao, Xu, Li, SIGIR 2012, Eq. 9, Alg. 5), ε-guarded; needs class labels",
		Params: append(params, groupStoppingParams()...),
		New: func(p Params) (engine.Method, error) {
			var o groupnmf.Options
			var err error
			for _, kv := range []struct {
				key string
				dst *int
				def int
			}{{"ks", &o.Ks, groupnmf.DefaultKs}, {"kc", &o.Kc, groupnmf.DefaultKc}} {
				if *kv.dst, err = groupTopicCount(p, kv.key, kv.def); err != nil {
					return nil, err
				}
				if *kv.dst == 0 {
					*kv.dst = groupnmf.None
				}
			}
			if o.Ks == groupnmf.None && o.Kc == groupnmf.None {
				return nil, fmt.Errorf("parameters ks = kc = 0: want at least one topic")
			}
			switch order := p.String("order", "alg5"); order {
			case "alg5":
			case "vfirst":
				o.VFirst = true
			default:
				return nil, fmt.Errorf("parameter order = %q: want alg5 or vfirst", order)
			}
			if o.Stopping, o.Seed, err = groupStopping(p); err != nil {
				return nil, err
			}
			return o, nil
		},
	}
}

// cnmfFamily is CNMF, one NMF per class (engine/groupnmf).
func cnmfFamily() Family {
	params := []Param{
		{Key: "kc", Default: strconv.Itoa(groupnmf.DefaultKc), Doc: "number of topics of each class's NMF model (GMF §7.3: Kc)"},
		{Key: "ks", Default: "0", Doc: "extra topics per class model (0, the paper's setting; Ks gives each class Ks + Kc topics)"},
	}
	return Family{
		Name:   "cnmf",
		Doc:    "CNMF: one NMF model per class, no shared topics (the per-class baseline of Wang, Cao, Xu, Li, SIGIR 2012, §7.3); needs class labels",
		Params: append(params, groupStoppingParams()...),
		New: func(p Params) (engine.Method, error) {
			var o groupnmf.PerClassOptions
			var err error
			if o.Kc, err = groupTopicCount(p, "kc", groupnmf.DefaultKc); err != nil {
				return nil, err
			}
			if o.Ks, err = groupTopicCount(p, "ks", 0); err != nil {
				return nil, err
			}
			if o.Kc == 0 {
				o.Kc = groupnmf.None
			}
			if o.Kc == groupnmf.None && o.Ks == 0 {
				return nil, fmt.Errorf("parameters ks = kc = 0: want at least one topic per class")
			}
			if o.Stopping, o.Seed, err = groupStopping(p); err != nil {
				return nil, err
			}
			return o, nil
		},
	}
}
