// Package tnmf is TNMF, topic learning for short texts by symmetric
// non-negative matrix factorization of a term correlation matrix (Yan, Guo,
// Liu, Cheng, Wang, "Learning Topics in Short Texts by Non-negative Matrix
// Factorization on Term Correlation Matrix", SDM 2013).
//
// # Term correlation (Section 3.1)
//
// Co-occurrence counts n(t_i, t_m) are taken within documents
// (CoOccurrence): by default a pair counts once per document containing
// both terms (PerDocument; "the times of terms t_i and t_m co-occurred"
// read as the number of short texts in which they co-occur), or by the
// product of their weights (Multiplicity, the number of occurrence pairs
// on a tf corpus). A term is not its own context: the diagonal is 0. Each
// term is then represented by its PPMI vector over the other terms,
//
//	w_im = max(log(P(t_i,t_m) / (P(t_i)P(t_m))), 0),
//	P(t_i,t_m) = n_im / Σ_{j,l} n_jl,   P(t_i) = Σ_m n_im / Σ_{j,l} n_jl,
//
// and S_ij is the cosine of w_i and w_j (symmetric.Cosine). S is held sparse or dense
// by its density (symmetric.Storage, DenseThreshold = 0.5): on the STTM short-text
// sets it is 93–96% dense (SearchSnippets, StackOverflow, Biomedical; 17%
// on the 2,472 tweets) while the document-vector correlation the paper
// contrasts it with (Figure 3a; DocumentVectorCorrelation) is 0.4–4% dense.
// All products are row-parallel in fixed blocks with a fixed order of
// additions, so S is exactly symmetric and the same for any number of
// workers.
//
// # Topic learning (Section 4.1, Algorithm 1)
//
// U minimizes L(U) = ‖S − UUᵀ‖²_F, U ≥ 0 (Eq. 3.1), by the update of
// Eq. 4.5,
//
//	U_{t+1} = max(S·U_t·(U_tᵀU_t)⁻¹, 0),
//
// which is the unconstrained least-squares solution of Eq. 4.4
// (min_U ‖S − U_tUᵀ‖²) with its negative entries set to 0 — the paper's
// "approximate solution" of the NNLS problem, implemented as written (Step).
// When U_tᵀU_t is singular or has condition number above 1e12 (a column of
// U zeroed by the projection) its pseudo-inverse is used, the minimum-norm
// least-squares solution; Model.PseudoInverseSteps counts such steps.
// L(U) is evaluated (every Stopping.EvalEvery iterations) without forming UUᵀ:
// L = ‖S‖² − 2⟨U, SU⟩ + ‖UᵀU‖²_F (symmetric.Objective), the product SU being the one
// the next update needs.
//
// Eq. 4.5 is not monotone, and not only because of the projection: it is
// equivariant to column scaling (U·D ↦ U_{t+1}·D⁻¹ for a positive diagonal
// D), and without the projection, for S of rank K, U_t = U*A gives
// U_{t+1} = U*A⁻ᵀ and U_{t+2} = U*A — a 2-cycle unless AAᵀ = I. In practice
// the directions of the columns converge while their scales alternate:
// on StackOverflow (K = 20) L alternates between about 5.1e3 and 1.1e4
// (‖S‖² = 1.36e4) and rose in 15 of 29 steps of a 30-iteration run
// (TestRealScaleCycle). The relative-change test therefore
// rarely ends a fit; the iteration limit does. The conformance suite's
// non-increase check is off for TNMF. Options.Rescale (not in the paper,
// off by default) follows every step by the exact minimization of L over
// the column scales, min_{e≥0} ‖S − Σ_k e_k u_k u_kᵀ‖² (a K-variable NNLS
// with matrix (UᵀU)∘(UᵀU)): the directions of the columns are exactly those
// of the literal iteration (by the scaling equivariance), L is never above
// the literal iterate's, and on StackOverflow it decreased at every one of
// 30 iterations, to 4.3e3. Column scales matter downstream: V and the
// argmax clustering of Section 5.4 depend on them.
//
// U⁽⁰⁾ is random, Uniform[0, 2·sqrt(s̄/K)) with s̄ the mean entry of S
// (the initialization of Kuang, Ding and Park's SymNMF code, so that
// E[U⁽⁰⁾U⁽⁰⁾ᵀ] has S's mean), from engine.NewRand(Seed).
//
// # Topic inference (Sections 3.3 and 4.2)
//
// TNMF_E (InferE) is Eq. 4.6, V = max((UᵀU)⁻¹UᵀX, 0) (the paper's "Y" is
// X), computed per document as max(x_jᵀ·U·(UᵀU)⁻¹, 0); Algorithm 1's
// "repeat … until convergence" around it is a single evaluation, since U
// is fixed. InferENNLS (not in the paper) solves Eq. 3.2 exactly by
// coordinate descent from that point. TNMF_I (InferI) minimizes the
// generalized I-divergence of Eq. 3.3 per document by cyclic coordinate
// Newton steps with the paper's gradient and second derivative,
//
//	g = Σ_i u_ik (1 − x_ij/(Uv)_i),   h = Σ_i x_ij u_ik² / (Uv)_i²,
//	v_k ← max(v_k − g/h, 0),
//
// safeguarded by step halving whenever a step would increase l(v_j) (the
// plain step overshoots: for one topic from v > 2v* it lands on 0, where
// l = +∞); with the safeguard every step lowers l (tested step by step).
// Terms whose row of U is zero are left out of l (they make it +∞ for
// every v). v starts at the constant vector with Σ_i (Uv)_i = Σ_i x_ij
// (the paper does not say); sweeps stop when one lowers l by at most
// InnerTol·l. Documents are independent and solved in parallel blocks.
// FoldIn uses the same inference, so folding in the training documents
// gives DocTopics bit for bit.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits short documents drawn from planted topics (engine/synthetic)
// and compares the topics with the planted ones.
package tnmf
