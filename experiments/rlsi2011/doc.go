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
//   - rlsi2011/table8-topics: AvgComp and top-5 terms of RLSI, LSI, PLSI
//     and LDA at K = 20 on Reuters-21578 (the topic side of Table 8).
//   - rlsi2011/figure9: a cross-validated linear LambdaRank over BM25, VSM
//     and LM without and with the RLSI topic feature, with the full and a
//     reduced topic-model vocabulary (§6.4; the web set's 16 features are
//     not available).
//   - rlsi2011/scalability: seconds per RLSI iteration against the number
//     of documents on synthetic corpora (Table 4's cost model).
//
// # Job granularity
//
// One job fits one model configuration on one collection. Retrieval jobs
// store the per-query values of every α and term model (per-query.csv,
// metric "<term>@<α>/<measure>"); the claims rebuild each method's
// candidates from the stored runs and run the protocols
// (experiments/retrieval), so a cached job is never refitted and the
// protocols always see every configuration.
//
// # Scaling of D — our reading
//
// The paper says D holds tf-idf scores and searches λ1, λ2 ∈ [0.01, 1]; it
// does not say whether documents are normalized. With raw tf·ln(N/df)
// weights the loss dwarfs any λ in that range and ℓ1 on U gives dense
// topics; with unit-length documents (task parameter docnorm = l2) the
// same λ's regularize. The topic and retrieval grids of the variants run
// both; RLSI's comparison with the other families uses raw tf-idf.
//
// Every claim's threshold is a constant of this package, fixed before any
// run; verdicts are computed from the stored numbers only.
package rlsi2011
