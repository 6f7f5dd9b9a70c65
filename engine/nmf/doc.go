// Package nmf is non-negative matrix factorization of the term-document
// matrix by the multiplicative updates of Lee & Seung (2001, "Algorithms for
// non-negative matrix factorization", NIPS 13, eq. 4), which minimize the
// squared Frobenius loss
//
//	min ‖D − U Vᵀ‖²_F   subject to U ≥ 0, V ≥ 0,
//
// with D the M×N term-document matrix, U the M×K term-topic matrix and V
// the N×K document-topic matrix (the paper's H is our Vᵀ: engine stores V
// transposed, one row per document; see engine/doc.go). One iteration
// updates V, then U, as eq. 4 lists them (H first, then W):
//
//	V ← V ∘ (Dᵀ U + ε) ⊘ (V (UᵀU) + ε)     (paper: H ← H ∘ (WᵀV) ⊘ (WᵀW H))
//	U ← U ∘ (D V  + ε) ⊘ (U (VᵀV) + ε)     (paper: W ← W ∘ (V Hᵀ) ⊘ (W H Hᵀ))
//
// where ∘ and ⊘ are elementwise and ε = Eps = 1e-16 guards the division (a
// zero denominator happens for an empty document, an unused term or a
// vanished topic); the paper's updates have no ε.
//
// Why ε in both places: Lee & Seung prove the loss non-increasing (Theorem
// 1) because the update minimizes the auxiliary function G(h, hᵗ) =
// F(hᵗ) + (h−hᵗ)ᵀ∇F(hᵗ) + ½(h−hᵗ)ᵀK(h−hᵗ) with diagonal K_aa =
// (WᵀWhᵗ)_a / hᵗ_a ≥ the true curvature. Raising K_aa to
// ((WᵀWhᵗ)_a + ε) / hᵗ_a keeps G an upper bound, and its minimizer is
// exactly hᵗ ∘ (Wᵀv + ε) ⊘ (WᵀWhᵗ + ε): so with ε added to numerator and
// denominator Theorem 1 still holds, whereas ε in the denominator alone can
// raise the loss (by O(ε²)) near a fixed point. The fixed points are those
// of the paper (numerator = denominator where an entry is positive); the
// difference from the paper's factor is a relative O(ε / denominator),
// about 1e-14 on real data. scikit-learn (solver "mu") instead replaces zero
// denominators by float32 machine epsilon and adds nothing elsewhere; the
// tests agree with it to 1e-12.
//
// Every product runs on the engine kernels (engine/sparse, engine/dense)
// over fixed blocks, so a fit is bit-identical for any number of workers.
// The loss is evaluated without forming U Vᵀ from the products the updates
// need anyway (sparse.ResidualSqParts: ‖D‖² − 2⟨U, DV⟩ + ⟨UᵀU, VᵀV⟩),
// at the cost of one extra Gram matrix per iteration, which the next V
// update reuses. Every iteration is recorded (seconds, objective, the term
// "loss", the fraction of zeros in U and V) and checked for NaN/Inf.
//
// Initializations (Options.Init): "random" (scikit-learn's rule), "nndsvd"
// (Boutsidis & Gallopoulos 2008) on a randomized truncated SVD of the
// sparse D (engine/rsvd), "nndsvda" (NNDSVD with zeros replaced by the mean
// of D, as scikit-learn does) and "custom" (given U0, V0). See Options.
//
// Folding in (Model.FoldIn) solves the V-subproblem with U fixed, by the
// same V update, from a constant start and with the same stopping rule
// applied to each document's own loss. See Model.FoldIn.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a corpus drawn from planted topics (engine/synthetic), compares
// the learned topics with the planted ones and folds the documents in.
package nmf
