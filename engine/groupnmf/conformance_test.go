package groupnmf

import (
	"context"
	"fmt"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
)

// withClasses fits its Method on the corpus with document n in class
// n mod P (factortest's corpora carry no labels).
type withClasses struct {
	inner engine.Method
	p     int
}

func (w withClasses) Name() string { return w.inner.Name() }

func (w withClasses) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	labels := make([]int, c.Docs())
	for n := range labels {
		labels[n] = n % w.p
	}
	names := make([]string, w.p)
	for p := range names {
		names[p] = fmt.Sprint("c", p)
	}
	lc, err := engine.NewCorpus(c.Name, c.Vocab, c.D, c.DocIDs, labels, names)
	if err != nil {
		return nil, engine.Status{}, err
	}
	return w.inner.Fit(ctx, lc, rec)
}

// groupTopics splits K = Ks + 3·Kc with Ks ≥ 1 (K < 1 maps to an invalid
// Ks).
func groupTopics(k int) (ks, kc int) {
	if k < 1 {
		return -7, 0
	}
	kc = (k - 1) / 3
	ks = k - 3*kc
	if kc == 0 {
		kc = None
	}
	return ks, kc
}

func TestConformanceGroup(t *testing.T) {
	factortest.Run(t, factortest.Family{
		Name: "groupnmf",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			ks, kc := groupTopics(cfg.K)
			return withClasses{Options{Ks: ks, Kc: kc, Seed: cfg.Seed, Pool: cfg.Pool,
				Stopping: engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}}, 3}, nil
		},
		K: 7, NonNegative: true, Monotone: true,
	})
}

func TestConformancePerClass(t *testing.T) {
	factortest.Run(t, factortest.Family{
		Name: "cnmf",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			p := 3
			if cfg.K%3 != 0 {
				p = 1
			}
			kc := cfg.K / p
			if cfg.K < 1 {
				kc = -7
			}
			return withClasses{PerClassOptions{Kc: kc, Seed: cfg.Seed, Pool: cfg.Pool,
				Stopping: engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}}, p}, nil
		},
		K: 6, NonNegative: true, Monotone: true,
	})
}
