// Package rlsi2011 registers the experiments of Wang, Xu, Li and Craswell,
// "Regularized Latent Semantic Indexing", SIGIR 2011
// (shared/papers/001_08e5ee3a9c1f5f0e.txt), Section 6, on the public
// substitutes of the design (DESIGN.md, "Data"): Reuters-21578 (ModApte
// train, SMART stop list) for the topic tables, and the small IR test
// collections Cranfield (graded judgments), MED, CISI and NPL for the
// retrieval figures, in place of AP, WSJ and OHSUMED.
//
// # Experiments
//
//   - rlsi2011/table6-7: the four RLSI variants (ℓ1 or squared ℓ2 on U and
//     on V, §3–4) at K = 20; AvgComp (average fraction of non-zero term
//     weights per topic, §6.2) and the top-5 terms of every topic, beside
//     Table 6's AvgComp values; claims on compactness judged from our
//     numbers.
//   - rlsi2011/figures3-5: topic matching (Eq. 4) of the four variants
//     combined with BM25 and VSM (Eq. 5) over α ∈ {0, 0.1, …, 1}; one job
//     fits one configuration (variant, K, λ1, λ2) on one collection and
//     stores every α's per-query values; the render step (the claims)
//     assembles the jobs of one (collection, variant) into the candidates
//     of the paper's best-setting protocol and of the fair two-fold
//     protocol (experiments/retrieval.BestSetting, CrossFit) with paired
//     t-tests against the term model alone.
//   - rlsi2011/table8-figures6-8: RLSI (Uℓ1-Vℓ2) against LSI, PLSI and LDA
//     under the same protocol, with their AvgComp (Table 8).
//
// Every claim's threshold is a constant of this package, fixed before any
// run; verdicts are computed from the stored numbers only.
package rlsi2011
