package datasets

import "fmt"

// Collection is what every reader returns: the raw documents of one public
// collection with their classes, its queries, graded relevance judgments and
// splits, before any text processing.
type Collection struct {
	Name string // registry name, e.g. "cranfield"
	Docs []Document
	// Queries are empty for classification-only collections.
	Queries []Query
	// Qrels holds every judgment in file order.
	Qrels []Judgment
	// Gains maps each relevance level found in Qrels to the gain used for
	// graded metrics (NDCG); levels with gain > 0 count as relevant for
	// binary metrics (MAP, P@k). GainNote states the mapping in words, for
	// report footers.
	Gains    map[int]float64
	GainNote string
	// Classes are the distinct class (or category) names, sorted.
	Classes []string
	// Warnings are quirks met while reading (e.g. empty fields), shown in
	// reports rather than hidden.
	Warnings []string
}

// Document is one document.
type Document struct {
	ID    string
	Title string // separate title field where the format has one
	Text  string // the full text to index (title included)
	// Class is the single class of a single-label collection ("" if none).
	Class string
	// Categories are all labels of a multi-label collection (Reuters TOPICS).
	Categories []string
	// Split is "train", "test", "dev", ... ("" if the collection has none).
	Split string
}

// Query is one query (or original question, for SemEval).
type Query struct {
	ID    string // the id used in Qrels
	Text  string
	Split string
	Class string // category, where the collection gives queries one
}

// Judgment is one relevance judgment: the level of DocID for QueryID as
// written in the collection's qrels (e.g. Cranfield codes 1..4 and -1).
type Judgment struct {
	QueryID, DocID string
	Level          int
}

// warnCount adds the warning format (with n as its one verb) when n > 0:
// a count of a quirk met while reading.
func (c *Collection) warnCount(n int, format string) {
	if n > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf(format, n))
	}
}

// idSets returns the sets of document and query ids.
func (c *Collection) idSets() (docs, queries map[string]bool) {
	docs = make(map[string]bool, len(c.Docs))
	for _, d := range c.Docs {
		docs[d.ID] = true
	}
	queries = make(map[string]bool, len(c.Queries))
	for _, q := range c.Queries {
		queries[q.ID] = true
	}
	return docs, queries
}
