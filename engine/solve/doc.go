// Package solve holds the shared per-row solvers of the factorization
// families: lasso, ridge and NNLS. Each solves one small K-variable problem
// — a row of a factor with the other factor fixed — so a family's update is
// a parallel loop over rows calling one of them, and every family that
// reduces to the same problem gets the same bits.
//
//   - Lasso: min_x xᵀSx − 2rᵀx + λ‖x‖₁ by cyclic coordinate descent with
//     soft-thresholding (RLSI, Wang, Xu, Li, Craswell, "Regularized Latent
//     Semantic Indexing", SIGIR 2011, §4.3.1, Algorithm 2), used for RLSI's
//     U update and for the per-class lasso rows of Group RLSI (Wang et al.,
//     "Group Matrix Factorization for Scalable Topic Modeling", SIGIR 2012,
//     Eq. 6–7). Lasso.SolveRows solves many rows that share S with the
//     bits of Solve row by row; with AVX-512 it sweeps sixteen rows at once
//     in vector lanes, which hides the latency of each coordinate's step.
//   - RidgeInverse: (G + λI)⁻¹ by Cholesky, the closed form of the ℓ2 rows
//     (RLSI §4.3.2, Algorithm 3 line 1; GMF Algorithm 4 line 1).
//   - NNLS: min_{x≥0} ‖Ax − b‖², for the joint topic-document model and
//     GNMFNC; and Multiplicative, the same problem by Lee & Seung's
//     multiplicative update (NIPS 2001), which NMF, graph-regularized NMF
//     and Group NMF use to fold in new documents (MultiplicativeRows), and
//     the same guarded update of a whole factor with an optional ℓ2 penalty
//     (MultiplicativeStep: NMF_E, graph-regularized NMF's U).
//   - NonNegSweep: one sweep of cyclic coordinate descent on
//     min_{v≥0} ½vᵀGv − bᵀv, the fold-in of TNMF_E and of SymNMF.
//   - FoldRows: a fold-in of the rows of X in fixed parallel blocks, each
//     row on its own (PLSI, LDA, NMF_E, NMF_I, MultiplicativeRows).
//   - RandomStart and HalfNormal: the random non-negative start of the NMF
//     family (scikit-learn's NMF(init="random") rule), and FiniteStart, which
//     refuses a start that is not finite, so that every family starts alike.
//
// The row solvers allocate nothing per call: a Lasso carries its work
// space, and a LassoPool hands one to each concurrent block of a row loop.
// They use no randomness and no goroutines; the helpers over whole factors
// (MultiplicativeStep, FoldRows) split the rows into fixed blocks. So
// results never depend on the number of workers.
package solve
