// Package factortest is the conformance suite every model family runs, in
// the spirit of gonum's lapack/testlapack. A family is described by a
// Family value,
//
//	factortest.Family{
//		Name: "nmf",
//		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
//			return nmf.Options{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool,
//				Stopping: engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}}, nil
//		},
//		NonNegative: true, Monotone: true, KLimited: true,
//	}
//
// and the table of every family's variants lives in one place,
// families_test.go of this package, which runs Run on each of them and
// checks that every family of the catalog has a row: a new family adds its
// row there.
//
// Run checks, on small random corpora it builds itself with
// engine.NewCorpus (so it depends on no datasets package):
//
//   - shapes: TermTopics is M×K, DocTopics is N×K, factors finite, the
//     Recorder holds one entry per completed iteration, numbered 1, 2, ...;
//   - non-negativity of both factors (Family.NonNegative);
//   - the recorded objective never increases by more than a relative 1e-12
//     (Family.Monotone, where the paper proves it);
//   - the same seed gives the same bits (factors and objectives);
//   - pools of 1 and 2 workers, under GOMAXPROCS 1 and 2, give the same bits
//     (the model must take its pool from Config.Pool);
//   - cancelling the context from the Recorder's OnIteration after
//     iteration 2 gives Status Cancelled within one iteration and a model of
//     the right shape; an already-cancelled context gives Status Cancelled
//     after 0 iterations, not an error;
//   - a corpus with a NaN entry, and one with no non-zero entry, are
//     errors in the words of engine.Corpus.Transposed;
//   - invalid options (K < 0; K > min(M, N) where Family.KLimited; the
//     family's own Invalid cases, e.g. a NaN λ) are errors, not panics;
//   - a corpus with an empty document and an unused term, and a corpus of
//     one document, give an error or a finite model, never a panic;
//   - corpora with entries of 1e308 and 1e200, which overflow every squared
//     norm, give an error or Status NumericalFailure with a finite model
//     (the last finite iterate), or a success with a finite objective and
//     factors not identically zero — never a nil model, a panic or a
//     silent 0 (the fits use K = 2, which must fit an ordinary
//     corpus of the same shape, so that the check reaches the fit);
//   - FoldIn of training documents gives an n×K finite result (non-negative
//     where required), wrong widths are errors, and Family.FoldInCheck can
//     compare it with the training representation.
//
// Beside Run, the families' own tests share some of its pieces: Corpus
// (a planted random corpus), ArgmaxAgreement, NonIncreasing and
// Decreasing (a recorded objective that never rises, and falls overall)
// and DiffBits (bit-for-bit comparison of two matrices). Being outside
// engine/internal, they serve the tests above the engine too
// (experiments/realdata).
package factortest
