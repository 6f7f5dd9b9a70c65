package rlsi_test

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/rlsi"
	"gonum.org/v1/gonum/mat"
)

// TestConformance runs the engine's conformance suite on every variant,
// with the paper's λ1 = 0.5, λ2 = 1.0 (defaults). The objective is
// monotone for every variant: each update minimizes it exactly (ridge) or
// by exact coordinate steps from the previous iterate (lasso).
func TestConformance(t *testing.T) {
	for _, variant := range []rlsi.Variant{rlsi.U1V2, rlsi.U2V1, rlsi.U1V1, rlsi.U2V2} {
		opts := func(c *engine.Corpus, cfg factortest.Config) rlsi.Options {
			return rlsi.Options{K: cfg.K, Variant: variant, Seed: cfg.Seed, Pool: cfg.Pool,
				Stopping: engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1},
				// Tight inner convergence so that the ℓ1 fold-in (lasso from
				// zero) meets the fitted, warm-started V within 1e-8.
				Lambda1:     rlsi.DefaultLambda1,
				Lambda2:     rlsi.DefaultLambda2,
				InnerSweeps: 10000, InnerTol: 1e-13}
		}
		invalid := func(name string, edit func(*rlsi.Options)) factortest.Invalid {
			return factortest.Invalid{Name: name, New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				o := opts(c, cfg)
				edit(&o)
				return o, nil
			}}
		}
		factortest.Run(t, factortest.Family{
			Name:     "rlsi-" + variant.String(),
			New:      func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) { return opts(c, cfg), nil },
			Monotone: true,
			KLimited: true,
			Invalid: []factortest.Invalid{
				invalid("Lambda1 = NaN", func(o *rlsi.Options) { o.Lambda1 = math.NaN() }),
				invalid("Lambda2 < 0", func(o *rlsi.Options) { o.Lambda2 = -0.5 }),
				invalid("unknown variant", func(o *rlsi.Options) { o.Variant = 9 }),
				invalid("InnerSweeps < 0", func(o *rlsi.Options) { o.InnerSweeps = -1 }),
				invalid("InitV of the wrong shape", func(o *rlsi.Options) { o.InitV = mat.NewDense(3, 3, nil) }),
			},
			FoldInIters: 30,
			FoldInCheck: func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
				v := m.DocTopics()
				_, k := v.Dims()
				for i, n := range docs {
					for q := 0; q < k; q++ {
						got, want := folded.At(i, q), v.At(n, q)
						if variant == rlsi.U1V2 || variant == rlsi.U2V2 {
							// ℓ2 on V: the V update's formula and kernels.
							if math.Float64bits(got) != math.Float64bits(want) {
								t.Errorf("doc %d topic %d: fold-in %.17g, fitted %.17g (want identical bits)", n, q, got, want)
							}
						} else if math.Abs(got-want) > 1e-8*math.Max(1, math.Abs(want)) {
							t.Errorf("doc %d topic %d: fold-in %.17g, fitted %.17g", n, q, got, want)
						}
					}
				}
			},
		})
	}
}
