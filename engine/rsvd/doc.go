// Package rsvd computes a truncated singular value decomposition of a large
// sparse matrix by randomized subspace iteration (Halko, Martinsson & Tropp
// 2011, "Finding structure with randomness", SIAM Review 53(2): Algorithm
// 4.4, randomized subspace iteration, followed by Algorithm 5.1, direct
// SVD). The sparse matrix is only ever multiplied with tall dense blocks
// through engine/sparse's MulDense; it is never densified. NMF uses it for
// the NNDSVD initialization and LSI for its factorization.
//
// For A (M×N), rank K, oversampling p and q power iterations, with
// l = min(K+p, M, N):
//
//	Ω  ~ N(0,1)^{N×l}                      (engine.NewRand(Seed))
//	Q  = orth(A Ω)
//	repeat q times:  Q = orth(A · orth(Aᵀ Q))
//	Bᵀ = Aᵀ Q         (N×l; B = QᵀA)
//	Bᵀ = Q₂ R         (thin QR)
//	R  = U_R Σ W_Rᵀ   (l×l dense SVD)
//	A ≈ (Q W_R) Σ (Q₂ U_R)ᵀ, truncated to the leading K triplets.
//
// orth returns the thin M×l orthonormal factor, by Options.Orth: a
// Householder QR (LAPACK dgeqrf + dorgqr via gonum, the default), backward
// stable even when power iterations make A Ω ill-conditioned, or CholeskyQR2
// (two Cholesky QR steps on the pool, falling back to Householder when a
// block's Gram matrix has a condition number above 10¹²), which does the
// same in a fraction of the time on large blocks. The tall products run on
// the pool of engine/parallel with fixed blocks; the Householder QR, the
// Cholesky factorizations and the small SVD are sequential gonum code, so
// the result is deterministic per seed and bit-identical for any number of
// workers. Each singular vector pair is given the sign that makes the
// largest-magnitude entry of the left vector positive (as scikit-learn's
// svd_flip does), so signs do not depend on LAPACK details.
//
// Accuracy (Halko et al. Thm 10.6 and §4.5): the expected spectral error is
// within a factor of about (1 + 9√(l·min(M,N)))^{1/(2q+1)} of σ_{K+1}; with
// the defaults p = 10 and q = 4 the leading singular values of a matrix
// with decaying spectrum agree with a dense SVD to many digits (see the
// tests).
package rsvd
