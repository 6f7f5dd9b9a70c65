package experiments

import (
	"slices"

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

// UnitLengthTask returns a copy of p's task whose document rows
// (DocWeights: the rows of the model corpus's Dᵀ) and query rows
// (QueryWeights) are scaled to unit Euclidean length (UnitRows), and the
// preparation's warnings (the task's, then the pipeline's). The topic
// models of gmf2012/tables12-13 and gnmfnc2014 are fitted on
// DocWeights.T(): the paper's λ's are stated for unit-scale data.
func UnitLengthTask(p *retrieval.Prepared) (*retrieval.Task, []string) {
	t := *p.Task
	t.DocWeights = p.Corpus.DT.Clone()
	UnitRows(t.DocWeights)
	t.QueryWeights = p.Task.QueryWeights.Clone()
	UnitRows(t.QueryWeights)
	return &t, append(slices.Clone(p.Task.Warnings), p.Report.Warnings...)
}
