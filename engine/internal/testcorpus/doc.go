// Package testcorpus holds the synthetic test corpora and comparisons that
// the tests of several engine families share:
//
//   - synthetic corpora: a corpus drawn from a planted topic model
//     (Planted), a labelled corpus with shared and class term blocks
//     (Grouped, Labelled), the benchmark-size count matrix of the
//     foundation benchmarks (BenchmarkCorpus) and the GMF efficiency
//     benchmark corpus (GroupBench), a labelled train/held-out split
//     (Split, PlantedClassSplit), uneven classes for the per-class
//     baselines (UnevenClasses), a corpus or matrix given by a formula
//     (Filled, FilledMatrix, CSROf) and a random non-negative matrix
//     (RandomNonNeg);
//   - comparisons of factor matrices (MatchedCosine, DenseOf; bitwise
//     equality and differences are in engine/internal/matcmp);
//   - the group families' conformance and benchmark helpers (WithClasses,
//     GroupTopics, IterSeconds, BenchGroupVsFlat).
//
// It is imported by test files only (internal to engine; no production
// code depends on it), and imports nothing above the engine: the checks on
// real collections, which need datasets, are in experiments/realdata.
// Every corpus is deterministic: the same arguments give the same bits.
package testcorpus
