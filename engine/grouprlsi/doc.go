// Package grouprlsi implements Group RLSI (GRLSI) and its per-class
// baseline CRLSI from Wang, Cao, Xu, Li, "Group Matrix Factorization for
// Scalable Topic Modeling", SIGIR 2012 (cited as "GMF" below).
//
// # Formulation (GMF §3.1 and §4, Eq. 1 and 3)
//
// The N documents are split by class into D_1 … D_P (D_p is M×N_p). There
// are Ks shared topics U0 (M×Ks) and, for every class p, Kc class-specific
// topics U_p (M×Kc); a document of class p is represented only in its own
// topics, d ≈ Ũ_p v = [U0, U_p] v with v = [h; w] ∈ R^{Ks+Kc} (Eq. 1), so the
// model has K = Ks + P·Kc topics in all. GRLSI minimizes
//
//	Σ_p ‖D_p − U0H_p − U_pW_p‖²_F + λ1 Σ_mk |u⁽⁰⁾_mk| + λ1 Σ_p Σ_mk |u⁽ᵖ⁾_mk| + λ2 Σ_p Σ_n ‖v⁽ᵖ⁾_n‖²₂   (Eq. 3)
//
// with V_p = [H_p; W_p] (the loss has no ½ factor; the same λ1 weighs shared
// and class topics, as in Eq. 3 — footnote 4's separate weights are not
// implemented).
//
// # Optimization (GMF §4.1, Algorithms 1–4)
//
// Algorithm 1: U_p ← 0 and V_p random for every class, then repeat
//
//  1. U0 ← UpdateU0 (Alg. 2): S0 = Σ_p H_pH_pᵀ, R0 = Σ_p D_pH_pᵀ − Σ_p U_pW_pH_pᵀ,
//     and every row of U0 solves the lasso of Eq. 6 by coordinate descent,
//     u_mk ← (|x_mk| − λ1/2)₊ sign(x_mk) / s_kk with x_mk = r_mk − Σ_{l≠k} s_kl u_ml;
//  2. U_p ← UpdateU_p (Alg. 3) for every class: S_p = W_pW_pᵀ,
//     R_p = D_pW_pᵀ − U0H_pW_pᵀ with the new U0, the same rule (Eq. 7);
//  3. V_p ← UpdateV_p (Alg. 4) for every class: Σ_p = (Ũ_pᵀŨ_p + λ2 I)⁻¹,
//     v⁽ᵖ⁾_n = Σ_p Ũ_pᵀd⁽ᵖ⁾_n with the new U0 and U_p.
//
// Algorithm 1 interleaves U_p and V_p class by class (lines 7–10); since U_p
// depends only on U0 and its own V_p, and V_p only on U0 and its own U_p,
// doing every U_p and then every V_p is the same computation, and is how
// the classes run in parallel here.
//
// Readings chosen where the paper is silent:
//   - V_p⁽⁰⁾ ("random matrix"): every entry drawn from the standard normal
//     N(0, 1) by engine.NewRand(Seed), document by document in corpus
//     order, Ks shared weights then Kc class weights per document — the
//     choice of engine/rlsi, whose notes found that a positive uniform V⁽⁰⁾
//     makes VVᵀ ill-conditioned and the first lasso update many times
//     slower. U0 is not initialized by
//     Algorithm 1; it is computed first, and its coordinate descent starts
//     from zero.
//   - "until convergence" of the coordinate descent: as engine/rlsi
//     (solve.Lasso): sweeps stop when the largest change of a sweep is at
//     most InnerTol times the row's largest magnitude, or after InnerSweeps.
//   - Warm start: Algorithms 2–3 line 4 reset each row to zero; as in
//     engine/rlsi, each row starts from its previous value instead (zero at
//     the first iteration), which reaches the same minimizer of the convex
//     row problem and guarantees the objective never increases even when
//     the sweep limit cuts a row short. Options.ColdStart restores line 4.
//
// With one class and Kc = 0 the model is RLSI (Uℓ1-Vℓ2): V⁽⁰⁾ is drawn as
// engine/rlsi draws it and every step uses the same kernels in the same
// order, so GRLSI then reproduces rlsi.Options{Variant: rlsi.U1V2} bit for
// bit (tested).
//
// # Class-parallel learning on the shared pool
//
// The documents are stored in class-major order (engine/grouping), U as one
// M×K matrix [U0 | U_1 … U_P] and the V_p compactly as one N×(Ks+Kc) matrix
// (a row per document: h then w). Per iteration:
//   - the class Grams V_pV_pᵀ (which hold H_pH_pᵀ, H_pW_pᵀ and W_pW_pᵀ) run
//     over units of 1024 documents inside each class, reduced per class in
//     unit order — a large class is many units, a small one a single unit;
//   - R0 is one product D·Hᵀ and one [U_1 … U_P]·[W_1H_1ᵀ; …]; the R_p of all
//     classes are one pass over the rows of D (grouping.MulBlockDiag) and one
//     U0·[H_1W_1ᵀ … H_PW_Pᵀ]; the lasso problems of U0 and of every U_p run
//     over fixed blocks of term rows, each block covering every class;
//   - Σ_p runs one class per unit; Φ_p and V_p run over units of 256
//     documents inside each class.
//
// Every unit writes its own rows or its own partial, and partials are added
// in a fixed order, so the same Seed gives the same bits for any number of
// workers.
//
// # Recording
//
// The fit runs through the engine's driver (engine.Iterate): a step
// computes the candidate U and V into buffers of its own, so a cancelled or
// failed fit (Status NumericalFailure naming the update) returns the last
// accepted iterate. Each iteration records the wall time and the zero
// fractions of U0, [U_1 … U_P] and the compact V and, on the iterations
// Stopping.EvalEvery selects, the objective of Eq. 3 and its terms "loss",
// "lambda1*|U0|_1", "lambda1*|Up|_1", "lambda2*|V|_F^2" (summing to the
// Objective in that order). A D whose ‖D‖²_F overflows float64 is an
// error. The loss is evaluated without forming
// Ũ_pV_p: Σ_p ‖D_p − Ũ_pV_p‖² = ‖D‖² − 2⟨V, Φ⟩ + Σ_p ⟨V_pV_pᵀ, Ũ_pᵀŨ_p⟩.
//
// # Folding-in (GMF §4.3)
//
// A new document d of known class y is represented by Eq. 8,
// v_d = argmin_v ‖d − Ũ_y v‖²₂ + λ2‖v‖²₂ = Σ_y Ũ_yᵀd (FoldInClass). When the
// class is unknown, the class is predicted as ŷ = argmin_p E(d; Ũ_p) with
// E(d; Ũ_p) = min_v ‖d − Ũ_pv‖²₂ + λ2‖v‖²₂, and d is then folded in with
// Eq. 8 in class ŷ (FoldIn, PredictClasses; grouping.ClassAccuracy scores
// the predictions on held-out documents).
//
// # CRLSI (GMF §7.3)
//
// The baseline "CRLSI" trains one RLSI model per class on that class's
// documents only, with no shared topics (PerClassOptions); the classes
// run in lockstep (grouping.RunClasses) and class p's model is exactly
// engine/rlsi fitted on class p's documents with seed
// grouping.ClassSeed(Seed, p) (tested). GMF §7.3 trains
// it "under the same parameter settings … except parameter Ks": each
// class's model has Kc topics, the default here; PerClassOptions.Ks adds Ks
// more per class (so that each class model has the Ks + Kc topics a
// document sees in GRLSI) for those who want that comparison.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a labelled corpus drawn from shared and class topics
// (engine/synthetic) and predicts each document's class from the topics.
package grouprlsi
