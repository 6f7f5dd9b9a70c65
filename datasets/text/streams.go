package text

import "github.com/topicmf/topicmf/engine/parallel"

// Streams returns, for each text, its vocabulary terms in text order, as
// ids into v.Vocab: the text goes through the analyzer that built the
// corpus (the same tokenizer, stop words and stemmer) and tokens outside
// the vocabulary are dropped. These are the token streams that topic
// coherence (package metrics/coherence) counts co-occurrences in; the
// multiset of a training document's stream is exactly its column of term
// counts.
//
// The corpus itself keeps only counts: the pipeline re-tokenizes the raw
// texts when the order is needed instead of storing every corpus's token
// order (and every cached corpus's) for the few commands that use it.
func (v *Vectorizer) Streams(texts []string) [][]int32 {
	out := make([][]int32, len(texts))
	parallel.Default().For(len(texts), textBlock, func(_, lo, hi int) {
		cache := make(map[string]string)
		for i := lo; i < hi; i++ {
			toks := v.analyzer.tokens(texts[i], cache)
			s := make([]int32, 0, len(toks))
			for _, t := range toks {
				if m, ok := v.index[t]; ok {
					s = append(s, m)
				}
			}
			out[i] = s
		}
	})
	return out
}
