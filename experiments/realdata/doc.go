// Package realdata checks the engine's model families and ranking functions
// on the real collections of $TOPICMF_DATA: properties that only real data
// shows (MED's singular values against a dense reference, monotone
// objectives at K = 20, the densities of the STTM similarity matrices
// quoted in the family docs, RLSI's relative-λ and balanced-start
// behaviour), topic quality on real topics (coherence against gensim,
// held-out perplexity, stability across seeds) and benchmarks on real
// collections. It holds tests only.
//
// It sits above both packages it joins: the readers and text pipeline of
// datasets, and the families of engine. The engine's own tests use
// synthetic corpora only (engine/synthetic, engine/internal/testcorpus),
// so the engine imports nothing of datasets, tests included; this is where
// the real-data checks went. It lives under experiments, the layer that
// already joins data sets and models, and nothing imports it.
//
// Every test skips with a message naming what is missing when
// $TOPICMF_DATA or a collection is absent:
//
//	TOPICMF_DATA=/path/to/datasets go test ./experiments/realdata
//	TOPICMF_DATA=/path/to/datasets go test ./experiments/realdata -run '^$' -bench .
package realdata
