// Package rlsi implements Regularized Latent Semantic Indexing (Wang, Xu, Li,
// Craswell, "Regularized Latent Semantic Indexing", SIGIR 2011; the paper
// cited as "RLSI" below).
//
// # Formulation (RLSI Section 4.1, Eq. 1)
//
// Given the M×N term-document matrix D = [d_1 … d_N], RLSI finds the M×K
// term-topic matrix U = [u_1 … u_K] and the K×N topic-document matrix
// V = [v_1 … v_N] minimizing
//
//	f(U, V) = ‖D − UV‖²_F + λ1·Σ_k ‖u_k‖_1 + λ2·Σ_n ‖v_n‖²_2        (Eq. 1)
//
// (ℓ1 on topics, ℓ2 on document representations; the loss has no ½ factor).
// Section 4.1 says the second term (on U) and the third term (on V) "can be
// either ℓ1 norm or ℓ2 norm", and Section 6.2 names the four combinations
// RLSI (Uℓ1-Vℓ2), (Uℓ2-Vℓ1), (Uℓ1-Vℓ1), (Uℓ2-Vℓ2). Reading chosen here: λ1
// always weighs the regularizer on U and λ2 the regularizer on V, whichever
// norm each is; "ℓ2" means the squared ℓ2 norm as in Eq. 1, and "ℓ1" the
// plain ℓ1 norm (footnote 3 writes the ℓ1 fold-in as ‖q − Uv‖²₂ + λ2‖v‖₁,
// which confirms λ2 stays with V). So the four objectives are
//
//	U1V2: ‖D − UV‖²_F + λ1 Σ_mk |u_mk| + λ2 Σ_kn v_kn²   (default; Eq. 1)
//	U2V1: ‖D − UV‖²_F + λ1 Σ_mk u_mk²  + λ2 Σ_kn |v_kn|  (sparse coding form)
//	U1V1: ‖D − UV‖²_F + λ1 Σ_mk |u_mk| + λ2 Σ_kn |v_kn|  (double sparse)
//	U2V2: ‖D − UV‖²_F + λ1 Σ_mk u_mk²  + λ2 Σ_kn v_kn²
//
// # Optimization (RLSI Section 4.3, Algorithms 1–3)
//
// Algorithm 1 alternates UpdateU and UpdateV from a random V⁽⁰⁾; the paper
// does not give the distribution. Here every entry of V⁽⁰⁾ is drawn
// independently from the standard normal N(0, 1) (engine.NewRand(Seed),
// NormFloat64, document by document, topic by topic), unless Options.InitV
// gives V⁽⁰⁾ (Options.BalancedInit multiplies the same draws by σ = √(ŝ/N);
// see below). Reason for a zero-mean choice: with V⁽⁰⁾ ~ Uniform[0, 1) the
// first S = VVᵀ ≈ N/12·I + N/4·11ᵀ has condition number ≈ 3K + 1, and the
// first lasso update needs many more coordinate-descent sweeps per row;
// with N(0, 1) entries S ≈ N·I is well conditioned (measurements:
// docs/measurements.md, "RLSI: the start V⁽⁰⁾").
//
// # Scale of V⁽⁰⁾ and of λ (BalancedInit, RelativeLambda)
//
// Eq. 1 is not invariant under D → αD for fixed λ: D → αD with (U, V) →
// (√α U, √α V) multiplies the loss by α², an ℓ1 term by √α and a squared
// ℓ2 term by α, so the fit of αD with (λ1, λ2) equals, up to (U, V) →
// (√α U, √α V), the fit of D with (λ1/α^{3/2}, λ2/α). And (U, V) → (cU,
// V/c) leaves the loss unchanged and maps (λ1, λ2) to (cλ1, λ2/c²), so for
// Uℓ1-Vℓ2 only λ1²λ2 decides the sparsity. So λ = (0.5, 1) means very
// different things for raw tf-idf and for unit-length documents: on MED
// (RMS document length ŝ = ‖D‖_F/√N = 51.2 raw, 1 unit-length) it
// regularizes almost nothing on raw tf-idf (equivalent relative λ1²λ2/ŝ⁴ =
// 3.6·10⁻⁸) and, from a random V⁽⁰⁾, collapses to U = 0, V = 0 on
// unit-length documents, a stationary point (R = DVᵀ = 0) that Algorithm 1
// never leaves although it is not the minimizer. With ℓ1 on V the scale of
// V⁽⁰⁾ matters too: from N(0, 1), U comes out about 1/σ too small and most
// topics die under the V lasso's threshold λ2/2. The traces behind these
// statements are in docs/measurements.md ("RLSI: the scale of V⁽⁰⁾ and
// of λ").
//
// Decision (no reference to the paper's reported values): V⁽⁰⁾ ~ N(0, 1)
// stays the default, since Algorithm 1 line 1 says only "random matrix"
// and other engines (engine/grouprlsi, bit-identical with one class) share
// it. Two options make the fit follow the data's scale instead:
// Options.BalancedInit draws V⁽⁰⁾ with σ = √(ŝ/N), the scale at which the
// first least-squares U and V⁽⁰⁾ are equally large (it rescues the ℓ1-on-V
// variants above; it cannot rescue Uℓ1-Vℓ2 at λ = (0.5, 1) on unit-length
// documents, which collapses from every σ), and Options.RelativeLambda
// states λ for documents of unit RMS length (ℓ1 weights × ŝ^{3/2},
// squared-ℓ2 weights × ŝ), so one setting gives the same topics for raw
// and unit-length documents. Together they make the fits of D and αD
// equivalent up to (√α U, √α V). The λ grid itself must still be chosen
// for the data (docs/measurements.md gives the sparsity of a few settings).
//
// UpdateU with ℓ1 (Algorithm 2, Eq. 2–3): with S = VVᵀ (K×K) and R = DVᵀ
// (M×K) each row ū_m solves the lasso min ‖d̄_m − Vᵀū_m‖² + λ1‖ū_m‖₁,
// decoupled over terms m. Coordinate descent updates, for k = 1…K,
//
//	w_mk = r_mk − Σ_{l≠k} s_kl u_ml,
//	u_mk ← (|w_mk| − λ1/2)₊ · sign(w_mk) / s_kk,
//
// the threshold being λ1/2 because the loss in Eq. 3 has no ½ factor (the
// partial derivative of s_kk u² − 2uw + λ1|u| vanishes at (w ∓ λ1/2)/s_kk;
// RLSI Section 4.3.1). Sweeps repeat "until convergence": here until a full
// sweep's largest change is at most InnerTol times the largest |u_mk| of
// the row, or InnerSweeps sweeps. When s_kk = 0 (topic k unused by every
// document) u_mk is set to 0, the minimizer of λ1|u_mk|. The steps are
// those of the paper, in cyclic order; the vector S·ū_m is kept up to date
// incrementally so that a coordinate that does not move costs O(1) (see
// solve.Lasso).
//
// Reading choice (warm start): Algorithm 2 line 4 resets ū_m ← 0 at every
// call. Here each row starts from its value after the previous outer
// iteration (zero at the first). Both converge to the same minimizer of the
// convex Eq. 3; the warm start needs fewer sweeps, and since every
// coordinate step exactly minimizes f in one variable it guarantees that f
// never increases even when the sweep limit cuts the inner loop short.
// Options.ColdStart restores the literal line 4.
//
// UpdateU with ℓ2: the ridge problem has the closed form
// U = DVᵀ (VVᵀ + λ1 I)⁻¹ = R (S + λ1 I)⁻¹, applied row by row.
//
// UpdateV with ℓ2 (Algorithm 3, Section 4.3.2): Σ = (UᵀU + λ2 I)⁻¹ (by
// Cholesky), Φ = UᵀD, v_n = Σ φ_n. UpdateV with ℓ1: each v_n solves the lasso
// min ‖d_n − U v_n‖² + λ2‖v_n‖₁ by the same coordinate descent with
// S = UᵀU, r = Uᵀd_n and threshold λ2/2, warm-started from the previous v_n.
//
// # Fold-in (RLSI Section 5)
//
// A query or new document q is represented as v_q = argmin_v ‖q − Uv‖²₂ +
// λ2‖v‖²₂ = Σ Uᵀq for the ℓ2-on-V variants, and v_q = argmin_v ‖q − Uv‖²₂ +
// λ2‖v‖₁ (footnote 3) for the ℓ1-on-V variants, solved by coordinate descent
// from v = 0 with the fit's InnerSweeps and InnerTol.
//
// # Layout, recording, determinism
//
// U is stored M×K and V transposed, N×K (row n is v_n), as everywhere in
// engine. The fit runs through the engine's driver (engine.Iterate): each
// step computes the candidate (U, V) into buffers of its own, so the model
// returned after a cancellation or a NaN/Inf (Status NumericalFailure
// naming the update) is the last accepted iterate. Every outer iteration
// records its wall time and the fraction of exact zeros of U and V (AvgComp
// of the paper's Section 6.2 is one minus the U sparsity) and, on the
// iterations Stopping.EvalEvery selects, the objective and its three terms
// ("loss", the U regularizer, the V regularizer). A D whose ‖D‖²_F
// overflows float64 is an error. The objective is evaluated without forming UV:
// ‖D − UV‖²_F = ‖D‖²_F − 2 Σ_n φ_n·v_n + tr(UᵀU · VVᵀ), whose pieces the
// updates compute anyway.
//
// All parallel loops run over fixed blocks of rows, each row's result
// depending on that row alone, and Gram reductions add block partials in
// block order: the same Seed gives the same bits for any number of workers.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a corpus drawn from planted topics (engine/synthetic) with λ1
// read relative to the data's scale, shows the zeros ℓ1 leaves in U and
// folds the documents in.
package rlsi
