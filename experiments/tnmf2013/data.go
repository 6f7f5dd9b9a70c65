package tnmf2013

import (
	"fmt"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments"
)

// Data set names of the substitutes (see the package documentation).
const (
	Tweet          = "sttm-tweet"
	SearchSnippets = "sttm-searchsnippets"
	StackOverflow  = "sttm-stackoverflow"
	Biomedical     = "sttm-biomedical"
)

// allSets are the four substitutes, in the order of Table 1.
var allSets = []string{Tweet, SearchSnippets, StackOverflow, Biomedical}

// paperName is the paper's data set each substitute stands for.
var paperName = map[string]string{
	Tweet:          "Tweet",
	SearchSnippets: "Title",
	StackOverflow:  "Question",
	Biomedical:     "(none)",
}

// PaperMinDF is the document-frequency threshold of the paper's
// preprocessing (§5.1: words with df < 10 are removed).
const PaperMinDF = 10

// Figure2MinDF is the threshold of Figure 2 ("rare terms with document
// frequency < 4 are removed").
const Figure2MinDF = 4

// corpusOptions are the pipeline options of this package: default
// tokenizer, no stop list, no stemming, the given MinDF and weighting.
func corpusOptions(minDF int, weighting string) text.Options {
	return text.Bare(text.Options{MinDF: minDF, Weighting: weighting})
}

// corpusSpec is the corpus of a job fitting a model: the job's data set with
// the paper's MinDF, tf-idf (counts for LDA).
func corpusSpec(j *experiments.Job) experiments.CorpusSpec {
	weighting := "tfidf"
	if j.Method.Name == ldaName {
		weighting = "tf"
	}
	return experiments.CorpusSpec{Collection: j.Dataset, Text: corpusOptions(PaperMinDF, weighting)}
}

// labelled returns the class index of every document of c, or an error
// naming the data set when a document has no class.
func labelled(c *engine.Corpus) ([]int, error) {
	if len(c.Labels) != c.Docs() || c.Classes() == 0 {
		return nil, fmt.Errorf("data set %s: documents carry no class labels", c.Name)
	}
	return c.Labels, nil
}
