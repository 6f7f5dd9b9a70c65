package gmf2012

import (
	"context"
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/memo"
	"github.com/topicmf/topicmf/metrics/ir"
)

// Data sets of the relevance experiment (GMF §7.4, Tables 12–13).
const (
	semevalData   = "semeval2016"
	cranfieldData = "cranfield"
)

// Fixed seeds of the relevance data (the same for every job, so that all
// methods see the same classes and the same query split).
const (
	// RelClusterSeed seeds the NMF whose argmax assigns Cranfield's
	// documents to classes.
	RelClusterSeed = 20120813
	// RelSplitSeed seeds the split of every data set's queries into
	// validation and test halves (retrieval.SplitQueries).
	RelSplitSeed = 20120814
	// CranfieldClasses is the number of clusters P of Cranfield.
	CranfieldClasses = 10
	// clusterIters is the number of NMF iterations of the clustering.
	clusterIters = 200
)

// Query parts of the relevance protocol.
const (
	partVal  = "val"
	partTest = "test"
)

// relText is the text pipeline of the relevance data: SMART stop list,
// tokens of ≥ 2 letters, numbers dropped, every term kept (the term model
// needs the rare terms), tf-idf weights for the topic models.
func relText() text.Options {
	return text.Bare(text.Options{StopList: "smart", Weighting: text.WeightTFIDF})
}

// relGroup is a set of queries ranked over the same candidate documents
// (positions into relData.task's QueryIDs and DocIDs) and the sub-task that
// evaluates them.
type relGroup struct {
	queries, docs []int
	task          *retrieval.Task
}

// relData is one relevance data set ready for the topic models and the
// protocol.
type relData struct {
	name string
	// task is the whole collection: BM25 index, queries (counts and
	// unit-length tf-idf rows), unit-length tf-idf documents, judgments.
	task *retrieval.Task
	// corpus is the model corpus: unit-length tf-idf documents with their
	// classes (every document has one).
	corpus *engine.Corpus
	// groups partition the queries: SemEval has one group per query (its
	// related questions are its candidates), Cranfield one group (every
	// document is a candidate).
	groups []relGroup
	// part[q] is partVal or partTest for query q of task.
	part []string
	// bm25 is the term score s_term of every (query, document).
	bm25 *retrieval.Scores
	// notes are the preparation's warnings and the class statistics.
	notes []string
}

var relCache memo.Map[*relData]

// loadRel prepares a relevance data set once per process.
func loadRel(dataset string) (*relData, error) {
	return relCache.Get(dataset, func() (*relData, error) {
		switch dataset {
		case semevalData, cranfieldData:
		default:
			return nil, fmt.Errorf("gmf2012/tables12-13: unknown data set %q (want %s or %s)", dataset, semevalData, cranfieldData)
		}
		p, err := experiments.PrepareRetrieval(dataset, relText())
		if err != nil {
			return nil, err
		}
		// Unit-length documents and queries (our reading, as tables10-11:
		// the paper's λ's are stated for unit-scale data).
		t, notes := experiments.UnitLengthTask(p)
		d := &relData{name: dataset, task: t, notes: notes}
		dt := t.DocWeights

		labels, names := p.Corpus.Labels, p.Corpus.ClassNames
		if dataset == cranfieldData {
			unit, err := engine.NewCorpus(p.Corpus.Name, p.Corpus.Vocab, dt.T(), p.Corpus.DocIDs, nil, nil)
			if err != nil {
				return nil, err
			}
			var status engine.Status
			labels, names, status, err = clusterClasses(unit, CranfieldClasses, RelClusterSeed)
			if err != nil {
				return nil, fmt.Errorf("data set %s: clustering: %w", dataset, err)
			}
			d.notes = append(d.notes, fmt.Sprintf("%s: classes are the argmax topics of NMF (K = %d): %s", dataset, CranfieldClasses, status))
		}
		for n, l := range labels {
			if l < 0 {
				return nil, fmt.Errorf("data set %s: document %s has no class", dataset, p.Corpus.DocIDs[n])
			}
		}
		if d.corpus, err = engine.NewCorpus(p.Corpus.Name, p.Corpus.Vocab, dt.T(), p.Corpus.DocIDs, labels, names); err != nil {
			return nil, err
		}
		sizes := make([]int, len(names))
		for _, l := range labels {
			sizes[l]++
		}
		d.notes = append(d.notes, fmt.Sprintf("%s: %d documents, %d terms, %d classes of sizes %v, %d queries",
			dataset, len(labels), len(p.Corpus.Vocab), len(names), sizes, len(t.QueryIDs)))

		if d.bm25, err = d.task.TermScores(retrieval.BM25, retrieval.TermOptions{}); err != nil {
			return nil, err
		}
		if dataset == semevalData {
			if err := d.semevalGroups(); err != nil {
				return nil, err
			}
		} else {
			d.allGroup()
		}
		if err := d.splitHalves(); err != nil {
			return nil, err
		}
		return d, nil
	})
}

