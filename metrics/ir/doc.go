// Package ir evaluates ranked retrieval runs against graded relevance
// judgments with the semantics of trec_eval 9.x (github.com/usnistgov/trec_eval),
// so that numbers are comparable with published TREC-style results.
//
// # Inputs
//
// A Qrels maps query id → document id → judgment level (the integer in the
// fourth column of a TREC qrels line "qid 0 docno rel"). A Run maps query id →
// the retrieved documents with their scores ("qid Q0 docno rank score tag";
// the rank column is ignored, as trec_eval ignores it). ReadQrels and ReadRun
// parse those formats; errors name file:line.
//
// # Ranking and ties
//
// The documents of a query are ranked by score descending; equal scores are
// broken by document id descending in byte (strcmp) order, exactly as
// trec_eval's comp_sim_docno (form_res_rels.c). Rank positions i start at 1.
// A document retrieved twice for one query is an error (trec_eval: "duplicate
// docs").
//
// # Gains and relevance
//
// Options.Gains maps a judgment level to its gain g(level). A level absent
// from the map has gain max(level, 0): the level itself, trec_eval's default
// for ndcg ("gain values are the relevance values in the qrels"). A document
// retrieved but not judged has gain 0 and is not relevant.
//
// Binary measures (AP, P@k) call a judged document relevant when
//   - Options.RelevanceLevel > 0: level ≥ RelevanceLevel (trec_eval -l);
//   - Options.RelevanceLevel == 0 (default): g(level) > 0.
//
// With the default Gains the two rules coincide with trec_eval's default
// -l 1. R is the number of relevant documents of the query in the qrels,
// retrieved or not.
//
// Negative levels: trec_eval treats a negative level as "in the pool but
// unjudged" and leaves it out of the ideal ranking. Here a negative level is
// an ordinary level whose default gain is 0, so the result is the same unless
// Gains gives it a positive gain (then it counts like any positive level).
//
// # Measures (per query)
//
// With rel(i) = 1 if the document at rank i is relevant, else 0, and
// n the number of retrieved documents:
//
//	AP      = (1/R) Σ_{i=1..n, rel(i)=1} (Σ_{j≤i} rel(j)) / i      (m_map.c; 0 when R = 0)
//	P@k     = (Σ_{i≤min(k,n)} rel(i)) / k                          (m_P.c; missing ranks count as non-relevant)
//	DCG@k   = Σ_{i≤min(k,n)} g(i) / log2(i+1)                      (m_ndcg_cut.c, linear gain)
//	NDCG@k  = DCG@k / IDCG@k, 0 when IDCG@k = 0                    (ndcg_cut_k)
//	NDCG    = DCG@n / IDCG@∞                                       (ndcg, full ranking)
//
// The ideal ranking behind IDCG is every judged document of the query with
// positive gain, sorted by gain descending, whether the run retrieved it or
// not (IDCG@k keeps its first k; if it has fewer than k entries it is not
// padded). DCG sums the gains of retrieved documents in rank order, negative
// gains included, as trec_eval's ndcg does; with the default Gains no gain is
// negative, so NDCG@k is exactly trec_eval's ndcg_cut.k and NDCG exactly its
// ndcg. (trec_eval's ndcg_cut always uses the raw level as gain; with custom
// Gains our NDCG@k equals trec_eval's ndcg_cut run on a qrels file whose
// levels have been replaced by their gains. trec_eval sorts the ideal gains
// with an integer-truncating comparator; we sort exactly.) Cutoffs default to
// trec_eval's 5, 10, 15, 20, 30, 100, 200, 500, 1000.
//
// # Which queries are averaged
//
// The mean of a measure is the arithmetic mean of its per-query values over
// the evaluated queries, summed in query-id order. The evaluated queries are:
//
//   - default (trec_eval without -c): every query present in both the run and
//     the qrels. A query that is in the qrels but has no relevant document
//     (only level-0 judgments, say) is evaluated and scores 0 on every
//     measure, as in trec_eval; queries of the run absent from the qrels are
//     ignored, as are qrels queries the run did not answer (both are listed
//     in Report.Warnings);
//   - Options.Complete (trec_eval -c): every query of the qrels; a query the
//     run did not answer scores 0 on every measure;
//   - Options.SkipNoRelevant (not a trec_eval option, but the convention of
//     many papers): additionally drop queries with R = 0.
//
// trec_eval refuses to average over zero queries ("No queries with both
// results and relevance info"); Evaluate returns an error in that case.
//
// Report.WriteTREC prints trec_eval's lines ("%-22s\t%s\t%6.4f": measure,
// query id or "all", value); Paired aligns two reports query by query for
// stats.PairedTTest.
//
// Reference: C. Buckley and E. Voorhees, "Retrieval System Evaluation", in
// TREC: Experiment and Evaluation in Information Retrieval, MIT Press, 2005;
// K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR
// techniques", ACM TOIS 20(4), 2002 (NDCG with the log2(i+1) discount that
// trec_eval 9 uses for every rank).
package ir
