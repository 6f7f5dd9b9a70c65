// Package cluster scores a clustering against reference classes: purity,
// normalized mutual information (NMI) and the adjusted Rand index (ARI), all
// computed from the contingency table of the two labelings.
//
// Notation (TNMF paper, Yan et al. SDM 2013, Sec. 5.4.1): n documents,
// clusters Ω = {ω_k}, classes C = {c_j}, n_kj = |ω_k ∩ c_j|, class sizes
// a_j = |c_j|, cluster sizes b_k = |ω_k|. Labels are arbitrary integers
// (negative ones included); callers drop documents of unknown class first.
//
// # Purity
//
//	purity(Ω, C) = (1/n) Σ_k max_j n_kj
//
// (Manning, Raghavan & Schütze, Introduction to IR, Sec. 16.3; TNMF eq. in
// Sec. 5.4.1). An empty labeling has purity 1 (vacuously every cluster is
// pure), matching the convention below for NMI and ARI.
//
// # NMI
//
//	I(Ω; C) = Σ_{k,j} (n_kj/n) log( n·n_kj / (b_k a_j) )
//	H(Ω)    = −Σ_k (b_k/n) log(b_k/n),  H(C) likewise
//	NMI     = I(Ω; C) / ((H(Ω) + H(C)) / 2)
//
// with natural logarithms (the base cancels), the arithmetic mean of the
// entropies as in TNMF Sec. 5.4.1 and scikit-learn's
// normalized_mutual_info_score(average_method="arithmetic"), whose limit
// conventions we follow (scikit-learn 1.2): NMI = 1 when both labelings have
// a single cluster or are empty; otherwise NMI = 0 when I = 0 (in particular
// when exactly one labeling has a single cluster). As scikit-learn, terms of
// I with magnitude below the float64 epsilon are set to 0 and I is clipped
// at 0, so independent labelings give exactly 0.
//
// # ARI
//
// Hubert & Arabie (Journal of Classification 2(1), 1985), in the form of the
// TNMF paper:
//
//	S = Σ_{k,j} C(n_kj, 2),  A = Σ_j C(a_j, 2),  B = Σ_k C(b_k, 2),  E = A·B / C(n, 2)
//	ARI = (S − E) / ((A + B)/2 − E)
//
// Every binomial C(x, 2) = x(x−1)/2 and every product is computed in float64,
// so nothing overflows at millions of documents (A·B exceeds int64 from
// about 10⁵ documents per cluster). The numerator and denominator are
// multiplied through by C(n, 2) and their differences of products formed
// with fused multiply-adds, which keeps full relative precision when S ≈ E
// (an ARI near 0 on a million documents is still correct to ~1e-15
// relatively; a plain float64 evaluation loses about 4 digits there). The denominator vanishes only when the two
// labelings are the same partition (both one cluster, or both all
// singletons, or n ≤ 1); ARI is then 1, as scikit-learn's
// adjusted_rand_score.
package cluster
