package retrieval

import (
	"fmt"
	"slices"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/metrics/ir"
)

// The measures every evaluation reports, in trec_eval spelling (see
// metrics/ir): MAP, NDCG@1, 3, 5, 10 (the RLSI paper's Section 6.1) and
// P@5, P@10.
var Measures = []string{"map", "ndcg_cut_1", "ndcg_cut_3", "ndcg_cut_5", "ndcg_cut_10", "P_5", "P_10"}

// MeasureNames maps each of Measures to the name used in reports.
var MeasureNames = map[string]string{
	"map": "MAP", "ndcg_cut_1": "NDCG@1", "ndcg_cut_3": "NDCG@3", "ndcg_cut_5": "NDCG@5",
	"ndcg_cut_10": "NDCG@10", "P_5": "P@5", "P_10": "P@10",
}

// EvalOptions returns the metrics/ir options of a collection's evaluation:
// its gains (levels with gain > 0 are relevant for MAP and P@k), the cutoffs
// of Measures, and trec_eval -c so every judged query is evaluated.
func EvalOptions(gains map[int]float64) ir.Options {
	return ir.Options{Gains: gains, Complete: true, PCutoffs: []int{5, 10}, NDCGCutoffs: []int{1, 3, 5, 10}}
}

// Task is a retrieval test collection ready for ranking: the documents'
// term counts (for the term models), the queries as term counts and as rows
// weighted like the topic model's training corpus (for fold-in), and the
// judgments. Rows of QueryCounts and QueryWeights are aligned with QueryIDs;
// columns of every matrix are the same vocabulary.
type Task struct {
	Name     string
	DocIDs   []string // N; document d is column d of the index
	QueryIDs []string // Q
	// Index holds the raw term counts of the N documents (needed by
	// TermScores only).
	Index *rank.Index
	// QueryCounts is Q × M, raw query term counts (TermScores).
	QueryCounts *sparse.CSR
	// QueryWeights is Q × M, the queries weighted like the model corpus
	// (tf-idf by default): the q of RLSI Section 5 given to FoldIn.
	QueryWeights *sparse.CSR
	// DocWeights is N × M, the model corpus's Dᵀ; needed only for
	// DocFoldIn topic scores.
	DocWeights *sparse.CSR
	// Qrels holds the judgments of the queries in QueryIDs.
	Qrels ir.Qrels
	// Eval are the evaluation options (see EvalOptions).
	Eval ir.Options
	// Warnings list what was left out while preparing (queries without a
	// relevant document, queries without a vocabulary term, ...).
	Warnings []string
}

// Judged returns, for every query of t in QueryIDs order, the positions
// in DocIDs of its judged documents, ascending: the candidates of a task
// whose queries rank only their judged documents (SemEval's subtask B). A
// judged document that is not among DocIDs is an error naming it.
func (t *Task) Judged() ([][]int, error) {
	pos := make(map[string]int, len(t.DocIDs))
	for i, id := range t.DocIDs {
		pos[id] = i
	}
	out := make([][]int, len(t.QueryIDs))
	for q, id := range t.QueryIDs {
		for doc := range t.Qrels[id] {
			p, ok := pos[doc]
			if !ok {
				return nil, fmt.Errorf("%s: query %s: judged document %s is not among the documents", t.Name, id, doc)
			}
			out[q] = append(out[q], p)
		}
		slices.Sort(out[q])
	}
	return out, nil
}

// Validate checks that the parts of the task agree in shape and that every
// query is judged. Index, the query matrices and DocWeights may be nil
// (functions that need them say so).
func (t *Task) Validate() error {
	if t == nil {
		return fmt.Errorf("retrieval: nil task")
	}
	n, q := len(t.DocIDs), len(t.QueryIDs)
	seen := make(map[string]bool, n)
	for _, id := range t.DocIDs {
		if seen[id] {
			return fmt.Errorf("retrieval: task %q: document id %q occurs twice", t.Name, id)
		}
		seen[id] = true
	}
	seenQ := make(map[string]bool, q)
	for _, id := range t.QueryIDs {
		if seenQ[id] {
			return fmt.Errorf("retrieval: task %q: query id %q occurs twice", t.Name, id)
		}
		seenQ[id] = true
		if _, ok := t.Qrels[id]; !ok {
			return fmt.Errorf("retrieval: task %q: query %q has no judgments", t.Name, id)
		}
	}
	if t.Index != nil && t.Index.Docs() != n {
		return fmt.Errorf("retrieval: task %q: index has %d documents, DocIDs %d", t.Name, t.Index.Docs(), n)
	}
	for _, m := range []struct {
		name       string
		x          *sparse.CSR
		rows, cols int
	}{
		{"QueryCounts", t.QueryCounts, q, -1},
		{"QueryWeights", t.QueryWeights, q, -1},
		{"DocWeights", t.DocWeights, n, -1},
	} {
		if m.x == nil {
			continue
		}
		if m.x.Rows != m.rows {
			return fmt.Errorf("retrieval: task %q: %s has %d rows, want %d", t.Name, m.name, m.x.Rows, m.rows)
		}
		if t.Index != nil && m.x.Cols != t.Index.Terms() {
			return fmt.Errorf("retrieval: task %q: %s has %d columns, the index %d terms", t.Name, m.name, m.x.Cols, t.Index.Terms())
		}
	}
	return t.Eval.Validate()
}

