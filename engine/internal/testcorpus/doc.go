// Package testcorpus holds the test corpora and comparisons that the
// tests of several engine families share: a corpus drawn from a planted
// topic model (Planted), the benchmark-size count matrix of the foundation
// benchmarks (BenchmarkCorpus), MED read through the text pipeline (MED),
// and exact and matched comparisons of factor matrices (BitsEqual,
// MatchedCosine).
//
// It is imported by test files only (internal to engine; no production
// code depends on it). Every corpus is deterministic: the same arguments
// give the same bits.
package testcorpus
