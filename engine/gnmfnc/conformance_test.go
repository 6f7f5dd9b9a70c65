package gnmfnc

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
)

func TestConformance(t *testing.T) {
	factortest.Run(t, factortest.Family{
		Name: "gnmfnc",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			ks, kp := testcorpus.GroupTopics(cfg.K, -1)
			return testcorpus.WithClasses(Options{Ks: ks, Kp: kp, Seed: cfg.Seed, Pool: cfg.Pool,
				Stopping: engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}, A: DefaultA, Sigma1: DefaultSigma, Sigma2: DefaultSigma, Sigma3: DefaultSigma}, 3), nil
		},
		K: 7, NonNegative: true, Monotone: true,
		Invalid: []factortest.Invalid{
			{Name: "a = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return testcorpus.WithClasses(Options{Ks: 1, Kp: 2, A: math.NaN(), Pool: cfg.Pool, Sigma1: DefaultSigma, Sigma2: DefaultSigma, Sigma3: DefaultSigma}, 3), nil
			}},
		},
	})
}
