package experiments

import (
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/experiments/retrieval"
)

// PrepareRetrieval is the retrieval task (experiments/retrieval) of a
// registered collection: its model corpus is BuildCorpus of
// CorpusSpec{Collection: dataset, Text: opts} and its term models' index
// the raw counts of the same spec under retrieval.CountOptions, so that a
// FitTask declaring that spec is fitted on the very corpus the task ranks.
// The Prepared is built anew; its corpora are shared and must not be
// modified.
func PrepareRetrieval(dataset string, opts text.Options) (*retrieval.Prepared, error) {
	spec := CorpusSpec{Collection: dataset, Text: opts}
	model, err := BuildCorpus(spec)
	if err != nil {
		return nil, err
	}
	spec.Text = retrieval.CountOptions(opts)
	counts, err := BuildCorpus(spec)
	if err != nil {
		return nil, err
	}
	col, err := corpora.Collection(dataset)
	if err != nil {
		return nil, err
	}
	p := &retrieval.Prepared{Corpus: model.Corpus, Vectorizer: model.Vectorizer, Report: model.Report}
	return retrieval.Assemble(col, p, counts.Corpus, counts.Vectorizer)
}
