// Package symnmf is symmetric non-negative matrix factorization for
// clustering (Kuang, Ding, Park, "Symmetric Nonnegative Matrix
// Factorization for Graph Clustering", SDM 2012) applied, as in the
// short-text TNMF paper's baseline (Yan et al., SDM 2013, Section 5.2), to
// the matrix A of pairwise cosine similarities of the documents:
//
//	min_{H≥0} f(H) = ‖A − HHᵀ‖²_F,   A_ij = cos(x_i, x_j),   H N×K.
//
// A is the full cosine matrix (symmetric.Cosine on the document rows; its
// diagonal is 1 for every non-empty document). Short texts share few terms,
// so A is sparse: 6–12% dense on the STTM sets (N = 2,472 … 19,448, at most
// 27 million stored entries, 324 MB), and is held in CSR.
//
// # Algorithm
//
// Kuang et al. propose a Newton-like algorithm and compare it with
// projected gradient descent (PGD), both instances of their Algorithm 1
// (scaling matrix S; S = I gives PGD). We implement PGD, the simpler of
// the two, with their Armijo rule: with ∇f(H) = 4(H·HᵀH − AH),
//
//	H_new = max(H − α∇f(H), 0),   α = β^m for the smallest m ≥ 0 with
//	f(H_new) − f(H) ≤ σ·⟨∇f(H), H_new − H⟩,
//
// σ = 0.01, β = 0.1 (their values). The right-hand side is ≤ 0 for every
// projected step, so f never increases. Each trial costs one A·H product
// and a Gram matrix; f = ‖A‖² − 2⟨H, AH⟩ + ‖HᵀH‖²_F is evaluated without
// forming HHᵀ. A is built (for ‖A‖², its mean and Density; then freed),
// but the fit computes A·H as Ã·(ÃᵀH), Ã the row-normalized documents
// (A = ÃÃᵀ), when that is cheaper: 4·nnz(Ã)·K flops against 2·nnz(A)·K —
// on StackOverflow (N = 16,396, M = 1,418) nnz(Ã) = 74,898 against
// nnz(A) = 15.8 million. The iterates equal those with the stored A to
// rounding (same products, summed in another order). A trial whose lower
// bound ‖A‖² − 2⟨H, AH⟩ + Σ_k ‖h_k‖⁴ ≤ f(H_new) already fails the test by
// a clear margin is rejected without its Gram matrix, which changes no
// decision (surelyRejected). Kuang et al. stop on the projected gradient
// norm; we use the engine's relative change of f (Stopping) like every
// family. H⁽⁰⁾ has entries 2·sqrt(ā/K)·Uniform[0,1) with ā the mean of A,
// as in the authors' code.
//
// # Clusters, topics, fold-in
//
// Document i belongs to the cluster of the largest entry of row i of H
// (Assign; Kuang et al., Section 2). SymNMF has no term-topic matrix;
// TermTopics is D·H for display. FoldIn: see Model.FoldIn.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) clusters the documents of a corpus drawn from planted topics
// (engine/synthetic).
package symnmf