// Prepared is a collection turned into a Task together with the model's
// training corpus.
type Prepared struct {
	Task *Task
	// Corpus is the corpus a topic model is fitted on (weighted as the text
	// options say; tf-idf by default), its documents in the order of
	// Task.DocIDs.
	Corpus *engine.Corpus
	// Vectorizer weights new texts like Corpus.
	Vectorizer *text.Vectorizer
	// Report is the text pipeline's report on Corpus.
	Report text.Report
}

// Prepare runs the text pipeline on a collection twice, with opts (the
// model corpus and query weights) and with CountOptions(opts) (raw counts
// for the term models), and builds the Task (see Assemble).
func Prepare(col *datasets.Collection, opts text.Options) (*Prepared, error) {
	if err := hasQueries(col); err != nil {
		return nil, err
	}
	corpus, vec, rep, err := text.Fit(col, opts)
	if err != nil {
		return nil, err
	}
	counts, countVec, _, err := text.Fit(col, CountOptions(opts))
	if err != nil {
		return nil, err
	}
	return Assemble(col, &Prepared{Corpus: corpus, Vectorizer: vec, Report: rep}, counts, countVec)
}

// CountOptions are opts under the "tf" weighting without normalization:
// the same tokens, vocabulary and documents as opts, as raw counts.
func CountOptions(opts text.Options) text.Options {
	opts.Weighting, opts.Norm = text.WeightTF, text.NormNone
	return opts
}

// Assemble builds the Task of a collection from its two pipeline outputs:
// model (Corpus, Vectorizer and Report set; Task is filled in) and the raw
// counts with their vectorizer, built from the same collection under
// CountOptions of model's options (same tokens, vocabulary and documents,
// which is checked). Queries without a relevant judged document cannot be
// ranked meaningfully and are left out (listed in Task.Warnings), like
// queries without any judgment. It returns model.
func Assemble(col *datasets.Collection, model *Prepared, counts *engine.Corpus, countVec *text.Vectorizer) (*Prepared, error) {
	if err := hasQueries(col); err != nil {
		return nil, err
	}
	corpus, vec := model.Corpus, model.Vectorizer
	if !slices.Equal(counts.Vocab, corpus.Vocab) || !slices.Equal(counts.DocIDs, corpus.DocIDs) {
		return nil, fmt.Errorf("retrieval: collection %q: the count corpus and the model corpus differ in vocabulary or documents", col.Name)
	}
	ix, err := rank.IndexCorpus(counts)
	if err != nil {
		return nil, err
	}
	eval := EvalOptions(col.Gains)
	t := &Task{Name: col.Name, DocIDs: corpus.DocIDs, Index: ix, DocWeights: corpus.DT, Qrels: ir.Qrels{}, Eval: eval}

	judged := map[string]map[string]int{}
	for _, j := range col.Qrels {
		m := judged[j.QueryID]
		if m == nil {
			m = map[string]int{}
			judged[j.QueryID] = m
		}
		if old, dup := m[j.DocID]; dup {
			t.Warnings = append(t.Warnings, fmt.Sprintf("query %s, document %s judged twice (levels %d and %d); the higher is kept", j.QueryID, j.DocID, old, j.Level))
			j.Level = max(old, j.Level)
		}
		m[j.DocID] = j.Level
	}
	var texts []string
	var noRel []string
	for _, q := range col.Queries {
		js, ok := judged[q.ID]
		if !ok {
			noRel = append(noRel, q.ID)
			continue
		}
		rel := false
		for _, l := range js {
			rel = rel || eval.Relevant(l)
		}
		if !rel {
			noRel = append(noRel, q.ID)
			continue
		}
		if _, dup := t.Qrels[q.ID]; dup {
			return nil, fmt.Errorf("retrieval: collection %q: query id %q occurs twice", col.Name, q.ID)
		}
		t.QueryIDs = append(t.QueryIDs, q.ID)
		t.Qrels[q.ID] = js
		texts = append(texts, q.Text)
	}
	if len(noRel) > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%s without a relevant judged document %s left out: %s", queriesNoun(len(noRel)), wasWere(len(noRel)), listIDs(noRel)))
	}
	if len(t.QueryIDs) == 0 {
		return nil, fmt.Errorf("retrieval: collection %q: no query has a relevant judged document", col.Name)
	}
	t.QueryCounts = countVec.Transform(texts)
	t.QueryWeights = vec.Transform(texts)
	var empty []string
	for i := range t.QueryIDs {
		if t.QueryCounts.RowPtr[i+1] == t.QueryCounts.RowPtr[i] {
			empty = append(empty, t.QueryIDs[i])
		}
	}
	if len(empty) > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%s no vocabulary term (every document scores alike): %s", queriesNoun(len(empty))+" "+agree(len(empty), "has", "have"), listIDs(empty)))
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	model.Task = t
	return model, nil
}

func hasQueries(col *datasets.Collection) error {
	if col == nil {
		return fmt.Errorf("retrieval: nil collection")
	}
	if len(col.Queries) == 0 {
		return fmt.Errorf("retrieval: collection %q has no queries", col.Name)
	}
	return nil
}

// listIDs formats up to 20 ids for a warning.
func listIDs(ids []string) string {
	if len(ids) <= 20 {
		return fmt.Sprint(ids)
	}
	return fmt.Sprint(ids[:20]) + fmt.Sprintf(" ... (%d more)", len(ids)-20)
}

// queriesNoun is "1 query", "2 queries".
func queriesNoun(n int) string {
	if n == 1 {
		return "1 query"
	}
	return fmt.Sprintf("%d queries", n)
}

// wasWere is the verb agreeing with n.
func wasWere(n int) string { return agree(n, "was", "were") }

// agree is one when n is 1, else many.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
