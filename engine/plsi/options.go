package plsi

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
)

// Defaults applied where an Options field is zero.
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

// Options configure PLSI. The zero value is valid: K = 20, the engine's
// default stopping rule on the negative log-likelihood, seed 0, the default
// folding-in settings and the default pool. Options implements
// engine.Method.
type Options struct {
	// K is the number of topics; 0 means DefaultK. It must not exceed
	// min(M, N) of the corpus.
	K int
	// Stopping bounds the EM iterations and sets the relative-change test
	// on the negative log-likelihood (evaluated every iteration; the test
	// is applied at the iterations Stopping.Evaluate selects).
	Stopping engine.Stopping
	// Seed seeds the random initial P(w|z) and P(z|d) (engine.NewRand).
	Seed uint64
	// FoldInIters is the largest number of EM iterations when folding in a
	// document; 0 means DefaultFoldInIters.
	FoldInIters int
	// FoldInTol stops folding-in when the relative change of the document's
	// log-likelihood is at most FoldInTol; 0 means DefaultFoldInTol; a
	// negative value runs exactly FoldInIters iterations.
	FoldInTol float64
	// Pool runs the parallel loops; nil means parallel.Default().
	Pool *parallel.Pool
}

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
	if s.k < 0 {
		return s, fmt.Errorf("plsi: K = %d, want ≥ 1 (0 for the default %d)", s.k, DefaultK)
	}
	if s.k == 0 {
		s.k = DefaultK
	}
	if s.k > min(m, n) {
		return s, fmt.Errorf("plsi: K = %d exceeds min(M, N) = min(%d terms, %d documents) = %d", s.k, m, n, min(m, n))
	}
	if err := s.stop.Validate(); err != nil {
		return s, fmt.Errorf("plsi: Stopping: %w", err)
	}
	if s.foldInIters < 0 {
		return s, fmt.Errorf("plsi: FoldInIters = %d, want ≥ 0 (0 for the default %d)", s.foldInIters, DefaultFoldInIters)
	}
	if s.foldInIters == 0 {
		s.foldInIters = DefaultFoldInIters
	}
	if math.IsNaN(s.foldInTol) || math.IsInf(s.foldInTol, 0) {
		return s, fmt.Errorf("plsi: FoldInTol = %v, want a finite number", s.foldInTol)
	}
	if s.foldInTol == 0 {
		s.foldInTol = DefaultFoldInTol
	}
	if s.pool == nil {
		s.pool = parallel.Default()
	}
	return s, nil
}
