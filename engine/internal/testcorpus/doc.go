// Package testcorpus holds the test corpora, loaders and comparisons that
// the tests of several engine families share:
//
//   - synthetic corpora: a corpus drawn from a planted topic model
//     (Planted), a labelled corpus with shared and class term blocks
//     (Grouped, Labelled), the benchmark-size count matrix of the
//     foundation benchmarks (BenchmarkCorpus) and the GMF efficiency
//     benchmark corpus (GroupBench), and a labelled train/held-out split
//     (Split);
//   - real collections read from $TOPICMF_DATA, skipping the test naming
//     what is missing (Collection, Load, MED);
//   - comparisons of factor matrices (BitsEqual, MaxAbsDiff,
//     MatchedCosine, DenseOf);
//   - the group families' conformance and benchmark helpers (WithClasses,
//     GroupTopics, IterSeconds).
//
// It is imported by test files only (internal to engine; no production
// code depends on it). Every corpus is deterministic: the same arguments
// give the same bits.
package testcorpus
