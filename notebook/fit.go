package notebook

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/frame"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/metrics/topics"
)

// Params are a model family's parameters as strings, as on the command
// line: {"k": "20", "lambda1": "0.5"}. Absent keys take the defaults
// `topicmf models` lists, the command line's (experiments/workflow).
type Params map[string]string

// FitResult is one fitted model with its corpus, stop status and
// per-iteration record.
type FitResult struct {
	experiments.Fit
	Family string
	Params Params
	// Data is the corpus the model was fitted on.
	Data *Corpus
	// Notes are what the Status does not tell: a fit can converge to a
	// model with every topic empty (U = 0), which describes nothing. Fit
	// shows each note (DisplayMarkdown) when it returns; Summary repeats
	// them.
	Notes []string
}

// Fit fits the catalog family (engine/catalog: "nmf", "rlsi", "lsi",
// "plsi", "lda", "tnmf", "grouprlsi", "gnmfnc", ...) with params on c and
// records every iteration. Absent params take the defaults of every front
// end (workflow.NewMethod: the family's declared defaults and seed, with
// its front-end defaults, e.g. RLSI's λ read relative to the data's
// scale), so that Fit gives the bits of "topicmf fit". A regularization too
// strong for the corpus can empty every topic, which Fit reports in Notes.
// A fit that stops on the iteration limit or a numerical failure is not an
// error: see the Status.
func Fit(c *Corpus, family string, params Params) (*FitResult, error) {
	if err := checkFamily(family); err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	m, err := workflow.NewMethod(family, catalog.Params(params))
	if err != nil {
		return nil, err
	}
	rec := engine.NewRecorder()
	model, status, err := m.Method.Fit(context.Background(), c.Corpus.Corpus, rec)
	if err != nil {
		return nil, fmt.Errorf("fit %s on %s: %w", family, c.Name, err)
	}
	f := &FitResult{
		Fit:    experiments.Fit{Corpus: c.Corpus, Model: model, Status: status, Recorder: rec},
		Family: family, Params: params, Data: c,
	}
	if allZero(model.TermTopics()) {
		f.Notes = append(f.Notes, fmt.Sprintf("every topic of this %s fit is empty (U = 0): it has no top terms, "+
			"and fold-in and ranking score every document 0. The regularization is too strong for the corpus's scale "+
			"(for RLSI: lambda-scale=relative and a smaller lambda1, e.g. 0.05).", family))
	}
	for _, n := range f.Notes {
		showMarkdown("**Note:** " + n)
	}
	return f, nil
}

// Summary is one line: family, corpus, the Status and the Notes.
func (f *FitResult) Summary() string {
	s := fmt.Sprintf("%s on %s: %s", f.Family, f.Corpus.Name, f.Status)
	for _, n := range f.Notes {
		s += "; note: " + n
	}
	return s
}

// allZero reports whether u has no non-zero entry.
func allZero(u *mat.Dense) bool {
	r := u.RawMatrix()
	for i := 0; i < r.Rows; i++ {
		for _, v := range r.Data[i*r.Stride : i*r.Stride+r.Cols] {
			if v != 0 {
				return false
			}
		}
	}
	return true
}

// Families is a dataframe of every catalog family: name and one-line doc.
func Families() dataframe.DataFrame {
	var names, docs []string
	for _, f := range catalog.Families() {
		names = append(names, f.Name)
		docs = append(docs, f.Doc)
	}
	return dataframe.New(series.New(names, series.String, "family"), series.New(docs, series.String, "doc"))
}

// FamilyParams is a dataframe of a family's parameters: key, default,
// range and doc, as the family declares them.
func FamilyParams(family string) (dataframe.DataFrame, error) {
	if err := checkFamily(family); err != nil {
		return dataframe.DataFrame{}, err
	}
	f, err := catalog.Lookup(family)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	var keys, defs, ranges, docs []string
	for _, p := range f.Params {
		keys = append(keys, p.Key)
		defs = append(defs, p.Default)
		ranges = append(ranges, p.Range)
		docs = append(docs, p.Doc)
	}
	return dataframe.New(series.New(keys, series.String, "key"), series.New(defs, series.String, "default"),
		series.New(ranges, series.String, "range"), series.New(docs, series.String, "doc")), nil
}

// Iterations is the fit's per-iteration record as a dataframe: iter,
// seconds, objective, each objective term and each factor's sparsity.
func Iterations(f *FitResult) dataframe.DataFrame { return frame.Iterations(f.Recorder) }

