package quality

import (
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/metrics/coherence"
)

// Metrics are the definitions of the metrics AddMetrics records, for an
// experiment's Metrics list.
var Metrics = []experiments.MetricDef{
	{Name: "npmi", Definition: "mean NPMI coherence of every topic's top 10 words against the corpus's own documents in text order (gensim's c_npmi: sliding window of 10 vocabulary tokens, ε = 1e-12; metrics/coherence, docs/quality.md); higher is more coherent, range [−1, 1]"},
	{Name: "cv", Definition: "mean C_V coherence of the same words (Röder et al., WSDM 2015; gensim's c_v: window 110, NPMI context vectors, cosine); range about [0, 1]"},
	{Name: "td25", Definition: "topic diversity TD@25: distinct words among the top 25 of every topic over the words listed (Dieng, Ruiz and Blei, TACL 2020); 1: no word repeats across topics"},
}

// corpusRefs holds each experiment corpus's token streams, built once per
// process (corpora are shared by the jobs that use them).
var corpusRefs sync.Map // *experiments.Corpus → *corpusRef

type corpusRef struct {
	once sync.Once
	ref  coherence.Reference
	err  error
}

// CorpusReference returns the token streams of an experiment corpus's
// documents, in text order, over the corpus's rows: its documents are
// looked up in the collection it was built from (read by collection, once
// per corpus and process) and tokenized by its vectorizer; terms the
// corpus dropped after the pipeline (MinTotalFreq) are dropped from the
// streams too. ok is false for a corpus without a vectorizer (synthetic).
func CorpusReference(c *experiments.Corpus, collection func() (*datasets.Collection, error)) (ref coherence.Reference, ok bool, err error) {
	if c.Vectorizer == nil {
		return coherence.Reference{}, false, nil
	}
	e, _ := corpusRefs.LoadOrStore(c, &corpusRef{})
	entry := e.(*corpusRef)
	entry.once.Do(func() {
		col, err := collection()
		if err != nil {
			entry.err = err
			return
		}
		r, err := Reference(col, c.DocIDs, c.Vectorizer)
		if err != nil {
			entry.err = err
			return
		}
		if c.TermRow != nil {
			for i, doc := range r.Docs {
				kept := doc[:0]
				for _, t := range doc {
					if row := c.TermRow[t]; row >= 0 {
						kept = append(kept, row)
					}
				}
				r.Docs[i] = kept
			}
		}
		r.Vocab = c.Vocab
		entry.ref = r
	})
	return entry.ref, entry.err == nil, entry.err
}

// AddMetrics records npmi, cv and td25 (Metrics) of the topics of the
// job's fit, against the documents of the corpus the job declares
// (Experiment.Corpus); nothing for a synthetic corpus or a task that
// builds its corpus itself (it calls AddCorpusMetrics).
func AddMetrics(res *experiments.Result, j *experiments.Job, f *experiments.Fit) error {
	if j.Experiment.Corpus == nil {
		return nil
	}
	spec, err := j.Experiment.Corpus(j)
	if err != nil || spec.Synthetic != nil {
		return err
	}
	return AddCorpusMetrics(res, f.Corpus, spec.Collection, f.Model.TermTopics())
}

// AddCorpusMetrics records npmi, cv and td25 of the topics U (rows: the
// terms of c) against the documents of c, a corpus of the registered
// collection; nothing when c has no vectorizer.
func AddCorpusMetrics(res *experiments.Result, c *experiments.Corpus, collection string, U *mat.Dense) error {
	ref, ok, err := CorpusReference(c, func() (*datasets.Collection, error) { return corpora.Collection(collection) })
	if err != nil || !ok {
		return err
	}
	rep, err := Evaluate(U, ref, Options{Measures: []coherence.Measure{coherence.NPMI, coherence.CV}})
	if err != nil {
		return err
	}
	res.AddMetric("npmi", rep.Mean[coherence.NPMI])
	res.AddMetric("cv", rep.Mean[coherence.CV])
	res.AddMetric("td25", rep.TD)
	return nil
}
