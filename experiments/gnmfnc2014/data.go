package gnmfnc2014

import (
	"fmt"
	"strings"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/memo"
	"github.com/topicmf/topicmf/metrics/ir"
)

// Dataset is the SemEval-2016 Task 3 collection with the 2016 test set:
// 290 original questions, 2,483 judged related questions in 26 forum
// categories, the official train / dev / test split.
const Dataset = "semeval2016-all"

// Fixed seeds and sizes of the protocol (the same for every job, so every
// method sees the same folds).
const (
	// FoldSeed seeds the split of all judged queries into Folds folds for
	// the second protocol (retrieval.SplitQueries).
	FoldSeed = 20140823
	// Folds is k of the k-fold protocol.
	Folds = 5
)

// Official split names of the queries (datasets.Query.Split).
const (
	splitTrain = "train"
	splitDev   = "dev"
	splitTest  = "test"
)

// pipeline is the text pipeline of the archive and the queries: SMART
// stop list, tokens of ≥ 2 letters, numbers dropped, every term kept (the
// term models need the rare ones), tf-idf for the topic models (documents
// and queries then scaled to unit length), raw counts for the term models.
func pipeline() text.Options {
	return text.Bare(text.Options{StopList: "smart", Weighting: text.WeightTFIDF})
}

// data is the collection ready for the topic models and the protocols.
type data struct {
	// task holds every judged query (unit-length tf-idf rows and counts),
	// the archive's documents (unit-length tf-idf rows), the BM25/LM index
	// over the archive's counts, and the judgments.
	task *retrieval.Task
	// corpus is the archive the topics are learned on: every related
	// question (subject + body), unit-length tf-idf, its forum category as
	// its class.
	corpus *engine.Corpus
	// topicCorpus is corpus with the vectorizer of its pipeline: the
	// reference of the topics' coherence (experiments/quality).
	topicCorpus *experiments.Corpus
	// cands[q] are the archive positions of query q's judged related
	// questions, ascending: the documents it ranks (SemEval subtask B).
	cands [][]int
	// archive[q] are the archive positions query q ranks under the
	// paper's protocol, ascending: every distinct question among the
	// related questions of the collection (train, dev and test threads),
	// once, except the query itself. SemEval stores a question once per
	// original question it was retrieved for, under a new id each time; a
	// question is its first position among the copies of its text.
	archive [][]int
	// archiveQrels are the judgments of the full-archive protocol: a
	// question's level for query q is the level (of largest gain) of any of
	// its copies judged for q; the query's own text is not judged.
	archiveQrels ir.Qrels
	// distinct is the number of distinct questions in the archive.
	distinct int
	// split[q] is the official split of query q, fold[q] its fold.
	split []string
	fold  []int
	// majority[q] is the most frequent category among query q's related
	// questions (ties: the lowest category index).
	majority []int
	// term holds the term scores of every (query, archive document) by
	// name: "bm25", "lm", "tm", and "trlm" at each β of trlmBetas.
	term map[string]*retrieval.Scores
	// baseline holds the Table 2 baselines' evaluated rankings by the
	// ranking's prefix and the score name ("archive:bm25", "bm25", …).
	baseline map[string]perQuery
	// ibm1 describes the translation table (pairs, log-likelihoods).
	ibm1 string
	// notes are the preparation's warnings and counts.
	notes []string
}

var dataCache memo.Map[*data]

