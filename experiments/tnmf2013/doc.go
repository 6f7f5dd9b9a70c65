// Package tnmf2013 registers the experiments of Yan, Guo, Liu, Cheng and
// Wang, "Learning Topics in Short Texts by Non-negative Matrix
// Factorization on Term Correlation Matrix", Proceedings of the 2013
// SIAM International Conference on Data Mining (SDM 2013), Section 5: the data statistics (Table 1),
// vocabulary growth, correlation densities and term document frequencies
// (Figures 2–4), the top words of the topics on Tweet (Table 2), document
// clustering by the highest-weighted topic (Figures 5–6) and linear-SVM
// classification on the document-topic features (Figures 7–8).
//
// Experiments: tnmf2013/table1, tnmf2013/figure2-4, tnmf2013/table2,
// tnmf2013/figures5-8 (one set of fits scored by clustering and by
// classification). Every claim's threshold is a
// constant or a strict comparison of means fixed before any run; the
// quick variants (--quick) are smoke tests on subsamples, not results.
//
// # Data
//
// The paper's Tweet (TREC 2011 microblog subset), Title (Sogou news titles,
// 9 classes) and Question (Baidu Zhidao, 34 classes) sets are not public.
// The substitutes are the STTM preprocessed short-text sets (Qiang et al.):
// sttm-tweet (2,472 tweets, 89 query clusters) for Tweet,
// sttm-searchsnippets (12,295 web search snippets, 8 domains) for the
// Title data, sttm-stackoverflow (16,407 question titles, 20 tags) for the
// Question data, and sttm-biomedical (19,448 paper titles, 20 classes) as
// a fourth set. They are English and already lower-cased and stop-worded
// by STTM; they differ in size, language and number of classes from the
// paper's sets, so only the direction of comparisons, not the values, can
// be compared with the paper.
//
// # Preprocessing
//
// §5.1 removes words with document frequency below 10 ("we preprocessed
// the raw data by removing words with document frequency less than 10");
// Figure 2 uses the threshold 4. Corpora are built by datasets/text with
// the default tokenizer, no stop list (STTM removed stop words), no
// stemming, MinDF = 10 for the models (MinDF of Table 1's second block and
// of the clustering corpora), and tf-idf weights (the paper's "typically
// by TFIDF", §3.1 and the NMF_E discussion of §5.3) except for LDA, which
// fits raw counts (GibbsLDA++ reads counts).
//
// # Names
//
// §5.2 calls graph-regularized NMF (Cai et al., 2011) "GNMF"; the Group MF
// paper (experiments/gmf2012) uses those letters for Group NMF. Tables,
// legends and claims here say "GraphNMF" (catalog family "graphnmf").
package tnmf2013
