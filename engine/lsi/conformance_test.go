package lsi

import (
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"gonum.org/v1/gonum/mat"
)

func TestConformance(t *testing.T) {
	factortest.Run(t, factortest.Family{
		Name: "lsi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return Options{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool, PowerIters: DefaultPowerIters}, nil
		},
		// Singular vectors are signed; the fit is one direct computation.
		NonNegative: false, Monotone: false, KLimited: true, OneShot: true,
		FoldInCheck: func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
			want := m.DocTopics()
			for i, d := range docs {
				for k := 0; k < folded.RawMatrix().Cols; k++ {
					if folded.At(i, k) != want.At(d, k) {
						t.Fatalf("document %d: fold-in %v, DocTopics %v", d, folded.At(i, k), want.At(d, k))
					}
				}
			}
		},
	})
}
