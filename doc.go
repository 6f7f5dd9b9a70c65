// Package topicmf is the front page of the topicmf module: topic models
// learned by matrix factorization (RLSI, NMF and their group, short-text
// and joint topic-document variants), the retrieval, clustering and
// classification tasks of the five papers it reproduces, and a harness
// that regenerates those papers' tables and figures. This package holds no
// code; it says where to start. The examples below run as tests.
//
// # From text to topics
//
// A collection of one's own is read by datasets.ReadUser (a folder of
// text files with sub-folders as classes, CSV/TSV, JSON Lines, or a SMART
// collection with queries and qrels); a registered public collection by
// datasets.Lookup and its Read method. text.Build turns a collection
// into an engine.Corpus (vocabulary, sparse term-document matrix D,
// class labels) through the default pipeline that the command line also
// uses: the zero text.Options means SMART stop list (embedded), words of
// 2–25 letters, min-df 2, max-df 0.95, l2-normalized tf-idf. text.Fit
// also returns the text.Vectorizer that weights new text the same way.
//
// # Fitting
//
// catalog.New builds any model family by name with string parameters, as
// "topicmf fit --model NAME --param key=value" does, with one difference:
// for a parameter not given, fit uses its own defaults where the library's
// suit the papers' setups rather than the default pipeline (RLSI's λ1 =
// 0.05 relative to the data with balanced initialization, seed 1, and raw
// counts for lda and onlinelda; "topicmf models" marks them with *).
// catalog.Families lists the families with each parameter's library
// default, range and doc. Every family implements
// engine.Method: Fit takes a context, the corpus and an engine.Recorder
// (every iteration's objective, its terms and the factors' sparsity) and
// returns an engine.Model (U, Vᵀ, FoldIn for new documents) and an
// engine.Status. A family's Options can also be set directly in its own
// package (engine/nmf, engine/rlsi, engine/grouprlsi, ...), each of which
// cites its paper, section and equations and has a runnable example on a
// planted-topic corpus. docs/design.md describes the architecture.
//
// topics.TopTerms and topics.AvgComp describe the topics; frame.Iterations
// turns a Recorder into a dataframe for notebooks.
//
// # Reproducing the papers
//
// Each table and figure of the five papers is a registered experiment
// (experiments.All, experiments.Get): data sets, methods, grids,
// metrics and the claims to judge, declared as data. An
// experiments.Runner computes each job once through the results store
// (package experiments/store) and package experiments/report renders
// REPORT.md with our numbers beside the paper's. The command line
// (cmd/topicmf: "topicmf list", "topicmf run ID --quick") is the usual way
// in.
//
// # Determinism
//
// Fits take explicit seeds, and parallel loops reduce in a fixed order,
// so the same seed gives the same bits for any number of workers.
package topicmf
