package gmf2012

import (
	"fmt"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments"
)

// thePaper is the paper, cited in full in the report; paperCite is its
// short citation.
var thePaper = experiments.PaperGMF2012

const paperCite = "Wang, Cao, Xu, Li, SIGIR 2012 (GMF)"

// Data set names of the synthetic stand-ins.
const (
	wikiData = "synthetic/wikipedia-like"
	web1Data = "synthetic/web1-like"
)

// sizedPreset is the synthetic preset resized to m terms × n documents
// (quick: qm × qn), named after its size.
func sizedPreset(preset string, m, n, qm, qn int, quick bool) synthetic.Config {
	c, err := synthetic.Preset(preset)
	if err != nil {
		panic(err) // a preset of the synthetic package: cannot fail
	}
	c.M, c.N = m, n
	if quick {
		c.M, c.N = qm, qn
	}
	c.Name = fmt.Sprintf("%s-%dx%d", c.Name, c.M, c.N)
	return c
}

// wikiConfig is the Wikipedia-like corpus of the timing experiments
// (tables6-7): the "wikipedia-like" preset (25 classes shaped after GMF
// Table 5's Wikipedia row, Ks = 10 and Kc = 4 planted topics, log-normal
// lengths of mean 100) resized for a 2-core machine. Full: 2,000 terms ×
// 4,000 documents, so that K = 1100 < min(M, N) and RLSI at K = 1100 takes
// about 40 s per iteration; quick: 1,000 × 1,000.
func wikiConfig(quick bool) synthetic.Config {
	return sizedPreset(synthetic.ClassWikipedia, 2000, 4000, 1000, 1000, quick)
}

// web1Config is the Web-I-like corpus of tables4-5 (the timings of
// tables8-9 use a smaller one, web1TimingConfig): the "web1-like" preset
// (204 classes shaped after Table 5's Web-I row, 10,000 terms × 20,000
// documents); quick: 2,000 × 2,040 (ten documents per class on average).
func web1Config(quick bool) synthetic.Config {
	c, err := synthetic.Preset(synthetic.ClassWeb1)
	if err != nil {
		panic(err)
	}
	if quick {
		c.M, c.N = 2000, 2040
		c.Name = fmt.Sprintf("%s-%dx%d", c.Name, c.M, c.N)
	}
	return c
}

// corpusSpec is the corpus of a data set of this package: a synthetic
// stand-in by its configuration, or a labelled collection as modelSpec
// builds it with the given vocabulary size (0: every term).
func corpusSpec(name string, quick bool, vocab int) experiments.CorpusSpec {
	var c synthetic.Config
	switch name {
	case wikiData:
		c = wikiConfig(quick)
	case web1Data:
		c = web1Config(quick)
	case web1TimingData:
		c = web1TimingConfig(quick)
	default:
		return modelSpec(name, vocab)
	}
	return experiments.CorpusSpec{Synthetic: &c, Name: name}
}

// modelSpec is the model corpus of a labelled collection: its single-label
// training documents, tf-idf with the SMART stop list (vocab > 0 keeps the
// vocab terms of highest document frequency first), the terms of total
// frequency below MinTotalFreq removed (§7.1), and every document scaled
// to unit Euclidean length. The paper does not say how D is scaled; its
// λ1 = 0.01 only makes topics sparse when the entries of D are small, as
// they are for unit-length documents (raw tf-idf weights of 20 Newsgroups
// give AvgComp = 1 at λ1 = 0.01), so we read D as unit-length tf-idf, the
// reading experiments/rlsi2011 also runs.
func modelSpec(name string, vocab int) experiments.CorpusSpec {
	return experiments.CorpusSpec{
		Collection: name, Split: "train", SingleLabel: true,
		Text:         text.Bare(text.Options{StopList: "smart", MaxVocab: vocab, Weighting: text.WeightTFIDF}),
		MinTotalFreq: MinTotalFreq, UnitDocs: true,
	}
}

// labelledTrain keeps the train documents with exactly one class: all of
// 20 Newsgroups' train split, and the ModApte train stories of Reuters with
// exactly one TOPICS category (their Class).
func labelledTrain(col *datasets.Collection) (*datasets.Collection, error) {
	return experiments.FilterDocs(col, "train", true)
}