// load prepares the collection once per process.
func load() (*data, error) {
	return dataCache.Get(Dataset, func() (*data, error) {
		col, err := corpora.Collection(Dataset)
		if err != nil {
			return nil, err
		}
		p, err := retrieval.Prepare(col, pipeline())
		if err != nil {
			return nil, err
		}
		t, notes := experiments.UnitLengthTask(p)
		d := &data{task: t, notes: notes}
		dt := t.DocWeights
		for n, l := range p.Corpus.Labels {
			if l < 0 {
				return nil, fmt.Errorf("data set %s: related question %s has no category", Dataset, p.Corpus.DocIDs[n])
			}
		}
		if d.corpus, err = engine.NewCorpus(p.Corpus.Name, p.Corpus.Vocab, dt.T(), p.Corpus.DocIDs, p.Corpus.Labels, p.Corpus.ClassNames); err != nil {
			return nil, err
		}
		d.topicCorpus = &experiments.Corpus{Corpus: d.corpus, Vectorizer: p.Vectorizer}
		if err := d.queries(col.Queries); err != nil {
			return nil, err
		}
		if err := d.fullArchive(col); err != nil {
			return nil, err
		}
		if err := d.termScores(p); err != nil {
			return nil, err
		}
		counts := map[string]int{}
		for _, s := range d.split {
			counts[s]++
		}
		d.notes = append(d.notes, fmt.Sprintf("%s: archive of %d related questions, %d terms, %d categories; %d judged queries (train %d, dev %d, test %d)",
			Dataset, d.corpus.Docs(), d.corpus.Terms(), len(d.corpus.ClassNames), len(d.split), counts[splitTrain], counts[splitDev], counts[splitTest]))
		return d, nil
	})
}

// queries fills cands, split, fold and majority for the task's queries.
func (d *data) queries(all []datasets.Query) error {
	t := d.task
	splitOf := map[string]string{}
	for _, q := range all {
		splitOf[q.ID] = q.Split
	}
	cands, err := t.Judged()
	if err != nil {
		return fmt.Errorf("data set %s: %w", Dataset, err)
	}
	nq := len(t.QueryIDs)
	d.cands = cands
	d.split = make([]string, nq)
	d.majority = make([]int, nq)
	for q, id := range t.QueryIDs {
		switch s := splitOf[id]; s {
		case splitTrain, splitDev, splitTest:
			d.split[q] = s
		default:
			return fmt.Errorf("data set %s: query %s has split %q, want train, dev or test", Dataset, id, s)
		}
		freq := make([]int, len(d.corpus.ClassNames))
		for _, pos := range d.cands[q] {
			freq[d.corpus.Labels[pos]]++
		}
		for c, f := range freq {
			if f > freq[d.majority[q]] {
				d.majority[q] = c
			}
		}
	}
	folds, err := retrieval.SplitQueries(nq, Folds, FoldSeed)
	if err != nil {
		return err
	}
	d.fold = make([]int, nq)
	for f, qs := range folds {
		for _, q := range qs {
			d.fold[q] = f
		}
	}
	return nil
}