// splitHalves splits the queries into validation and test halves by
// retrieval.SplitQueries(Q, 2, RelSplitSeed): the first half validates.
// GMF §7.4 splits Web-II's queries at random into two halves the same way.
func (d *relData) splitHalves() error {
	q := len(d.task.QueryIDs)
	halves, err := retrieval.SplitQueries(q, 2, RelSplitSeed)
	if err != nil {
		return fmt.Errorf("data set %s: %w", d.name, err)
	}
	d.part = make([]string, q)
	for _, i := range halves[0] {
		d.part[i] = partVal
	}
	for _, i := range halves[1] {
		d.part[i] = partTest
	}
	return nil
}

// semevalGroups makes one group per query: its candidates are its judged
// related questions (about 10), ranked among themselves as in SemEval's
// subtask B and as the paper ranks Web-II's judged documents.
func (d *relData) semevalGroups() error {
	t := d.task
	judged, err := t.Judged()
	if err != nil {
		return fmt.Errorf("data set %s: %w", d.name, err)
	}
	for qi, id := range t.QueryIDs {
		docs := judged[qi]
		ids := make([]string, len(docs))
		for i, p := range docs {
			ids[i] = t.DocIDs[p]
		}
		sub := &retrieval.Task{Name: t.Name + "/" + id, DocIDs: ids, QueryIDs: []string{id},
			Qrels: subQrels(t.Qrels, []string{id}), Eval: t.Eval}
		d.groups = append(d.groups, relGroup{queries: []int{qi}, docs: docs, task: sub})
	}
	return nil
}

// allGroup makes one group of every query over every document.
func (d *relData) allGroup() {
	t := d.task
	g := relGroup{queries: make([]int, len(t.QueryIDs)), docs: make([]int, len(t.DocIDs)), task: t}
	for i := range g.queries {
		g.queries[i] = i
	}
	for i := range g.docs {
		g.docs[i] = i
	}
	d.groups = []relGroup{g}
}

// clusterClasses assigns every document of c (unit-length tf-idf) the
// argmax of its row of V in an NMF fit with K = p (the catalog's "nmf",
// random initialization from seed, clusterIters iterations, the tolerance
// test off), ties to the lowest topic; clusters left empty are dropped and
// the rest renumbered in topic order, named "cluster01", …. It returns the
// fit's status; a numerical failure is an error.
func clusterClasses(c *engine.Corpus, p int, seed uint64) ([]int, []string, engine.Status, error) {
	method, err := catalog.New("nmf", catalog.Params{"k": strconv.Itoa(p), "seed": strconv.FormatUint(seed, 10),
		"iters": strconv.Itoa(clusterIters), "tol": "-1"})
	if err != nil {
		return nil, nil, engine.Status{}, err
	}
	m, status, err := method.Fit(context.Background(), c, engine.NewRecorder())
	if err != nil {
		return nil, nil, status, err
	}
	if status.Reason == engine.NumericalFailure {
		return nil, nil, status, fmt.Errorf("NMF: %s", status)
	}
	v := m.DocTopics()
	n, k := v.Dims()
	arg := make([]int, n)
	used := make([]bool, k)
	for i := 0; i < n; i++ {
		row := v.RawRowView(i)
		best := 0
		for j := 1; j < k; j++ {
			if row[j] > row[best] {
				best = j
			}
		}
		arg[i] = best
		used[best] = true
	}
	renum := make([]int, k)
	var names []string
	for j := range used {
		renum[j] = -1
		if used[j] {
			renum[j] = len(names)
			names = append(names, fmt.Sprintf("cluster%02d", len(names)+1))
		}
	}
	for i := range arg {
		arg[i] = renum[arg[i]]
	}
	return arg, names, status, nil
}

// relChecksums identifies the pipeline of the relevance data (the data
// files' checksums come from the registry).
func relChecksums(j *experiments.Job) ([]store.Checksum, error) {
	return []store.Checksum{experiments.DescribedChecksum("pipeline",
		"gmf2012/tables12-13 data v1", relText().Canonical(), retrieval.CombineOptions{}.String(),
		fmt.Sprintf("unit-length rows; semeval: candidates = judged related questions; cranfield: every document, classes by NMF argmax, P=%d, seed %d, %d iterations; random query halves, seed %d",
			CranfieldClasses, RelClusterSeed, clusterIters, RelSplitSeed),
	)}, nil
}

// subQrels returns the judgments of the listed queries.
func subQrels(all ir.Qrels, ids []string) ir.Qrels {
	out := ir.Qrels{}
	for _, id := range ids {
		out[id] = all[id]
	}
	return out
}
