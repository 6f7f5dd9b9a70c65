// Package nmfvariants holds the two NMF baselines of the short-text TNMF
// paper (Yan, Guo, Liu, Cheng, Wang, SDM 2013, Section 5.2): NMF_E, NMF
// with the Euclidean cost and an ℓ2 regularizer "as [19] did" (Shahnaz,
// Berry, Pauca, Plemmons 2006), and NMF_I, NMF with the generalized
// I-divergence and no regularization (Lee & Seung, NIPS 2001).
//
// Layout as in engine: D is M×N, U is M×K, V is stored N×K (one row per
// document), and the model is D ≈ UVᵀ.
//
// # NMF_E
//
//	min_{U,V≥0} ‖D − UVᵀ‖²_F + λ‖U‖²_F + λ‖V‖²_F
//
// by the multiplicative updates, V then U in every iteration,
//
//	V ← V ∘ (DᵀU + ε) ⊘ (V·UᵀU + λV + ε)
//	U ← U ∘ (DV + ε) ⊘ (U·VᵀV + λU + ε)
//
// (the constrained NMF of Pauca, Piper and Plemmons 2006, by [19]'s
// authors, with the same λ on both factors. [19]'s GD-CLS puts a ridge on V
// only and solves it by projected least squares; the TNMF paper says only
// that an ℓ2 regularizer was added "as [19] did", and we keep multiplicative
// updates for both factors so that the baseline stays monotone). The objective is non-increasing: each update minimizes Lee and
// Seung's auxiliary function for the curvature matrix UᵀU + λI (resp.
// VᵀV + λI), whose entries are non-negative, and adding ε = 1e-16 to
// numerator and denominator keeps the auxiliary function an upper bound
// (the argument of engine/nmf's documentation). λ = 0.1 by default; it acts
// against the eigenvalues of UᵀU and VᵀV, which for tf-idf short texts are
// of order 1–100, so it is a mild regularizer.
//
// # NMF_I
//
//	min_{U,V≥0} D(D ‖ UVᵀ) = Σ_mn ( D_mn log(D_mn/(UVᵀ)_mn) − D_mn + (UVᵀ)_mn )
//
// by Lee and Seung's updates (NIPS 2001, eq. 5), V then U,
//
//	V_nk ← V_nk · Σ_m U_mk D_mn/(UVᵀ)_mn / Σ_m U_mk
//	U_mk ← U_mk · Σ_n V_nk D_mn/(UVᵀ)_mn / Σ_n V_nk,
//
// non-increasing by their Theorem 2. D ⊘ UVᵀ is formed on D's sparsity
// pattern only (2·nnz·K flops), once on D for the U update and once on Dᵀ
// for the objective and the next V update; Σ_mn (UVᵀ)_mn = Σ_k (Σ_m U_mk)
// (Σ_n V_nk). No ε: a column sum is 0 only for a vanished column, whose
// numerator is 0 too, and the update then gives 0.
//
// # Start and fold-in
//
// Both start from scikit-learn's random rule (|z|·sqrt(mean(D)/K), as
// engine/nmf) or U0, V0. FoldIn solves the fit's V subproblem per document
// with U fixed, by the fit's V update and the fit's stopping rule on the
// document's own objective (NMF_E: from sqrt(mean(x)/K) as engine/nmf;
// NMF_I: from the constant vector with Σ(Uv) = Σx).
package nmfvariants
