// Package gnmfnc implements group non-negative matrix factorization with
// natural categories (GNMFNC) from Zhou, Chen, Zeng, Zhao, "Group
// Non-negative Matrix Factorization with Natural Categories for Question
// Retrieval in Community Question Answer Archives", COLING 2014 (cited by
// section and equation below). It is Group NMF (engine/groupnmf) with
// per-category weights, a penalty on the overlap of shared and category
// topics, and shrinkage towards unit sums.
//
// # Objective (§2.1, Eq. 1–3)
//
// The questions are split by category into D_1 … D_P (D_p is M×N_p), with
// Ks shared topics U_s (M×Ks), Kp topics U_p (M×Kp) per category and
// V_p = [H_p; W_p] ((Ks+Kp)×N_p); a question of category p is
// d ≈ [U_s, U_p]v. GNMFNC minimizes, over U_s, U_p, V_p ≥ 0,
//
//	L = Σ_p λ_p‖D_p − [U_s, U_p]V_p‖²_F                         (Eq. 1)
//	  + Σ_p (α_p‖U_sᵀU_p‖²_F + Σ_{l≠p} β_l‖U_pᵀU_l‖²_F)        (R, Eq. 2)
//	  + σ1‖U_sᵀ1_M − 1_Ks‖² + σ2 Σ_p ‖U_pᵀ1_M − 1_Kp‖²
//	  + σ3 Σ_p ‖V_p1_Np − 1_{Ks+Kp}‖²                            (Eq. 3)
//
// with λ_p = ‖D_p‖_F⁻² (Eq. 1), α_p = a/(Ks·Kp) and β_l = a/(Kp·Kl) (§3.1;
// every category has Kp topics here, so α_p = α and β_l = β). Readings:
//   - Eq. 1 writes R inside Σ_p, but R (Eq. 2) is itself a sum over p;
//     it is counted once.
//   - Eq. 3 writes the σ2 and σ3 terms for one p; they are summed over
//     the categories, like the loss.
//   - V_p1 is as printed: the row sums of V_p (§2.1: "the normalization
//     constraints for each column of … V_pᵀ").
//   - Σ_{l≠p} counts each pair of categories twice (‖U_pᵀU_l‖ = ‖U_lᵀU_p‖),
//     as Eq. 2 is written.
//   - §3.1 says a = 100 gives "αp = βl = 0.625"; with (Ks, Kp) = (20, 8)
//     that is α = 100/160; β = 100/64 = 1.5625 by the formula given.
//   - A category without training questions has λ_p = 0 (its loss term
//     is identically 0); one whose questions are all empty is an error.
//
// # Scale
//
// λ_p makes the loss scale-free (it is at most P, its value at V = 0), but
// the shrinkage terms are not: with column sums of U_s, U_p near 1, the
// row sums V_p1 near 1 leave a reconstruction [U_s, U_p]V_p of total mass
// about Ks + Kp per category, whatever the mass of D_p. On
// testcorpus.Grouped (3 categories × 20 questions, raw weights ≈ 1.5) with
// a = 10, 150 iterations and σ3 = 1 the loss stays at 2.98 of its maximum
// 3 and the class-unknown fold-in finds 13 of 60 categories; with σ3 = 0
// (Off) the loss falls to 0.079 and it finds 60 of 60. σ3 (or the scale of
// D) must be chosen with that in mind.
//
// # Updates (derived from L; cf. Eq. 4–6, 8–11)
//
// Each update is the multiplicative rule of the gradient of L split into
// its positive part (denominator) and negative part (numerator), with the
// other blocks fixed:
//
//	U_s ← U_s ∗ (Σ_p λ_pD_pH_pᵀ + σ1) /
//	      (Σ_p λ_p(U_sH_p + U_pW_p)H_pᵀ + α Σ_p U_pU_pᵀU_s + σ1 1_M1_MᵀU_s)          (U_s)
//	U_p ← U_p ∗ (λ_pD_pW_pᵀ + σ2) /
//	      (λ_p(U_sH_p + U_pW_p)W_pᵀ + αU_sU_sᵀU_p + 2β Σ_{l≠p} U_lU_lᵀU_p + σ2 1_M1_MᵀU_p)  (U_p)
//	V_p ← V_p ∗ (λ_p[U_s, U_p]ᵀD_p + σ3) /
//	      (λ_p[U_s, U_p]ᵀ[U_s, U_p]V_p + σ3 V_p1_Np1_Npᵀ)                           (V_p)
//
// (entrywise ∗ and /; a scalar σ is a matrix of σ's; every factor is
// guarded as (num + ε)/(den + ε), ε = Eps, as engine/groupnmf). Where the
// printed rules differ:
//   - Eq. 4 drops the σ1 terms ("after normalization of U_s, the terms σ1U_s
//     and σ1 are in fact equal"), Eq. 11 keeps them, and Eq. 9 writes the
//     gradient of σ1‖U_sᵀ1 − 1‖² as "2σ1U_s − 2σ1"; it is
//     2σ1(1_M1_MᵀU_s − 1_M1_Ksᵀ): each entry of column k of U_s gets σ1
//     times the column's sum. No normalization step is described, and
//     dropping the terms would minimize O instead of L, so both are kept,
//     exactly.
//   - Eq. 11's denominator has Σ_p λ_p[U_s, U_p]V_pW_pᵀ where Eq. 4 (and the
//     gradient, Eq. 8) has V_pH_pᵀ: H_pᵀ.
//   - Eq. 5 has β_l once; the objective counts each pair twice, so the
//     gradient has 2β.
//   - Eq. 5 and 6 omit the σ2 and σ3 terms (only U_s's are derived, "the
//     rest … following the similar derivations"); they are derived the
//     same way. Eq. 6's λ_p cancels without σ3; with σ3 it does not.
//
// # Order and monotonicity (Theorem 2.1–2.2)
//
// One iteration updates U_s, then U_1 … U_P, then every V_p, each update
// using the blocks already updated. With the other blocks fixed, L is a
// quadratic ½xᵀAx − bᵀx + cᵀx in the block x with A entrywise ≥ 0 and
// b, c ≥ 0 (A from H_pH_pᵀ, W_pW_pᵀ, U_lU_lᵀ, 11ᵀ; c from the cross terms
// λ_pU_pW_pH_pᵀ, λ_pU_sH_pW_pᵀ; b from λ_pD_p… and the σ's), and the rule
// x ← x ∗ (b + ε)/(Ax + c + ε) minimizes the Lee–Seung auxiliary function
// with the diagonal K = diag((Ax̃ + c + ε)/x̃) ⪰ A (the argument of
// Theorem 2.2 and of GMF's Proposition 1), so L never increases. The V_p
// are independent given U (class-parallel) and U_s is one block. The U_p
// are not: ‖U_pᵀU_l‖² is quartic in (U_p, U_l) jointly, so a simultaneous
// update of every U_p is not covered by the argument. The categories are
// therefore updated in order (Gauss–Seidel; Theorem 2.1 speaks of the
// updates "corresponding to category c_p"), category p's β sum using the
// U_l already updated for l < p. Everything else of the U_p update — the
// numerators [λ_pD_pW_pᵀ] in one pass over D, the other denominator terms
// — is computed for every category at once; only the β sum Σ_{l≠p}
// U_l(U_lᵀU_p) (4·M·P·Kp² flops per category) is sequential over p, each
// product parallel over term rows. The tests check every block against L
// computed densely from its definition, and den − num against ½∇L by
// finite differences.
//
// # Class-parallel learning
//
// As engine/groupnmf, on engine/grouping's class-major layout: Σ_pλ_pD_pH_pᵀ
// is one product D·(ΛH)ᵀ, [λ_pD_pW_pᵀ] one pass over D (MulBlockDiag), the
// V_p update runs over units of 256 questions within each category, and
// fixed blocks with ordered reductions give the same bits for any number
// of workers.
//
// Initialization (not given by the paper): engine/groupnmf's random rule,
// |z|·sqrt(mean(D)/(Ks+Kp)).
//
// # Recording
//
// Every iteration records L and its terms "loss" (Σ_p λ_p‖…‖², from Grams
// the updates compute), "R-shared", "R-between", "shrink-Us", "shrink-Up",
// "shrink-V" (the between-category term needs the Gram of [U_1 … U_P],
// M·(P·Kp)² flops), the wall time and the zero fractions of U_s,
// [U_1 … U_P] and V.
//
// # Retrieval (§2.4)
//
// Model.FoldInClass solves Eq. 12, v_q = argmin_{v≥0} ‖q − [U_s, U_p]v‖²₂,
// exactly by engine/solve.NNLS; Model.FoldIn, for a query whose category is
// unknown, takes the category of least reconstruction error (GMF §4.3).
// TopicScore is the cosine of Eq. 13 in the full K = Ks + P·Kp space.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a labelled corpus drawn from shared and category topics
// (engine/synthetic) and predicts each document's category from the topics.
package gnmfnc
