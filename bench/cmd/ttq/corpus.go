package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/internal/outfile"
)

// collectionText is the text pipeline of split -data: the command line's
// default pipeline (SMART stop list, tokens of 2 to 25 letters without
// digits, terms in at least 2 and at most 95 % of the documents) with raw
// counts, the weighting `topicmf fit` gives lda and onlinelda. Every family
// gets the same matrix, as on the synthetic benchmark matrix, so that the
// LDA scorer sees counts and NMF and LSI the same D as the peers.
func collectionText() text.Options {
	return text.Options{Weighting: text.WeightTF, Norm: text.NormNone}
}

// sampleSeed draws split -data's documents when -docs asks for fewer than
// the training split holds.
const sampleSeed = 1

// collectionMatrix builds the training split of the registered collection
// name (data directory from TOPICMF_DATA) through collectionText and
// returns its term-document counts; the vocabulary, one term a line in the
// order of D's rows, is written to dir/vocab.txt. With docs > 0 the corpus
// is a draw of docs documents without replacement (seed sampleSeed), kept in
// the collection's order, before the pipeline: the posts are ordered by
// newsgroup, so the first docs would be a few newsgroups only.
func collectionMatrix(name, dir string, docs int) (*sparse.CSR, error) {
	c, err := experiments.BuildCorpus(experiments.CorpusSpec{Collection: name, Split: "train", Text: collectionText(),
		SubsampleN: docs, SubsampleSeed: sampleSeed, InOrder: true})
	if err != nil {
		return nil, err
	}
	vocab := strings.Join(c.Vocab, "\n") + "\n"
	if err := outfile.Write(filepath.Join(dir, "vocab.txt"), nil, func(w io.Writer) error {
		_, err := io.WriteString(w, vocab)
		return err
	}); err != nil {
		return nil, err
	}
	if len(c.Report.EmptyDocs)+len(c.Report.PrunedDocs) > 0 {
		return nil, fmt.Errorf("data set %s: %d documents without a kept term; the split would not be every tenth document", name, len(c.Report.EmptyDocs)+len(c.Report.PrunedDocs))
	}
	return c.D, nil
}
