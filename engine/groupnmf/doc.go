// Package groupnmf implements Group NMF and its per-class baseline CNMF
// from Wang, Cao, Xu, Li, "Group Matrix Factorization for Scalable Topic
// Modeling", SIGIR 2012 (cited as "GMF" below). (It is not the
// graph-regularized NMF of the short-text papers; see engine/graphnmf.)
//
// # Formulation (GMF §5, Eq. 9)
//
// With the documents split by class into D_1 … D_P, Ks shared topics U0
// (M×Ks), Kc topics U_p (M×Kc) per class and V_p = [H_p; W_p], Group NMF
// solves
//
//	min Σ_p ‖D_p − U0H_p − U_pW_p‖²_F   s.t. U0 ≥ 0, U_p ≥ 0, V_p ≥ 0     (Eq. 9)
//
// (a document of class p is d ≈ Ũ_pv = [U0, U_p]v, GMF Eq. 1; K = Ks + P·Kc
// topics in all).
//
// # Algorithm 5
//
// Random non-negative U0, U_p, V_p (lines 1–4), then repeat
//
//	U0 ← U0 ∗ Σ_p D_pH_pᵀ / (Σ_p U0H_pH_pᵀ + Σ_p U_pW_pH_pᵀ)    (line 7)
//	U_p ← U_p ∗ D_pW_pᵀ / (U_pW_pW_pᵀ + U0H_pW_pᵀ)               (line 9, every class)
//	V_p ← V_p ∗ Ũ_pᵀD_p / (Ũ_pᵀŨ_pV_p)                            (line 10, every class)
//
// (entrywise ∗ and /). Each rule is Proposition 1 (the Lee–Seung rule for
// min_{A≥0} ‖X − Y − AS‖² with X, Y, S ≥ 0) for one block, so the objective
// never increases; the tests check it block by block.
//
// Readings chosen:
//   - Guard: as engine/nmf, every factor is (num + ε)/(den + ε) with
//     ε = 1e-16, which keeps Proposition 1's auxiliary-function bound (the
//     diagonal Ω of the appendix grows by ε/a_i) and handles zero
//     denominators (an empty class, an unused term).
//   - Initialization ("random matrix"): engine/nmf's random rule,
//     |z|·sqrt(mean(D)/(Ks+Kc)) with z ~ N(0, 1), U0 first, then U_1 … U_P,
//     then V in corpus order (see solver.init). A class without documents
//     gets U_p = 0.
//   - Order: Algorithm 5 updates U0, then U_p, then V_p. engine/nmf (Lee &
//     Seung's eq. 4) updates V before U. Options.VFirst runs the same cycle
//     started at V; with one class, Kc = 0 and VFirst, Group NMF is NMF and
//     reproduces nmf.Options{Init: "random"} bit for bit (tested).
//   - Algorithm 5 interleaves U_p and V_p class by class; U_p depends only
//     on U0 and its own V_p, so all U_p then all V_p is the same
//     computation.
//
// # Class-parallel learning
//
// As engine/grouprlsi: documents in class-major order (engine/grouping);
// Σ_pD_pH_pᵀ is one product D·Hᵀ and [D_1W_1ᵀ … D_PW_Pᵀ] one pass over D,
// balanced over term rows; the denominators are small dense products with
// blocks of the class Grams V_pV_pᵀ (computed over units of 1024 documents
// within each class); Ũ_pᵀD_p and the V_p update run over units of 256
// documents within each class. Fixed units and ordered reductions give the
// same bits for any number of workers.
//
// # Recording
//
// The fit runs through the engine's driver (engine.Iterate): a step
// computes the candidate U and V into buffers of its own, so a cancelled or
// failed fit (Status NumericalFailure naming the update) returns the last
// accepted iterate. Every iteration records the wall time and the zero
// fractions of U0, [U_1 … U_P] and the compact V and, on the iterations
// Stopping.EvalEvery selects, the loss of Eq. 9 ("loss", the objective). A
// D whose ‖D‖²_F overflows float64 is an error (the random initialization
// has the data's scale, and the loss could not be evaluated).
// The loss is evaluated from products the updates compute anyway: ‖D‖² −
// 2⟨V, Φ⟩ + Σ_p ⟨V_pV_pᵀ, Ũ_pᵀŨ_p⟩ (or, with VFirst, ⟨U0, DHᵀ⟩ + Σ_p⟨U_p,
// D_pW_pᵀ⟩ for the middle term).
//
// # Folding-in (GMF §5.3)
//
// Class known: v_d = argmin_{v≥0} ‖d − Ũ_{y_d}v‖²₂ (Eq. 10), solved as
// engine/nmf folds in (the fit's V update with Ũ fixed, from a constant
// start, the fit's stopping rule on the document's loss). Class unknown:
// ŷ = argmin_p E(d; Ũ_p), E(d; Ũ_p) = min_{v≥0} ‖d − Ũ_pv‖²₂ (the loss at
// that stopping point), then Eq. 10 in class ŷ.
//
// # CNMF (GMF §7.3)
//
// One NMF model (engine/nmf) per class, on that class's documents only,
// without shared topics (PerClassOptions): Kc topics per class as in the
// paper ("except parameter Ks"), or Ks + Kc with PerClassOptions.Ks.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a labelled corpus drawn from shared and class topics
// (engine/synthetic) and predicts each document's class from the topics.
package groupnmf
