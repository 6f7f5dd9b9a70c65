package plsi

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"gonum.org/v1/gonum/mat"
)

func TestConformance(t *testing.T) {
	factortest.Run(t, factortest.Family{
		Name: "plsi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return Options{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool,
				FoldInTol: DefaultFoldInTol,
				Stopping:  engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}}, nil
		},
		// P(w|z), P(z|d) are probabilities; EM never decreases the
		// likelihood, so the recorded −L never increases.
		NonNegative: true, Monotone: true, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "FoldInTol = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return Options{K: cfg.K, FoldInTol: math.NaN(), Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
			{Name: "FoldInIters = -1", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return Options{K: cfg.K, FoldInIters: -1, Pool: cfg.Pool, Stopping: engine.DefaultStopping(), FoldInTol: DefaultFoldInTol}, nil
			}},
		},
		// After 200 EM iterations, folding in a training document (EM on
		// its P(z|d) alone, Φ fixed, from uniform) reaches nearly the
		// fit's P(z|d): the fold-in problem is concave in P(z|q). Measured
		// L1 distances are at most 3e-4; 0.005 allows for other seeds.
		FoldInCheck: func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
			for i, d := range docs {
				l1 := 0.0
				for z := 0; z < folded.RawMatrix().Cols; z++ {
					l1 += math.Abs(folded.At(i, z) - m.DocTopics().At(d, z))
				}
				if l1 > 0.005 {
					t.Errorf("document %d: fold-in is %.4f (L1) from P(z|d)", d, l1)
				}
			}
		},
	})
}
