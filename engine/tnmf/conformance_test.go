package tnmf

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
)

// The conformance suite for TNMF_E, TNMF_I and the rescaled variant. The
// non-increase check is off: Eq. 4.5 is not monotone (package doc; the
// literal iteration 2-cycles in scale, TestRescaleKeepsDirections). K is
// limited by M only (S is M×M), so KLimited is off.
func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name    string
		inf     Inference
		rescale bool
	}{{"tnmf-e", InferE, false}, {"tnmf-i", InferI, false}, {"tnmf-e-nnls-rescale", InferENNLS, true}} {
		factortest.Run(t, factortest.Family{
			Name: tc.name,
			New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return Options{K: cfg.K, Inference: tc.inf, Rescale: tc.rescale, Seed: cfg.Seed, Pool: cfg.Pool,
					InnerTol: DefaultInnerTol,
					Stopping: engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}}, nil
			},
			NonNegative: true,
			Invalid: []factortest.Invalid{
				{Name: "K > M", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
					return Options{K: c.Terms() + 1, Pool: cfg.Pool, Stopping: engine.DefaultStopping(), InnerTol: DefaultInnerTol}, nil
				}},
				{Name: "InnerTol = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
					return Options{K: cfg.K, InnerTol: math.NaN(), Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
				}},
			},
		})
	}
}
