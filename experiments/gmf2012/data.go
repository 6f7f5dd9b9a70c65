package gmf2012

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/memo"
)

// Paper identification shared by the experiments.
const (
	PaperFile = "000_5c39da06696519bc.txt"
	paperCite = "Wang, Cao, Xu, Li, SIGIR 2012 (GMF)"
)

// Data set names of the synthetic stand-ins.
const (
	wikiData = "synthetic/wikipedia-like"
	web1Data = "synthetic/web1-like"
)

// wikiConfig is the Wikipedia-like corpus of the timing experiments
// (tables6-7): the "wikipedia-like" preset (25 classes shaped after GMF
// Table 5's Wikipedia row, Ks = 10 and Kc = 4 planted topics, log-normal
// lengths of mean 100) resized for a 2-core machine. Full: 2,000 terms ×
// 4,000 documents, so that K = 1100 < min(M, N) and RLSI at K = 1100 takes
// about 40 s per iteration; quick: 1,000 × 1,000.
func wikiConfig(quick bool) synthetic.Config {
	c, err := synthetic.Preset(synthetic.ClassWikipedia)
	if err != nil {
		panic(err) // a preset of the synthetic package: cannot fail
	}
	c.M, c.N = 2000, 4000
	if quick {
		c.M, c.N = 1000, 1000
	}
	c.Name = fmt.Sprintf("%s-%dx%d", c.Name, c.M, c.N)
	return c
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

// syntheticConfig returns the configuration of a synthetic data set name.
func syntheticConfig(name string, quick bool) (synthetic.Config, bool) {
	switch name {
	case wikiData:
		return wikiConfig(quick), true
	case web1Data:
		return web1Config(quick), true
	}
	return synthetic.Config{}, false
}

// syntheticChecksums identifies a synthetic corpus by the digest of its
// generator configuration (synthetic.Config.Canonical, which includes the
// generator version); registered data sets get no extra checksum.
func syntheticChecksums(dataset string, quick bool) ([]store.Checksum, error) {
	c, ok := syntheticConfig(dataset, quick)
	if !ok {
		if _, err := datasets.Lookup(dataset); err != nil {
			return nil, err
		}
		return nil, nil
	}
	sum := sha256.Sum256([]byte(c.Canonical()))
	return []store.Checksum{{Name: dataset, SHA256: hex.EncodeToString(sum[:])}}, nil
}

// generated caches synthetic corpora by canonical configuration: every job
// of an experiment reads the same corpus.
var generated memo.Map[generatedCorpus]

type generatedCorpus struct {
	corpus *engine.Corpus
	truth  *synthetic.Truth
}

func generate(c synthetic.Config) (*engine.Corpus, *synthetic.Truth, error) {
	g, err := generated.Get(c.Canonical(), func() (generatedCorpus, error) {
		corpus, truth, err := synthetic.Generate(c)
		return generatedCorpus{corpus, truth}, err
	})
	return g.corpus, g.truth, err
}
