package text

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Report says what the pipeline did to a collection, so that reports can
// show it: nothing is dropped silently.
type Report struct {
	Documents int   // documents in the collection
	Kept      int   // documents in the corpus (N)
	Tokens    int64 // indexed tokens of the kept documents, vocabulary terms only
	// EmptyDocs are the ids of documents with no token left after
	// tokenizing, stop-word removal and stemming; they are dropped.
	EmptyDocs []string
	// PrunedDocs are the ids of documents whose every term was pruned from
	// the vocabulary (MinDF, MaxDF, MaxVocab); they are dropped.
	PrunedDocs []string
	// ZeroWeightDocs are the ids of kept documents whose every weight is 0
	// (they contain only zero-idf terms): empty columns of D.
	ZeroWeightDocs []string
	// DistinctTerms is the number of distinct tokens before pruning.
	DistinctTerms int
	// Pruned counts the terms removed by each rule.
	PrunedMinDF, PrunedMaxDF, PrunedMaxVocab int
	// PrunedTokens counts the tokens of the pruned terms (in the documents
	// with a token); a share above PrunedTokensWarn is a warning.
	PrunedTokens int64
	// ZeroIDFTerms are the terms in every document (idf 0 under the idf
	// weightings): their rows of D are empty.
	ZeroIDFTerms []string
	// Warnings are the above, and anything else worth showing, in words.
	Warnings []string
}

// Build runs the pipeline on col and returns the corpus (M terms × N
// documents) with its report. See Fit for the vectorizer.
func Build(col *datasets.Collection, opts Options) (*engine.Corpus, Report, error) {
	c, _, rep, err := Fit(col, opts)
	return c, rep, err
}

// PrunedTokensWarn is the share of the tokens whose pruning from the
// vocabulary (MinDF, MaxDF, MaxVocab) is a warning (Report.PrunedTokens).
const PrunedTokensWarn = 0.10

// plural is "1 document", "2 documents".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// agree is one when n is 1, else many (a verb agreeing with n).
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// docTerms is one document's distinct tokens (sorted) with their counts.
type docTerms struct {
	terms  []string
	counts []int
}

func countTerms(tokens []string) docTerms {
	slices.Sort(tokens)
	var d docTerms
	for i := 0; i < len(tokens); {
		j := i
		for j < len(tokens) && tokens[j] == tokens[i] {
			j++
		}
		d.terms = append(d.terms, tokens[i])
		d.counts = append(d.counts, j-i)
		i = j
	}
	return d
}

// listIDs formats up to 20 ids for a warning.
func listIDs(ids []string) string {
	if len(ids) <= 20 {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:20], ", ") + fmt.Sprintf(", ... (%d more)", len(ids)-20)
}

