package plsi

import (
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
)

// The declared defaults (the tags of Options), as constants for code that
// states them.
const (
	// DefaultK is the number of topics of the RLSI paper's topic tables
	// (Section 6.3: K = 20 for every method).
	DefaultK = 20
	// DefaultFoldInIters bounds the EM iterations of folding-in.
	DefaultFoldInIters = 100
	// DefaultFoldInTol stops folding-in once the relative change of the
	// query's log-likelihood is at most this.
	DefaultFoldInTol = 1e-6
)

// Options configure PLSI; Options implements engine.Method. Its declared
// fields are the parameters of the "plsi" catalog family (engine/param):
// Defaults returns K = 20, the engine's default stopping rule on the
// negative log-likelihood, seed 1, the default folding-in settings and the
// default pool. In a literal, a zero K, Stopping.MaxIter or FoldInIters
// selects its default, while a zero Stopping.RelTol or FoldInTol runs
// every iteration.
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed
	// min(M, N) of the corpus.
	K int `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K"`
	// Stopping bounds the EM iterations and sets the relative-change test
	// on the negative log-likelihood (evaluated every iteration; the test
	// is applied at the iterations Stopping.Evaluate selects).
	Stopping engine.Stopping `param:"iters,tol" iters:"maximum EM iterations" tol:"relative change of the negative log-likelihood that stops the fit; 0 or negative runs all iterations"`
	// Seed seeds the random initial P(w|z) and P(z|d) (engine.NewRand).
	Seed uint64 `param:"seed" default:"1" doc:"seed of the random initial P(w|z) and P(z|d)"`
	// FoldInIters is the largest number of EM iterations when folding in a
	// document; 0 means DefaultFoldInIters.
	FoldInIters int `param:"fold-in-iters" default:"100" range:"[1,inf)" doc:"maximum EM iterations when folding in a document (P(w|z) fixed)"`
	// FoldInTol stops folding-in when the relative change of the document's
	// log-likelihood is at most FoldInTol; 0 or a negative value runs
	// exactly FoldInIters iterations.
	FoldInTol float64 `param:"fold-in-tol" default:"1e-6" doc:"relative change of a folded-in document's log-likelihood that stops its EM; 0 or negative runs all fold-in iterations"`
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

// Defaults returns the declared defaults of every parameter (the tags of
// Options).
func Defaults() Options { return param.DefaultsOf[Options]() }

// Name is the registry name, "plsi".
func (o Options) Name() string { return "plsi" }

type settings struct {
	k           int
	stop        engine.Stopping
	seed        uint64
	foldInIters int
	foldInTol   float64
	pool        *parallel.Pool
}

// resolve validates o against an M×N corpus and applies the defaults.
func (o Options) resolve(m, n int) (settings, error) {
	s := settings{k: o.K, stop: o.Stopping, seed: o.Seed, foldInIters: o.FoldInIters, foldInTol: o.FoldInTol, pool: o.Pool}
	if err := param.Check(o); err != nil {
		return s, fmt.Errorf("plsi: %w", err)
	}
	if err := engine.ResolveK("plsi", &s.k, DefaultK, m, n); err != nil {
		return s, err
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("plsi: Stopping: %w", err)
	}
	if s.foldInIters == 0 {
		s.foldInIters = DefaultFoldInIters
	}
	if s.foldInTol <= 0 {
		s.foldInTol = -1 // the fold-in loop reads a negative tolerance as "every iteration"
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
