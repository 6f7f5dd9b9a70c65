// Package graphnmf is graph-regularized non-negative matrix factorization
// (Cai, He, Han, Huang, "Graph Regularized Nonnegative Matrix
// Factorization for Data Representation", IEEE TPAMI 33(8), 2011), a
// baseline of the short-text TNMF paper (Yan et al., SDM 2013, Section
// 5.2, where it is called GNMF; this package never uses that acronym
// alone, to keep it apart from group NMF).
//
// # Objective and updates
//
// With D (M×N) ≈ UVᵀ, U (M×K), V (N×K) — Cai et al.'s own layout — and W
// the weight matrix of a document graph with degrees d_j = Σ_l W_jl and
// Laplacian L = diag(d) − W (Section 3, eq. 7–8):
//
//	O = ‖D − UVᵀ‖²_F + λ·Tr(VᵀLV),   U, V ≥ 0.
//
// One iteration applies the multiplicative updates of Section 3.1
// (eq. 13–14 with V first, then U, the order of the authors' code):
//
//	V ← V ∘ (DᵀU + λWV + ε) ⊘ (V·UᵀU + λ·diag(d)·V + ε)
//	U ← U ∘ (DV + ε) ⊘ (U·VᵀV + ε)
//
// with ε = 1e-16 added to numerator and denominator (the authors' code
// floors the denominator at 1e-10 instead). O is non-increasing. Cai et
// al.'s proof is element by element; for the simultaneous update of V it
// holds because O is quadratic in V and the update is the scaled gradient
// step V − Λ∘∇, Λ = V ⊘ (A⁺V + ε), A = UᵀU ⊗ I + λ I ⊗ L split as A⁺ =
// UᵀU ⊗ I + λ I ⊗ diag(d), A⁻ = λ I ⊗ W: the change of O is
// −½gᵀΛ(2Λ⁻¹ − A)Λg, and 2Λ⁻¹ − A = [diag(A⁺v/v) − A⁺] + [diag(A⁺v/v) + A⁻]
// + (ε terms ≥ 0), the first bracket PSD by Lee and Seung's lemma (A⁺ ≥ 0
// entrywise), the second ⪰ λ·I ⊗ (diag(d) + W), a signless Laplacian,
// PSD. The U update is Lee and Seung's. The conformance suite checks it.
//
// Tr(VᵀLV) = Σ_j d_j‖v_j‖² − ⟨V, WV⟩ is evaluated from WV, which the next
// V update reuses; the loss without forming UVᵀ (sparse.ResidualSqParts).
//
// # The graph
//
// W is the p-nearest-neighbour graph of the documents (Section 3): j is a
// neighbour of i when it is among the p documents of highest cosine
// similarity to i (positive similarity only, ties to the smaller index),
// and W_ij > 0 iff j is a neighbour of i or i of j. The TNMF paper builds
// the neighbourhood "by the cosine similarity measure". Weights (Section
// 3): 0-1 (Binary, the default — Cai et al.'s choice in Section 5, with
// p = 5 and λ = 100, our defaults), Heat exp(−‖x̃_i − x̃_j‖²/σ) on unit
// vectors, or Cosine (dot product of unit vectors).
//
// # Start, normalization, fold-in
//
// The start is scikit-learn's random rule |z|·sqrt(mean(D)/K) (as
// engine/nmf) or U0, V0. After the last iteration the columns of U are
// scaled to unit Euclidean norm and V by the inverse (the authors' code,
// NormalizeUV with Norm = 2, NormV = 0), which leaves UVᵀ but not the
// graph term unchanged; the recorded objectives are those of the
// iterates. NoNormalize skips it. FoldIn: see Model.FoldIn.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a corpus drawn from planted topics (engine/synthetic),
// compares the topics with the planted ones and folds the documents in.
package graphnmf
