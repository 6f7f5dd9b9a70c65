// Package topics describes the topics of a fitted model: their top terms and
// their compactness.
//
// Topics are the columns of the term-topic matrix U, stored as in package
// engine: M×K, row m for term m, column k for topic k.
//
// # Top terms
//
// TopTerms lists, per topic, up to n terms ordered by weight descending,
// ties broken by term ascending (byte order), then by row index. Terms whose
// weight is exactly zero (or NaN) are never listed: they are not part of the
// topic, so a sparse topic may list fewer than n terms. For RLSI, whose
// topics have signed weights (Wang et al. SIGIR 2011 show "top 5 weighted
// terms", Tables 6 and 8), TopTermsBy offers three orders:
//
//   - ByWeight: signed weight descending (the default; negative terms can
//     appear only after every positive one);
//   - ByMagnitude: |weight| descending, sign kept in Term.Weight;
//   - PositiveOnly: only weights > 0, descending.
//
// # AvgComp
//
// The RLSI paper (Sec. 6.2, with Tables 6, 8 and 10) defines "average topic
// compactness (AvgComp) ... as average ratio of terms with non-zero weights
// per topic":
//
//	AvgComp(U) = (1/K) Σ_{k=1..K} |{m : U_mk ≠ 0}| / M
//
// (AvgComp = 1 for dense topics such as LDA's; 0.0075 for RLSI on AP). "Non-
// zero" is taken literally: exact zeros, as produced by RLSI's soft
// thresholding. AvgCompTol counts |U_mk| > tol instead, for models that only
// approach zero (e.g. multiplicative NMF updates); that is not the paper's
// definition and reports must say which tolerance was used.
package topics
