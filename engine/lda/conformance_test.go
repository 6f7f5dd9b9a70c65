package lda

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"gonum.org/v1/gonum/mat"
)

func TestConformance(t *testing.T) {
	factortest.Run(t, factortest.Family{
		Name: "lda",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			// Every sweep evaluates log p(w|z), so every record has an
			// objective; burn-in stays the default half.
			return Options{K: cfg.K, Iters: cfg.MaxIter, EvalEvery: 1, Seed: cfg.Seed, Pool: cfg.Pool, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, nil
		},
		// φ and θ are probabilities; a Gibbs chain's log-likelihood is not
		// monotone.
		NonNegative: true, Monotone: false, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "Alpha = -1", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return Options{K: cfg.K, Alpha: -1, Pool: cfg.Pool, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, nil
			}},
			{Name: "Beta = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return Options{K: cfg.K, Beta: math.NaN(), Pool: cfg.Pool, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, nil
			}},
			{Name: "BurnIn = Iters", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return Options{K: cfg.K, Iters: 5, BurnIn: 5, Pool: cfg.Pool, FoldInBurnIn: AutoBurnIn}, nil
			}},
		},
		// After 200 sweeps (100 averaged), folding in a training document
		// (100 sweeps with φ fixed, 50 averaged) estimates the same
		// posterior mean of θ_d as the fit; with α = 50/K = 12.5 and
		// documents of 10–60 tokens θ is smooth and the Monte Carlo error
		// of either average is a few thousandths per topic (measured L1
		// distances at most 0.008; 0.03 allows for other seeds).
		FoldInCheck: func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
			for i, d := range docs {
				l1 := 0.0
				for z := 0; z < folded.RawMatrix().Cols; z++ {
					l1 += math.Abs(folded.At(i, z) - m.DocTopics().At(d, z))
				}
				if l1 > 0.03 {
					t.Errorf("document %d: fold-in is %.4f (L1) from θ_d", d, l1)
				}
			}
		},
	})
}
