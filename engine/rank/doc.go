// Package rank implements the term-matching relevance models that topic
// scores are combined with in the RLSI paper (Wang, Xu, Li, Craswell,
// "Regularized Latent Semantic Indexing", SIGIR 2011, Section 5: "s_term(q, d)
// can be calculated with any of the conventional relevance models such as
// VSM and BM25"): Okapi BM25, the tf-idf vector space model with cosine, and
// a query-likelihood language model with Dirichlet smoothing; and the
// translation models that GNMFNC (Zhou et al., COLING 2014, Table 2) is
// compared with for question retrieval.
//
// Scorers by name (Scorer.Name):
//
//	"bm25"  BM25 (bm25.go)
//	"vsm"   tf-idf cosine (vsm.go)
//	"lm"    query likelihood, Dirichlet smoothing (lm.go)
//	"tm"    the translation model of Jeon, Croft & Lee 2005 (translation.go, NewTM)
//	"trlm"  the translation-based language model of Xue, Jeon & Croft 2008 (NewTRLM)
//
// and the word-translation table they use: IBM Model 1 trained by EM on
// (question, answer or comment) pairs (ibm1.go, TrainIBM1), optionally
// pooled over the two directions (Pool).
//
// # Index
//
// An Index is built from the raw term counts of the documents: an M×N
// term-document matrix whose row t lists, in increasing document order, the
// documents containing term t and the number of times it occurs there (the
// D of an engine.Corpus built with the "tf" weighting is exactly this; it is
// an inverted file in CSR form, used as is). From it the index keeps, with
// tf(t,d) the count of term t in document d:
//
//	N        number of documents (columns)
//	|d|      = Σ_t tf(t,d), the length of d over the indexed vocabulary
//	avgdl    = (1/N) Σ_d |d|
//	df(t)    number of documents with tf(t,d) > 0
//	cf(t)    = Σ_d tf(t,d), the collection frequency
//	|C|      = Σ_t cf(t)
//
// Counts must be finite, non-negative integers: NewIndex rejects weighted
// matrices (tf-idf, say), which would silently give wrong BM25 and LM scores.
//
// A query is given by its distinct term ids and their counts qtf(t) in the
// query (a row of a matrix of query counts over the same vocabulary). Every
// scorer accumulates term at a time: for each query term, in increasing id
// order, it walks the term's postings and adds the term's contribution to the
// documents' accumulators, so the cost is the total length of the query's
// postings plus O(N) to clear (and, for the LM, initialize) the accumulators.
// Scores are computed sequentially per query in a fixed order, so they are
// bit-identical from run to run; ScoreAll spreads queries over the shared
// pool in fixed blocks, each query writing its own row.
//
// # BM25 (Robertson et al., Okapi at TREC-3, 1994; Robertson and Zaragoza,
// "The Probabilistic Relevance Framework: BM25 and Beyond", 2009, Eq. 3.15)
//
//	BM25(q,d) = Σ_{t∈q} qtf(t) · idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
//
// with k1 = 1.2 and b = 0.75 by default (DefaultBM25Params). The query-term
// factor is qtf(t) itself: Robertson's k3 saturation (k3+1)·qtf/(k3+qtf) in
// the limit k3 → ∞, which is the usual choice for short queries. Two idf forms
// are offered (BM25Params.IDF):
//
//	IDFPlusOne (default): idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5))
//	IDFRSJ (classic):     idf(t) = ln((N − df + 0.5)/(df + 0.5))
//
// The classic Robertson/Spärck Jones weight (with no relevance information)
// is negative for terms in more than half of the documents, so a document
// can then lose score for containing a query term; the "+1" form (as in
// Lucene since 8.0) is always positive and orders terms the same way. With
// avgdl = 0 (every document empty) the length factor is taken as 1.
//
// # VSM (Salton and Buckley, "Term-weighting approaches in automatic text
// retrieval", IP&M 24(5), 1988; SMART "ntc.ntc")
//
//	w(t,x)   = tf(t,x) · idf(t),   idf(t) = ln(N / df(t))       (x a document or the query)
//	VSM(q,d) = Σ_t w(t,q)·w(t,d) / (‖w(·,q)‖₂ · ‖w(·,d)‖₂)
//
// the cosine of the tf-idf vectors, with raw tf, the natural log, no
// smoothing — the same tf-idf as the text pipeline's default weighting
// (datasets/text), so a document's VSM vector is exactly its column of the
// model corpus. VSMParams.Sublinear replaces tf by 1 + ln tf (tf > 0; SMART
// "ltc"). A term in every document has idf 0 and contributes nothing; a
// document (or query) whose vector is zero scores 0. The query norm does not
// change the ranking, but keeps the score in [0, 1], on the scale of the
// topic cosine it is combined with.
//
// # Query likelihood with Dirichlet smoothing (Zhai and Lafferty, "A study
// of smoothing methods for language models applied to ad hoc information
// retrieval", SIGIR 2001, Table 1)
//
//	p(t|C)   = cf(t) / |C|
//	p_μ(t|d) = (tf(t,d) + μ·p(t|C)) / (|d| + μ)
//	LM(q,d)  = Σ_{t∈q} qtf(t) · ln p_μ(t|d)
//
// with μ = 2000 by default. The score is the full log-likelihood (not a
// rank-equivalent form), computed sparsely through the identity
//
//	ln p_μ(t|d) = ln p(t|C) + ln(μ/(|d|+μ)) + ln(1 + tf(t,d)/(μ·p(t|C)))
//
// whose last term is zero off the postings: every document starts at
// Σ_t qtf(t)·ln p(t|C) + (Σ_t qtf(t))·ln(μ/(|d|+μ)) and the postings add the
// rest. Query terms with cf(t) = 0 (no occurrence in the indexed documents)
// have an undefined likelihood and are skipped. Every document gets a score
// (a negative number), including documents sharing no term with the query.
//
// # Translation models (translation.go, ibm1.go)
//
// With T(w|t) the probability that query word w translates document word t
// (a Table: an IBM1 or a PooledTable),
//
//	P(w|D) = ((1−β)·tf(w,D) + β·Σ_t T(w|t)·tf(t,D) + μ·p(w|C)) / (|D| + μ)
//	TM/TRLM(q,D) = Σ_{w∈q} qtf(w) · ln P(w|D)
//
// β = 1 is the translation model (Jeon et al. 2005 in the smoothed form of
// Xue et al. 2008), 0 < β < 1 the TRLM (Xue et al. 2008), β = 0 the
// Dirichlet LM above. IBM Model 1 (Brown et al. 1993) learns t(f|e) from
// sentence pairs by EM from a uniform start; its log-likelihood never
// decreases (IBM1.LogLikelihood). See Translation and IBM1 for the details.
package rank
