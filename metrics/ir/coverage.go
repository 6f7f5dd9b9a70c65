package ir

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// coverageExamples is how many ids a coverage warning quotes.
const coverageExamples = 5

// Coverage checks that qrels and a collection refer to the same documents
// and queries, and returns one warning summing up what does not match (""
// when everything does): judged documents that are not among docIDs (the
// collection ranked), queries of queryIDs without any judgment, and judged
// queries that are not among queryIDs, each with its count and the first
// few ids in byte order. Such mismatches are legitimate in small numbers
// (a judged document dropped as empty) but, in large ones, mean that the
// ids do not match, e.g. judgments naming documents by position rather
// than by id, which otherwise shows only as a MAP near 0. With queryIDs
// nil the queries are not checked (when the run holds every query,
// Evaluate's warnings already name the queries on either side).
func Coverage(qrels Qrels, queryIDs, docIDs []string) string {
	docs := make(map[string]bool, len(docIDs))
	for _, d := range docIDs {
		docs[d] = true
	}
	queries := make(map[string]bool, len(queryIDs))
	for _, q := range queryIDs {
		queries[q] = true
	}
	missingDocs := map[string]bool{}
	judgedDocs := map[string]bool{}
	var unjudged, unknownQueries []string
	for q, judged := range qrels {
		if queryIDs != nil && !queries[q] {
			unknownQueries = append(unknownQueries, q)
		}
		for d := range judged {
			judgedDocs[d] = true
			if !docs[d] {
				missingDocs[d] = true
			}
		}
	}
	for _, q := range queryIDs {
		if _, ok := qrels[q]; !ok {
			unjudged = append(unjudged, q)
		}
	}
	var parts []string
	if len(missingDocs) > 0 {
		parts = append(parts, fmt.Sprintf("%d of the %d judged documents %s not in the collection (%s)",
			len(missingDocs), len(judgedDocs), agree(len(missingDocs), "is", "are"), firstIDs(slices.Collect(maps.Keys(missingDocs)))))
	}
	if len(unjudged) > 0 {
		parts = append(parts, fmt.Sprintf("%d of the %d queries %s no judgments (%s)", len(unjudged), len(queryIDs), agree(len(unjudged), "has", "have"), firstIDs(unjudged)))
	}
	if len(unknownQueries) > 0 {
		parts = append(parts, fmt.Sprintf("%d judged %s not among the queries (%s)", len(unknownQueries), agree(len(unknownQueries), "query is", "queries are"), firstIDs(unknownQueries)))
	}
	if len(parts) == 0 {
		return ""
	}
	msg := "qrels: " + strings.Join(parts, "; ")
	if len(missingDocs) > 0 && len(missingDocs) == len(judgedDocs) {
		msg += "; no judged document is in the collection: do the qrels name documents by the collection's ids?"
	}
	return msg
}

// firstIDs lists the first few of ids in byte order, "…" marking more.
func firstIDs(ids []string) string {
	slices.Sort(ids)
	s := ids[:min(len(ids), coverageExamples)]
	out := "the first: " + strings.Join(s, ", ")
	if len(ids) > len(s) {
		out += ", …"
	}
	return out
}

// agree is one when n is 1, else many.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
