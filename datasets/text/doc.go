// Package text turns a datasets.Collection into the weighted term-document
// matrix a model fits (an engine.Corpus), and turns queries and new
// documents into rows weighted the same way, for fold-in.
//
// # Pipeline
//
// The zero Options are the default pipeline, shared with the command line
// (topicmf fit): SMART stop list, tokens of 2–25 runes without digits,
// terms in at least 2 and at most 95% of the documents, tf-idf, unit-length
// columns. Bare turns every filter off; the paper experiments start from it
// and state what they add, so the default can change without changing them.
//
// Each document's Text goes through these steps, in this order:
//
//  0. Optionally (Options.Strip) the headers, footers and quoted lines of a
//     news post are removed (StripPost, scikit-learn's rules).
//  1. Tokenize (see Tokenize): Unicode simple lower-casing, then a token is a
//     maximal run of letters and decimal digits (unicode.IsLetter,
//     unicode.IsDigit). Every other rune separates tokens, apostrophes
//     included, so "don't" gives "don" and "t", "O'Neil's" gives "o", "neil"
//     and "s"; tokens never contain apostrophes or hyphens.
//  2. Unless Options.KeepNumbers, tokens made only of digits ("1984") are
//     dropped; unless Options.KeepMixed, so are tokens mixing digits and
//     letters ("3d", "b52", and the "z6ei4" pieces of uuencoded files).
//  3. Tokens shorter than Options.MinTokenLen runes (default 2) or longer
//     than Options.MaxTokenLen (default 25) are dropped.
//  4. Stop words are removed (Options.StopList, default SMART, embedded in
//     the binary; Options.ExtraStopWords). A
//     stop-list entry is passed through the same tokenizer, and every piece
//     it yields is a stop word: "don't" adds "don" and "t", "vis-a-vis" adds
//     "vis" and "a". Without this a list's contractions would never match the
//     tokenizer's output and their fragments ("don", "isn", "doesn") would
//     become terms; NLTK's English list contains those fragments for the
//     same reason. The price is that a fragment which is also a word ("won"
//     from "won't") is removed too.
//  5. Optionally (Options.Stem) the token is stemmed with the Snowball
//     English (Porter2) stemmer, github.com/kljensen/snowball english.Stem
//     with stemStopWords=false.
//
// Documents left without a token after these steps are dropped and their
// ids reported (Report.EmptyDocs); they are never silently lost.
//
// # Vocabulary
//
// The document frequency df(t) of a term is the number of documents that
// contain it. Terms with df < Options.MinDF are removed, then terms with
// df > Options.MaxDF·N₀ (N₀ the number of non-empty documents), then, when
// Options.MaxVocab > 0, only the MaxVocab terms of highest df are kept (ties
// broken by term, ascending). The kept terms are sorted by term (byte
// order), which fixes the row order of D. Documents that lose all their
// terms in this pruning are dropped and reported (Report.PrunedDocs).
//
// # Weighting
//
// With tf(t,d) the number of occurrences of term t in document d, N the
// number of documents of the corpus and df(t) its document frequency there:
//
//	tf         w = tf
//	boolean    w = 1 if tf > 0
//	tfidf      w = tf · ln(N / df)                 (the default)
//	logtf-idf  w = (1 + ln tf) · ln(N / df)        (tf > 0)
//
// tfidf is the classic weight tf·log(N/df) of Salton and Buckley (1988)
// and of Manning, Raghavan and Schütze, Introduction to IR, §6.2.2, with the
// natural log and no smoothing. The RLSI paper (Wang et al., SIGIR 2011,
// §4.1, and §5 where queries are "the tf-idf representation") and the GMF
// paper (SIGIR 2012, §3.1) use "tf-idf" without giving a formula; we read
// it as this classic form, the one without extra smoothing constants. A term
// present in every document has idf 0: its row of D is empty (it stays in
// the vocabulary and is listed in Report.ZeroIDFTerms).
//
// With Options.Norm "l2" (the default) every column of D is then divided by
// its Euclidean length, as scikit-learn's TfidfVectorizer does, so that a
// few very long documents do not own whole topics; queries and new
// documents are normalized the same way.
//
// Queries and new documents are weighted by the Vectorizer fitted on the
// training documents: the same tokenizer, stop words and stemmer, only
// vocabulary terms, and the training N and df, so a query's tf-idf is
// tf(t,q)·ln(N/df(t)) with the collection's idf.
package text