// Fit runs the pipeline on col: it analyzes every document's Text, builds
// the vocabulary, weights the counts, and returns the corpus, the fitted
// vectorizer (for queries and new documents) and the report. Labels come
// from Document.Class: ClassNames are the distinct non-empty classes of the
// kept documents, sorted, and a document without class gets -1; Labels is
// nil when no kept document has a class.
func Fit(col *datasets.Collection, opts Options) (*engine.Corpus, *Vectorizer, Report, error) {
	var rep Report
	if col == nil {
		return nil, nil, rep, fmt.Errorf("text: nil collection")
	}
	a, err := NewAnalyzer(opts)
	if err != nil {
		return nil, nil, rep, err
	}
	o := opts.normalized()
	rep.Documents = len(col.Docs)
	if len(col.Docs) == 0 {
		return nil, nil, rep, fmt.Errorf("collection %q has no documents", col.Name)
	}

	// Steps 1–5, in parallel over fixed blocks of documents.
	docs := make([]docTerms, len(col.Docs))
	parallel.Default().For(len(col.Docs), textBlock, func(_, lo, hi int) {
		cache := make(map[string]string)
		for i := lo; i < hi; i++ {
			docs[i] = countTerms(a.tokens(col.Docs[i].Text, cache))
		}
	})

	var live []int // documents with at least one token
	var liveTokens int64
	df := make(map[string]int)
	for i, d := range docs {
		if len(d.terms) == 0 {
			rep.EmptyDocs = append(rep.EmptyDocs, col.Docs[i].ID)
			continue
		}
		live = append(live, i)
		for k, t := range d.terms {
			df[t]++
			liveTokens += int64(d.counts[k])
		}
	}
	if len(rep.EmptyDocs) > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s empty after tokenizing, stop words and stemming %s dropped: %s",
			plural(len(rep.EmptyDocs), "document"), agree(len(rep.EmptyDocs), "was", "were"), listIDs(rep.EmptyDocs)))
	}
	rep.DistinctTerms = len(df)

	// Vocabulary: MinDF, then MaxDF, then MaxVocab.
	n0 := len(live)
	type termDF struct {
		t  string
		df int
	}
	var cand []termDF
	for t, d := range df {
		switch {
		case d < o.MinDF:
			rep.PrunedMinDF++
		case o.MaxDF < 1 && float64(d) > o.MaxDF*float64(n0):
			rep.PrunedMaxDF++
		default:
			cand = append(cand, termDF{t, d})
		}
	}
	if o.MaxVocab > 0 && len(cand) > o.MaxVocab {
		sort.Slice(cand, func(i, j int) bool {
			if cand[i].df != cand[j].df {
				return cand[i].df > cand[j].df
			}
			return cand[i].t < cand[j].t
		})
		rep.PrunedMaxVocab = len(cand) - o.MaxVocab
		cand = cand[:o.MaxVocab]
	}
	vocab := make([]string, len(cand))
	for i, c := range cand {
		vocab[i] = c.t
	}
	slices.Sort(vocab)
	// The pruning is reported as a warning only when it matters: when the
	// pruned terms held more than PrunedTokensWarn of the tokens. Pruning
	// the terms of a single document (MinDF 2, the default) removes about
	// half the distinct terms of any collection but a few per cent of its
	// text, which is the point of the default, not news (see Report).
	vocabNote := func(tokens int64) {
		if p := rep.PrunedMinDF + rep.PrunedMaxDF + rep.PrunedMaxVocab; p == 0 || liveTokens == 0 {
			return
		}
		rep.PrunedTokens = liveTokens - tokens
		share := float64(rep.PrunedTokens) / float64(liveTokens)
		if share > PrunedTokensWarn {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("vocabulary: %d of %d terms kept, %.0f%% of the tokens pruned (%d terms below MinDF %d, %d above MaxDF %v, %d beyond MaxVocab %d)",
				len(vocab), rep.DistinctTerms, 100*share, rep.PrunedMinDF, o.MinDF, rep.PrunedMaxDF, o.MaxDF, rep.PrunedMaxVocab, o.MaxVocab))
		}
	}
	index := make(map[string]int32, len(vocab))
	for m, t := range vocab {
		index[t] = int32(m)
	}

	// Documents that keep at least one vocabulary term form the corpus.
	var kept []int
	for _, i := range live {
		for _, t := range docs[i].terms {
			if _, ok := index[t]; ok {
				kept = append(kept, i)
				break
			}
		}
		if len(kept) == 0 || kept[len(kept)-1] != i {
			rep.PrunedDocs = append(rep.PrunedDocs, col.Docs[i].ID)
		}
	}
	if len(rep.PrunedDocs) > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s left without a vocabulary term %s dropped: %s",
			plural(len(rep.PrunedDocs), "document"), agree(len(rep.PrunedDocs), "was", "were"), listIDs(rep.PrunedDocs)))
	}
	if len(kept) == 0 {
		return nil, nil, rep, fmt.Errorf("collection %q: no document has a term left after processing (%d documents, %d empty, %d pruned)",
			col.Name, len(col.Docs), len(rep.EmptyDocs), len(rep.PrunedDocs))
	}
	rep.Kept = len(kept)

	// Final document frequencies: the dropped documents held no vocabulary
	// term, so df over the kept documents equals df over live ones.
	vdf := make([]int, len(vocab))
	for m, t := range vocab {
		vdf[m] = df[t]
	}
	v, err := newVectorizer(a, o, vocab, vdf, len(kept))
	if err != nil {
		return nil, nil, rep, err
	}
	if v.idf != nil {
		for m, d := range vdf {
			if d == len(kept) {
				rep.ZeroIDFTerms = append(rep.ZeroIDFTerms, vocab[m])
			}
		}
		if len(rep.ZeroIDFTerms) > 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s in every document (idf 0, empty rows of D): %s",
				plural(len(rep.ZeroIDFTerms), "term")+agree(len(rep.ZeroIDFTerms), " occurs", " occur"), listIDs(rep.ZeroIDFTerms)))
		}
	}

	// Columns of D, as rows of Dᵀ.
	idx := make([][]int32, len(kept))
	val := make([][]float64, len(kept))
	ids := make([]string, len(kept))
	seen := make(map[string]int, len(kept))
	var dup []string
	for j, i := range kept {
		d := docs[i]
		for k, t := range d.terms {
			m, ok := index[t]
			if !ok {
				continue
			}
			rep.Tokens += int64(d.counts[k])
			if w := v.Weight(int(m), d.counts[k]); w != 0 {
				idx[j] = append(idx[j], m)
				val[j] = append(val[j], w)
			}
		}
		if o.Norm == NormL2 {
			NormalizeL2(val[j])
		}
		id := col.Docs[i].ID
		ids[j] = id
		if len(idx[j]) == 0 {
			rep.ZeroWeightDocs = append(rep.ZeroWeightDocs, id)
		}
		if seen[id]++; seen[id] == 2 {
			dup = append(dup, id)
		}
	}
	vocabNote(rep.Tokens)
	if len(rep.ZeroWeightDocs) > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s only zero-idf terms (empty columns of D): %s",
			plural(len(rep.ZeroWeightDocs), "document")+agree(len(rep.ZeroWeightDocs), " contains", " contain"), listIDs(rep.ZeroWeightDocs)))
	}
	if len(dup) > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d document ids occur more than once: %s", len(dup), listIDs(dup)))
	}
	dt := sparse.FromRows(len(vocab), idx, val)

	// Labels.
	classSet := make(map[string]bool)
	for _, i := range kept {
		if c := col.Docs[i].Class; c != "" {
			classSet[c] = true
		}
	}
	var labels []int
	var classNames []string
	if len(classSet) > 0 {
		for c := range classSet {
			classNames = append(classNames, c)
		}
		slices.Sort(classNames)
		classIndex := make(map[string]int, len(classNames))
		for k, c := range classNames {
			classIndex[c] = k
		}
		labels = make([]int, len(kept))
		unlabeled := 0
		for j, i := range kept {
			if c := col.Docs[i].Class; c != "" {
				labels[j] = classIndex[c]
			} else {
				labels[j] = -1
				unlabeled++
			}
		}
		if unlabeled > 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s no class (label -1)", plural(unlabeled, "document")+agree(unlabeled, " has", " have")))
		}
	}

	corpus, err := engine.NewCorpus(col.Name, vocab, dt.T(), ids, labels, classNames)
	if err != nil {
		return nil, nil, rep, err
	}
	return corpus, v, rep, nil
}