// fullArchive fills archive, archiveQrels and distinct: the questions each
// query ranks under the paper's protocol and their judgments (§3.1: the
// repository's questions, "the top 10 results don't include the queried
// question itself"; a question without a judgment counts as irrelevant).
// Two related questions are the same question when their texts (subject
// and body, lower-cased, white space collapsed) are equal.
func (d *data) fullArchive(col *datasets.Collection) error {
	t := d.task
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	text := make(map[string]string, len(col.Docs))
	for _, doc := range col.Docs {
		text[doc.ID] = norm(doc.Text)
	}
	first := map[string]int{} // text → first archive position
	rep := make([]int, len(t.DocIDs))
	for pos, id := range t.DocIDs {
		x, ok := text[id]
		if !ok {
			return fmt.Errorf("data set %s: archive question %s has no text", Dataset, id)
		}
		if f, seen := first[x]; seen {
			rep[pos] = f
		} else {
			first[x], rep[pos] = pos, pos
		}
	}
	d.distinct = len(first)
	queryText := make(map[string]string, len(col.Queries))
	for _, q := range col.Queries {
		queryText[q.ID] = norm(q.Text)
	}
	pos := make(map[string]int, len(t.DocIDs))
	for i, id := range t.DocIDs {
		pos[id] = i
	}
	gain := func(level int) float64 { return t.Eval.Gains[level] }
	d.archive = make([][]int, len(t.QueryIDs))
	d.archiveQrels = ir.Qrels{}
	self := 0
	for q, id := range t.QueryIDs {
		own, isIn := first[queryText[id]]
		if isIn {
			self++
		}
		for p := range t.DocIDs {
			if rep[p] == p && !(isIn && p == own) {
				d.archive[q] = append(d.archive[q], p)
			}
		}
		js := map[string]int{}
		for doc, level := range t.Qrels[id] {
			r := rep[pos[doc]]
			if isIn && r == own {
				continue
			}
			rid := t.DocIDs[r]
			if old, ok := js[rid]; !ok || gain(level) > gain(old) {
				js[rid] = level
			}
		}
		relevant := 0
		for _, level := range js {
			if gain(level) > 0 {
				relevant++
			}
		}
		if relevant == 0 {
			return fmt.Errorf("data set %s: query %s has no relevant question left in the archive once its own text is removed", Dataset, id)
		}
		d.archiveQrels[id] = js
	}
	d.notes = append(d.notes, fmt.Sprintf("full-archive protocol: %d related questions are %d distinct questions (texts compared lower-cased); each query ranks them all except itself (%d queries' own text is in the archive and is left out of their ranking and judgments)",
		len(t.DocIDs), d.distinct, self))
	return nil
}

// termScores computes the Table 2 baselines' scores of every query against
// every archive document, and evaluates the baselines under both rankings.
func (d *data) termScores(p *retrieval.Prepared) error {
	t := d.task
	d.term = map[string]*retrieval.Scores{}
	for _, name := range []string{retrieval.BM25, retrieval.LM} {
		s, err := t.TermScores(name, retrieval.TermOptions{})
		if err != nil {
			return err
		}
		d.term[name] = s
	}
	table, desc, err := translationTable(p, d.task)
	if err != nil {
		return err
	}
	d.ibm1 = desc
	tm, err := rank.NewTM(t.Index, table, rank.TranslationParams{})
	if err != nil {
		return err
	}
	if d.term[scoreTM], err = scoreAll(scoreTM, tm, t); err != nil {
		return err
	}
	for _, b := range trlmBetas {
		s, err := rank.NewTRLM(t.Index, table, rank.TranslationParams{Beta: b})
		if err != nil {
			return err
		}
		name := trlmName(b)
		if d.term[name], err = scoreAll(name, s, t); err != nil {
			return err
		}
	}
	d.baseline = map[string]perQuery{}
	for _, r := range rankings {
		for _, name := range baselineScores() {
			pq, err := d.evaluate(r, func(q int, docs []int) []float64 { return scoresAt(d.term[name], q, docs) })
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			d.baseline[r.prefix+name] = pq
		}
	}
	return nil
}

// baselineScores are the names of the Table 2 baselines' scores.
func baselineScores() []string {
	names := []string{scoreBM25, scoreLM, scoreTM}
	for _, b := range trlmBetas {
		names = append(names, trlmName(b))
	}
	return names
}

func scoreAll(name string, s rank.Scorer, t *retrieval.Task) (*retrieval.Scores, error) {
	v, err := rank.ScoreAll(s, t.Index, t.QueryCounts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &retrieval.Scores{Name: name, Values: v}, nil
}

// checksums identifies the pipeline (the data files' checksums come from
// the registry).
func checksums(j *experiments.Job) ([]store.Checksum, error) {
	return []store.Checksum{experiments.DescribedChecksum("pipeline",
		"gnmfnc2014 data v1", pipeline().Canonical(),
		fmt.Sprintf("unit-length rows; candidates = judged related questions; %d folds, seed %d; IBM1 %d iterations, pooled δ = %g, TRLM β %v, μ default; comments of the train threads",
			Folds, FoldSeed, ibm1Iterations, poolDelta, trlmBetas),
	)}, nil
}
