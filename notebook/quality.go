package notebook

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/metrics/coherence"
)

// Sweep metrics of topic quality (docs/quality.md), recorded when the
// corpus has its collection's texts: mean NPMI and C_V of the top 10 words
// against the training documents, and TD@25.
const (
	MetricNPMI = "npmi" // mean NPMI coherence (gensim's c_npmi, window 10)
	MetricCV   = "cv"   // mean C_V coherence (gensim's c_v, window 110)
	MetricTD25 = "td25" // topic diversity, top 25 words (Dieng et al. 2020)
)

// reference returns the token streams of c's training documents, in text
// order, through c's own pipeline (the reference corpus of coherence).
func reference(c *Corpus) (coherence.Reference, error) {
	ref, ok, err := quality.CorpusReference(c.Corpus, func() (*datasets.Collection, error) {
		if c.Collection == nil {
			return nil, errors.New("the corpus has no collection")
		}
		return c.Collection, nil
	})
	if err == nil && !ok {
		err = errors.New("coherence needs the texts of the corpus's documents (a collection read through the text pipeline)")
	}
	return ref, err
}

// Quality is one row per topic of the fit: every coherence measure (NPMI,
// C_V, UMass, UCI; gensim's definitions, top 10 words) against the
// training documents, and the words scored. It shows (DisplayMarkdown)
// the means, TD@25 and inverted RBO.
func Quality(f *FitResult) (dataframe.DataFrame, error) {
	ref, err := reference(f.Data)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	rep, err := quality.Evaluate(f.Model.TermTopics(), ref, quality.Options{Measures: coherence.All})
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	showMarkdown(fmt.Sprintf("**Topic quality** (mean over %d topics): %s", len(rep.Topics), rep.Summary()))
	cols := []series.Series{series.New(seq(len(rep.Topics)), series.Int, "topic")}
	for _, m := range rep.Measures {
		vals := make([]float64, len(rep.Topics))
		for k, t := range rep.Topics {
			vals[k] = t.Scores[m]
		}
		cols = append(cols, series.New(vals, series.Float, quality.Label(m)))
	}
	words := make([]string, len(rep.Topics))
	for k, t := range rep.Topics {
		words[k] = strings.Join(t.Words, " ")
	}
	cols = append(cols, series.New(words, series.String, "words"))
	return dataframe.New(cols...), nil
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// scoreQuality adds the quality metrics of a sweep job to res, when the
// corpus has its texts (ref non-nil).
func scoreQuality(res *experiments.Result, f *experiments.Fit, ref *coherence.Reference) error {
	if ref == nil {
		return nil
	}
	rep, err := quality.Evaluate(f.Model.TermTopics(), *ref, quality.Options{Measures: []coherence.Measure{coherence.NPMI, coherence.CV}})
	if err != nil {
		return err
	}
	res.AddMetric(MetricNPMI, rep.Mean[coherence.NPMI])
	res.AddMetric(MetricCV, rep.Mean[coherence.CV])
	res.AddMetric(MetricTD25, rep.TD)
	return nil
}

// sweepReference is the reference corpus of a sweep's quality metrics, nil
// when the corpus has no texts.
func sweepReference(c *Corpus) (*coherence.Reference, error) {
	if c.Collection == nil || c.Vectorizer == nil {
		return nil, nil
	}
	ref, err := reference(c)
	if err != nil {
		return nil, err
	}
	return &ref, nil
}
