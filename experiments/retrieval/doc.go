// Package retrieval is the topic-based retrieval task of the RLSI paper
// (Wang, Xu, Li, Craswell, "Regularized Latent Semantic Indexing", SIGIR
// 2011, Section 5 "Relevance ranking" and Sections 6.2–6.4): a topic model's
// query–document matching score is combined with a term-matching score, and
// the rankings are evaluated with metrics/ir. It produces plain data (per
// query and summary rows) for the experiment tasks; it does not depend on
// the experiment registry.
//
// # Preparing a collection
//
// Prepare runs the text pipeline (datasets/text) on a collection twice with
// the same options: once with the requested weighting (tf-idf by default:
// the corpus the topic model is fitted on, and the weighted query rows it
// folds in) and once with raw counts (the index of the term models,
// engine/rank). The two share tokens, vocabulary and documents. Queries
// without a relevant judged document are left out and listed in
// Task.Warnings. Evaluation uses the collection's gains, MAP, NDCG@1/3/5/10
// (the paper's measures, Section 6.1) and P@5/10, with trec_eval -c so every
// judged query counts. Assemble builds the same Task from the two
// corpora built elsewhere (an experiment's corpus cache).
//
// # Topic matching score (Eq. 4)
//
//	s_topic(q, d) = ⟨v_q, v_d⟩ / (‖v_q‖₂ · ‖v_d‖₂)
//
// v_q is model.FoldIn of the query's weighted row ("the tf-idf
// representation of query q", Section 5). For v_d the paper says that d is
// represented "similarly" (the same fold-in of its tf-idf vector). By
// default (DocTopicRows) v_d is the model's fitted row of DocTopics: for
// RLSI this equals the fold-in, because Algorithm 1 ends every iteration with
// UpdateV, which solves the very problem of the fold-in for the final U.
// DocFoldIn folds the documents in explicitly, for families whose fitted
// representation is not their fold-in. A zero vector gives score 0.
//
// # Linear combination (Eq. 5) — our reading
//
//	s(q, d) = α·s_topic(q, d) + (1 − α)·s_term(q, d),   α ∈ {0, 0.1, …, 1}
//
// Which documents are combined. The paper defines s for a query–document
// pair and says nothing of a first-stage cut-off; its collections were
// reduced beforehand to "only the retrieved documents" (Section 6.1), so the
// combination ranks every document of that collection. Our collections are
// small complete test collections, so by default every document is a
// candidate and is scored by Eq. 5 (CombineOptions.RerankDepth = 0).
// Re-ranking only the term model's top k is available (RerankDepth = k) for
// larger collections; it is not what the paper describes. The evaluated run
// keeps the top 1000 documents per query (trec_eval's convention;
// RunDepth).
//
// Scales. s_topic is a cosine in [−1, 1]; BM25 is unbounded and LM scores
// are negative log-likelihoods, and the paper does not say whether it
// normalizes (its α grid, [0.1, 1] in Sections 6.2–6.3, only makes sense if
// the two scores live on comparable ranges). By default (NormMinMax) both
// scores are mapped to [0, 1] per query over the candidates by min-max
// before mixing; NormNone applies Eq. 5 to the raw scores, literally. At
// α = 0 and α = 1 the raw term and topic scores are used unchanged (a
// monotone rescaling per query leaves the ranking alone), so the two ends of
// a sweep are exactly the single models' runs.
//
// # Choosing parameters
//
// The paper reports each method "under the best parameter choices" on the
// TREC sets (Section 6.1: no validation set, queries too few), i.e. chosen
// on the test queries; BestSetting reproduces that (optimistic) protocol.
// CrossFit is the fair one: the queries are split in two halves by a seeded
// permutation; the model configuration (any set of candidate fits, e.g. a
// grid of K and λ's) and α are chosen on one half by the mean of a measure
// (MAP by default) and reported on the other, and vice versa. The selection
// reads only the selection half's per-query values. The assembled per-query
// values are tested against the term model alone (it has no parameter to
// choose) by paired two-sided t-tests (metrics/stats), as the paper does
// (p < 0.05).
//
// # Learning to rank (the stand-in for Figure 9)
//
// Section 6.4 adds the topic score as a feature of LambdaRank (Burges,
// Ragno, Le, NIPS 2006) with 16 web features we do not have. Here a linear
// LambdaRank ranks with the features BM25, VSM, LM and optionally the topic
// score. Candidates are the first feature's top Depth documents per query
// (1000 by default), features are min-max normalized per query (LETOR's
// QueryLevelNorm), and s(d) = w·x(d). Training maximizes NDCG by
// full-batch gradient ascent from w = 0 on the lambda gradient: for every
// pair with gain_i > gain_j,
//
//	ρ_ij = σ·|ΔNDCG_ij| / (1 + exp(σ(s_i − s_j))),   Δw ∝ Σ ρ_ij (x_i − x_j),
//
// |ΔNDCG_ij| being the change in NDCG (over the candidates, ideal from
// every judged document) if i and j swapped ranks; the step is η times the
// mean over the training queries; the weights of the epoch with the best
// mean training NDCG are kept. Queries are split into k folds by a seeded
// permutation (k = 5); each fold is ranked by the model trained on the
// others. CompareLambdaRank reports LambdaRank without and with the topic
// feature, beside the first feature alone on the same candidates, with
// paired t-tests.
//
// # Determinism
//
// Scores, sweeps and LambdaRank are computed in fixed blocks over queries,
// each writing its own slot and reduced in query order, so results are
// bit-identical for any GOMAXPROCS; splits depend only on (number of
// queries, folds, seed).
package retrieval
