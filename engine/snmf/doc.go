// Package snmf is non-negative matrix factorization by alternating
// non-negativity-constrained least squares (ANLS), with the sparse variant
// SNMF/R of Kim & Park, "Sparse non-negative matrix factorizations via
// alternating non-negativity-constrained least squares for microarray data
// analysis", Bioinformatics 23(12), 2007, Eq. (2)–(4):
//
//	min_{U ≥ 0, V ≥ 0}  ½ { ‖A − UVᵀ‖²_F + η‖U‖²_F + β Σ_n ‖v_n‖²₁ }
//
// with A the M×N data (the term-document matrix D, or a dense matrix such as
// the joint topic-document model's X⁽³⁾), U = W (M×K) and V = Hᵀ (N×K, one
// row per document, the engine's layout). With η = β = 0 it is plain ANLS NMF
// (catalog family "nmf-anls"); with β > 0 every document's coefficients are
// sparse (family "snmf"). Reading: Kim & Park put the ½ in front of all three
// terms; the ICASSP 2013 paper's Eq. (11) (which cites it as [11]) writes
// the same problem as ‖S‖²_{1,2} + γ‖B‖²_F + μ/2‖X − BS‖²_F, i.e. η = 2γ/μ
// and β = 2/μ here.
//
// Each iteration solves two convex problems exactly, with the shared NNLS
// solver (engine/solve, block principal pivoting):
//
//	V ← argmin_{V ≥ 0} ‖[U; √β 1ᵀ] Vᵀ − [A; 0]‖²_F   (Gram UᵀU + β 11ᵀ, right-hand sides AᵀU)
//	U ← argmin_{U ≥ 0} ‖[V; √η I] Uᵀ − [Aᵀ; 0]‖²_F    (Gram VᵀV + η I,  right-hand sides AV)
//
// so the objective never increases (Kim & Park §2.2; each block update is a
// global minimizer of its convex sub-problem). Fold-in of new documents X
// solves the V problem with U fixed: NNLS(UᵀU + β11ᵀ, XU).
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a corpus drawn from planted topics (engine/synthetic) by
// SNMF/R, compares the topics with the planted ones and folds the documents in.
package snmf
