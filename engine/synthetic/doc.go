// Package synthetic draws corpora from planted topics with the group
// structure of Group Matrix Factorization (Wang, Cao, Xu, Li, SIGIR 2012,
// §3): Ks topics shared by all classes and Kc topics specific to each of P
// classes, so that a model's recovered topics can be checked against the
// truth (MatchTopics), and so that efficiency experiments can scale M, N
// and the class-size distribution at will.
//
// Class sizes are uniform, follow a target coefficient of variation, or
// reproduce the shape of GMF Table 5 (§7.1): "wikipedia-like" (25 classes,
// Min/Mean 0.0016, Max/Mean 8.83, CV 1.78) and "web1-like" (204 classes,
// Min/Mean 0.0145, Max/Mean 1.92, CV 0.71), scaled to the requested N and
// P.
//
// Default is the small corpus of quick runs and tests; Benchmark is the
// 30,000 × 20,000 matrix with about 1.6 million non-zeros that the engine's
// benchmarks use. Generation is deterministic per seed for any GOMAXPROCS.
package synthetic