// TopTerms is a dataframe of the n highest-weighted terms of every topic
// (columns of U): topic, rank, term, weight; ranked by weight, which for
// the families with signed topics (LSI, RLSI) puts the largest positive
// weights first. Zero weights are not terms of a topic; n ≤ 0 gives no
// rows.
func TopTerms(f *FitResult, n int) dataframe.DataFrame {
	var tk, rk []int
	var terms []string
	var ws []float64
	for k, list := range topics.TopTerms(f.Model.TermTopics(), f.Corpus.Vocab, n) {
		for r, t := range list {
			tk, rk = append(tk, k), append(rk, r+1)
			terms, ws = append(terms, t.Term), append(ws, t.Weight)
		}
	}
	return dataframe.New(series.New(tk, series.Int, "topic"), series.New(rk, series.Int, "rank"),
		series.New(terms, series.String, "term"), series.New(ws, series.Float, "weight"))
}

// Topics is one line per topic: topic, its n top terms joined by spaces
// (none for n ≤ 0), and its compactness (fraction of non-zero weights,
// whose mean is AvgComp).
func Topics(f *FitResult, n int) dataframe.DataFrame {
	U := f.Model.TermTopics()
	comp := topics.Compactness(U)
	var ks []int
	var words []string
	for k, list := range topics.TopTerms(U, f.Corpus.Vocab, n) {
		ks = append(ks, k)
		words = append(words, topics.Format(list))
	}
	return dataframe.New(series.New(ks, series.Int, "topic"), series.New(words, series.String, "top terms"),
		series.New(comp, series.Float, "compactness"))
}

// FoldIn returns the topic representations (one row of K weights per
// text) of new texts, weighted by the corpus's vectorizer and folded in as
// the family's paper defines it.
func FoldIn(f *FitResult, texts []string) (*mat.Dense, error) {
	if err := canFoldIn(f); err != nil {
		return nil, err
	}
	return f.Model.FoldIn(context.Background(), f.Corpus.Vectorizer.Transform(texts))
}

// canFoldIn reports why new text cannot be folded into f, if it cannot.
func canFoldIn(f *FitResult) error {
	if f.Corpus.Vectorizer == nil {
		return fmt.Errorf("fold-in: corpus %s has no vectorizer (synthetic)", f.Corpus.Name)
	}
	if f.Corpus.TermRow != nil {
		return fmt.Errorf("fold-in: corpus %s dropped terms after weighting (MinTotalFreq); fold in through its experiment", f.Corpus.Name)
	}
	return nil
}

// Rank folds the query in and ranks the training documents by the cosine
// of their topic vectors with the query's (the topic score of Wang et al.,
// SIGIR 2011, Eq. 4, workflow.Ranker with α = 1), best first, ties by
// document id descending as trec_eval breaks them. The dataframe has rank,
// doc (id), score, and title (the first 60 characters of the document's
// title or text) when the corpus comes from a collection; it has the n
// best documents, every document when n exceeds their number, and no row
// for n ≤ 0.
func Rank(f *FitResult, query string, n int) (dataframe.DataFrame, error) {
	if err := canFoldIn(f); err != nil {
		return dataframe.DataFrame{}, err
	}
	rk := &workflow.Ranker{Model: f.Model, Vectorizer: f.Corpus.Vectorizer, DocIDs: f.Corpus.DocIDs}
	opts := workflow.RankOptions{Alpha: 1, Depth: max(1, f.Corpus.Docs())}
	run, err := rk.Rank(context.Background(), []string{"q"}, []string{query}, opts)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	ranked := run["q"][:max(0, min(n, len(run["q"])))]
	titles := docTitles(f.Data)
	var ranks []int
	var ids, heads []string
	var ss []float64
	for r, d := range ranked {
		ranks, ids, ss = append(ranks, r+1), append(ids, d.DocID), append(ss, d.Score)
		heads = append(heads, titles[d.DocID])
	}
	cols := []series.Series{series.New(ranks, series.Int, "rank"), series.New(ids, series.String, "doc"),
		series.New(ss, series.Float, "score")}
	if titles != nil {
		cols = append(cols, series.New(heads, series.String, "title"))
	}
	return dataframe.New(cols...), nil
}

// docTitles maps document id to a short heading, nil without a collection.
func docTitles(c *Corpus) map[string]string {
	if c == nil || c.Collection == nil {
		return nil
	}
	out := make(map[string]string, len(c.Collection.Docs))
	for _, d := range c.Collection.Docs {
		s := d.Title
		if strings.TrimSpace(s) == "" {
			s = d.Text
		}
		s = strings.Join(strings.Fields(s), " ")
		if r := []rune(s); len(r) > 60 {
			s = string(r[:59]) + "…"
		}
		out[d.ID] = s
	}
	return out
}
