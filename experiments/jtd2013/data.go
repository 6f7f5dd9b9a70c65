package jtd2013

import (
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments"
)

// Data sets of the paper (§3.1, §5.1).
const (
	MovieReview = "movie-review"
	Newsgroups  = "20newsgroups"
)

// SampleSize is the number of documents of each corpus: the 2,000 reviews,
// and the 2,000 posts drawn from 20 Newsgroups (§3.1). The task parameter
// "sample" draws fewer (the quick runs' smoke tests).
const SampleSize = 2000

func paperRef(where string) experiments.PaperRef {
	return experiments.PaperRef{Reference: experiments.PaperJTD2013, Cite: "Min & Ma, ICASSP 2013", Where: where}
}

const substitutes = "None: the paper's Movie Review polarity data (2,000 reviews) and 20 Newsgroups are public and used as they are; " +
	"the 2,000 posts of 20 Newsgroups are our own seeded draw, since the paper does not give its sample."

// corpus is the job's corpus: the data set's 2,000 documents (the task
// parameter "sample" draws fewer) through pipeline(maxVocab, weighting).
// They are every review of Movie Review, and a seeded draw without
// replacement from the whole of 20 Newsgroups (train and test splits), in
// the collection's order. The draw depends on the root seed only, so every
// job of an experiment sees the same posts.
func corpus(j *experiments.Job, maxVocab int, weighting string) (experiments.CorpusSpec, error) {
	size, err := j.IntParamIn("sample", SampleSize, 2, SampleSize)
	if err != nil {
		return experiments.CorpusSpec{}, err
	}
	return experiments.CorpusSpec{
		Collection: j.Dataset, SubsampleN: size, InOrder: true,
		SubsampleSeed: engine.DeriveSeed(j.RootSeed, "jtd2013 sample", j.Dataset, strconv.Itoa(size)),
		Text:          pipeline(maxVocab, weighting),
	}, nil
}

// pipeline is "the standard pre-process" (package doc): SMART stop list,
// no stemming, the given vocabulary cap (0: every term of df ≥ 2) and
// weighting; tf-idf documents scaled to unit length, counts as they are.
func pipeline(maxVocab int, weighting string) text.Options {
	o := text.Options{StopList: "smart", Weighting: weighting, MaxVocab: maxVocab}
	if maxVocab == 0 {
		o.MinDF = 2
	}
	if weighting == text.WeightTFIDF {
		o.Norm = text.NormL2
	}
	return text.Bare(o)
}

// newResult starts a job's result with a note when the pipeline dropped
// documents of c.
func newResult(j *experiments.Job, c *experiments.Corpus) *experiments.Result {
	res := &experiments.Result{}
	if dropped := len(c.Report.PrunedDocs) + len(c.Report.EmptyDocs); dropped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: %d documents without a kept term were dropped", j.Dataset, dropped))
	}
	return res
}
