package grouprlsi

import (
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/rlsi"
)

func TestConformanceGroup(t *testing.T) {
	factortest.Run(t, factortest.Family{
		Name: "grouprlsi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			ks, kc := testcorpus.GroupTopics(cfg.K, None)
			return testcorpus.WithClasses(Options{Ks: ks, Kc: kc, Lambda1: 0.05, Lambda2: 0.1, Seed: cfg.Seed, Pool: cfg.Pool,
				InnerTol: rlsi.DefaultInnerTol,
				Stopping: engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}}, 3), nil
		},
		K: 7, NonNegative: false, Monotone: true,
	})
}

func TestConformancePerClass(t *testing.T) {
	factortest.Run(t, factortest.Family{
		Name: "crlsi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			p := 3
			if cfg.K%3 != 0 {
				p = 1
			}
			kc := cfg.K / p
			if cfg.K < 1 {
				kc = -7
			}
			return testcorpus.WithClasses(PerClassOptions{Kc: kc, Lambda1: 0.05, Lambda2: 0.1, Seed: cfg.Seed, Pool: cfg.Pool,
				InnerTol: rlsi.DefaultInnerTol,
				Stopping: engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}}, p), nil
		},
		K: 6, NonNegative: false, Monotone: true,
	})
}
