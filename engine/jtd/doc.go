// Package jtd is the noisy joint topic-document model of Min & Ma, "Joint
// topic-document modeling via low-dimensional sparse models", ICASSP 2013:
// the M×N term-document matrix is split as
//
//	D = BS + E + N                                           (Eq. 3)
//
// with B ≥ 0 (M×K) the topics, each column summing to 1, S ≥ 0 (K×N) the
// documents' topic mixtures, E sparse document-specific keywords and N dense
// noise, learned by
//
//	min ‖S‖²_{1,2} + λ‖E‖₁ + τ/2‖N‖²_F   s.t. D = BS + E + N, B, S ≥ 0, 1ᵀB = 1ᵀ   (Eq. 4)
//
// where ‖S‖²_{1,2} = Σ_n ‖S_n‖²₁ (S_n the n-th document's column).
//
// # Algorithm (§4)
//
// The augmented Lagrangian (Eq. 5) with multiplier Y and penalty μ is
// minimized block by block; one outer iteration is
//
//	E ← 𝒮_{λ/μ}(D − BS − N + Y/μ)                       (Eq. 7–8, shrinkage 𝒮_ν(x) = sgn(x)·max(|x|−ν, 0))
//	N ← μ/(τ+μ) · (D − BS − E + Y/μ)                    (Eq. 9–10)
//	(B', S') ← SNMF on X⁽³⁾ = D − E − N + Y/μ:
//	           min ‖S‖²_{1,2} + γ‖B‖²_F + μ/2‖X⁽³⁾ − BS‖²_F, B, S ≥ 0   (Eq. 11)
//	B ← B'T, S ← T⁻¹S', T = diag(‖B'_1‖₁⁻¹, …, ‖B'_K‖₁⁻¹)  (Eq. 12)
//	Y ← Y + μ(D − BS − E − N),  μ ← min(ρμ, μ_max)
//
// Eq. 11 is Kim & Park's SNMF/R (engine/snmf) with η = 2γ/μ and β = 2/μ,
// run for InnerIters alternating-NNLS iterations warm-started from the
// current (B, S). The E and N steps use the new E in N's update (Gauss–Seidel),
// as §4 orders the sub-problems.
//
// # Readings where the paper is silent
//
//   - The paper gives no λ, τ, μ0, ρ or γ. Eq. 4 is not scale-invariant:
//     ‖S‖²_{1,2} and τ/2‖N‖² are quadratic in the data's scale, λ‖E‖₁ is
//     linear, so λ must follow the scale of D. The default is
//     λ = ŝ₁ = mean_n ‖D_n‖₁, the average document's ℓ1 mass. (Principal
//     component pursuit's λ = 1/√max(M, N), suggested for unit-scale data,
//     put 563 entries into E on the planted test corpus of jtd_test.go, whose
//     73 keyword spikes λ = ŝ₁ finds exactly, with no other entry.)
//     τ = λ/σ̂ with σ̂ = ‖D‖_F/√nnz(D), the RMS of D's non-zero weights,
//     because at a KKT point Y = τN and |Y| ≤ λ, so |N| ≤ λ/τ: residual
//     entries below a typical weight are noise, larger ones keywords (E).
//     μ0 = 1.25/‖D‖₂, ρ = 1.5 and μ_max = 10⁷μ0 are the inexact ALM settings
//     of Lin, Chen & Ma (arXiv:1009.5055, Alg. 5) for robust PCA; γ = 0.01,
//     since the ridge only fixes the B–S scale that T then normalizes, and
//     §4 finds the result insensitive to γ. The cap μ_max is not in the
//     paper (it says μ ← ρμ); without it μ overflows in long runs.
//   - The paper does not say how (B, S) start. A random B with S = 0 lets
//     the first E step take all of D and, at the small μ0 where the ℓ1²
//     penalty on S dominates Eq. 11, topics die (a zero column of B never
//     revives): on the planted corpus one of three topics did, at every λ
//     and μ0 tried. So (B, S) start from InitIters iterations of ANLS NMF on
//     D (engine/snmf with η = β = 0), normalized by Eq. 12.
//   - The rescaling T is undefined for a zero column of B; such a column
//     (and its row of S) is left at zero.
//   - The fit stops when the primal residual ‖D − BS − E − N‖_F/‖D‖_F falls
//     to ResidualTol, or after MaxIter outer iterations.
//
// # Layout
//
// As everywhere in the engine, B is stored as M×K and S transposed, as N×K
// (row n is document n's mixture S_n); E, N and Y are stored transposed too,
// N×M, one row per document, so that a document's parts [(BS)_n, E_n, N_n]
// are contiguous (the features of §5.3).
//
// # Fold-in
//
// New documents X are split with B fixed by the fit's ALM: the same μ0, ρ,
// μ_max, iteration limit and residual tolerance, S starting from the NMF
// fold-in NNLS(BᵀB, XB) as the fit starts from ANLS NMF. The (B, S) step
// reduces to an S step, and there the paper's Eq. 11 cannot be taken
// literally: with the columns of B fixed to sum to 1, its ℓ1² term (weight
// 2/μ, large at μ0) collapses S, which the fit escapes only through B's
// free scale and the rescaling of Eq. 12. So the fold-in's S step is the
// scale-free S ← NNLS(BᵀB, X⁽³⁾B). Folding in the training documents
// this way recovers their fitted S closely, with the same dominant topic
// and the fit's E support (measured: docs/measurements.md, "Joint
// topic-document model: the fold-in's S step").
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a corpus drawn from planted topics (engine/synthetic),
// compares B with the planted topics and folds the documents in.
package jtd
