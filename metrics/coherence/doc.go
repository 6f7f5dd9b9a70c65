// Package coherence scores topics by how often their top words occur
// together in a reference corpus: UMass, UCI, NPMI and C_V, as defined by
// Röder, Both and Hinneburg, "Exploring the Space of Topic Coherence
// Measures" (WSDM 2015), and as gensim's CoherenceModel computes them.
//
// # Reference corpus and contexts
//
// The reference corpus is a list of documents, each its tokens in text
// order (Reference). Probabilities are fractions of contexts: P(w) is the
// fraction of contexts holding w, P(w, w') of those holding both.
// UMass's contexts are whole documents; UCI's and NPMI's are sliding
// windows of 10 tokens, C_V's of 110 (Options.Window, Options.CVWindow).
// A document of L ≥ W tokens has L − W + 1 windows (every position of a
// window of W tokens); a shorter one is one window; an empty one has none
// (gensim 4.2 fails on an empty document).
//
// # Measures
//
// For a topic's top words w_1, …, w_N (best first), with ε the smoothing
// constant (gensim: 1e-12):
//
//	UMass = mean over j < i of log((P(w_i, w_j) + ε) / P(w_j))       (documents)
//	UCI   = mean over i ≠ j of log((P(w_i, w_j) + ε) / (P(w_i) P(w_j)))
//	NPMI  = mean over i ≠ j of PMI(w_i, w_j) / −log(P(w_i, w_j) + ε)
//	C_V   = mean over i of cos(v(w_i), v(W)),
//	        v(w_i)_j = NPMI(w_i, w_j)^γ,  v(W)_j = Σ_i NPMI(w_i, w_j)^γ
//
// UMass is Mimno, Wallach, Talley, Leenders and McCallum, "Optimizing
// Semantic Coherence in Topic Models" (EMNLP 2011), with Röder et al.'s
// "one-preceding" segmentation and arithmetic mean; UCI is Newman, Lau,
// Grieser and Baldwin, "Automatic Evaluation of Topic Coherence" (NAACL
// 2010); NPMI is Bouma's normalization (GSCL 2009) as used by Aletras and
// Stevenson (IWCS 2013); C_V is Röder et al.'s best measure (§4, Table 2:
// one-set segmentation S_set^one, boolean sliding window of 110, indirect
// cosine confirmation of NPMI context vectors with γ = 1, mean). NPMI(w,
// w) uses P(w, w) = P(w).
//
// # gensim and the papers
//
// By default every measure is gensim's (4.2, CoherenceModel with
// processes=1), and agrees with it to 1e-9 per topic on the same token
// streams (the tests run gensim). Options.Paper selects the papers'
// definitions where gensim departs from them:
//
//   - Window contents. gensim's WordOccurrenceAccumulator, moving the
//     window one token on, unmarks the token that left even when the same
//     word still occurs later inside the window; the window "b a c" after
//     "a b a" then does not count a. Paper: a window holds exactly its
//     distinct words (Röder et al. §3.2, boolean sliding window).
//   - UMass's ε. gensim adds ε = 1e-12 to the joint probability,
//     log((D(w_i,w_j)/N + ε) / (D(w_j)/N)); Mimno et al. add 1 to the
//     count, log((D(w_i,w_j) + 1) / D(w_j)). Paper uses the latter (ε = 1
//     unless Options.Epsilon is set). Mimno et al. sum over pairs; both
//     definitions here average, as Röder et al. and gensim do.
//   - NPMI of words that never share a window. gensim gives
//     log(ε / (P(w_i)P(w_j))) / −log ε, close to but above −1; Paper gives
//     Bouma's −1 (and +1 for words in every window), and adds no ε.
//   - UCI and C_V's γ = 1 are the same in both.
//
// gensim's parallel accumulator (processes > 1) counts a document shorter
// than the window as len − window + 1 windows (zero or negative) instead of
// one; the serial accumulator, followed here, counts one.
//
// # Cost
//
// Only the words of the topics being scored are counted, in one pass over
// the reference corpus for all measures and windows. A window's word set
// changes by at most one word in and one out per step, so the counts are
// updated when a word leaves the set (the number of windows it stayed,
// alone and with each word present) instead of visiting every pair of
// every window. Documents are split into fixed blocks run on the shared
// worker pool (engine/parallel); counts are integers, so the result is
// bit-identical for any number of workers.
package coherence
