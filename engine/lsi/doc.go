// Package lsi implements Latent Semantic Indexing (Deerwester, Dumais,
// Furnas, Landauer & Harshman, "Indexing by latent semantic analysis",
// JASIS 41(6), 1990; cited as "LSI" below), the spectral baseline of the
// RLSI paper (Wang et al., SIGIR 2011, Section 6.3 and Table 2 row "LSI":
// min ‖D − UV‖²_F with UᵀU = I and VVᵀ diagonal).
//
// # Factorization
//
// LSI is the rank-K truncated singular value decomposition of the weighted
// M×N term-document matrix,
//
//	D ≈ U_K Σ_K V_Kᵀ,
//
// computed by randomized subspace iteration (Halko, Martinsson & Tropp,
// SIAM Review 2011, Algorithms 4.4 and 5.1; engine/rsvd) with Oversample
// extra sketch columns (default 10) and PowerIters power iterations
// (default 5): scikit-learn TruncatedSVD's defaults, so that the default
// fit costs no more than TruncatedSVD's at no less accuracy (options.go
// states the accuracy). LSI proper is the exact SVD (the RLSI paper used
// SVDLIBC's Lanczos solver), and text spectra decay slowly: for singular
// values near a dense SVD's, set Oversample to AccurateOversample(K) and
// PowerIters to AccuratePowerIters (on MED, tf-idf, K = 20: a relative
// 3e-7, where 10 extra columns and 4 power iterations are off by 3%).
// D is only multiplied with tall dense blocks; it is never densified, and
// no dense SVD of D is formed. The Gaussian test matrix
// comes from engine.NewRand(Seed); each singular pair is signed so that the
// largest-magnitude entry of u_k is positive. The result is deterministic
// per seed and bit-identical for any number of workers.
//
// # Factors and folding-in (LSI Section 4, "query representation")
//
// TermTopics is U_K (M×K, orthonormal columns, signed entries). A query or
// new document q (weighted like D) is folded in as
//
//	q̂ = Σ_K⁻¹ U_Kᵀ q,
//
// the classic LSI pseudo-document, and matched to documents by cosine
// (RLSI paper Section 5, Eq. 4). DocTopics is defined as the fold-in of
// the training documents, row n = (Σ_K⁻¹ U_Kᵀ d_n)ᵀ, computed by exactly the
// same kernel as FoldIn, so that FoldIn of a training document returns its
// DocTopics row bit for bit. For an exact SVD this is V_K (U_Kᵀ D = Σ_K
// V_Kᵀ); for the randomized one it equals V_K up to the approximation of
// the subspace (the tests compare it with a dense SVD's V_K).
//
// Singular values at or below max(M, N)·ε·σ_1 (ε = 2⁻⁵², the numerical-rank
// cutoff of a pseudo-inverse) are treated as zero: their coordinate of q̂ is
// 0 (Σ_K⁺ in place of Σ_K⁻¹), so a corpus of rank below K does not produce
// Inf.
//
// # Recorded iteration
//
// The fit is one direct computation, recorded as one iteration with its
// wall time and the reconstruction error of the rank-K projection
// ‖D − U_K U_Kᵀ D‖²_F = ‖D − U_K Σ_K (DocTopics)ᵀ‖²_F (term "loss",
// evaluated without forming the dense product; engine/sparse.ResidualSq),
// and reported with Status Converged; it runs through engine.Iterate as a
// single step. Cancellation during the subspace iteration returns Status
// Cancelled and a nil model (no factorization exists yet). A failure of the
// small dense SVD or a NaN/Inf (data whose scale overflows float64, e.g.
// entries of 1e200, whose squares overflow in the power iterations and the
// loss) is an error from Fit naming the step: no finite model exists to
// return with Status NumericalFailure.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits a corpus drawn from planted topics (engine/synthetic) and
// prints its singular values.
package lsi
