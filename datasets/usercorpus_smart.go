package datasets

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ReadSMARTFiles reads a SMART-format collection given as loose files: the
// documents (.I records with .T title and .W text; other fields are
// metadata and not indexed, as for the registered SMART collections, see
// smart.go), and optionally the queries (same format; a query's id is its
// .I number) and a relevance file (see ReadQrels). Either of queries and
// qrels may be "". Judgments naming an unknown query or document are an
// error. Relevance levels > 0 count as relevant with gain = level.
func ReadSMARTFiles(docs, queries, qrels string) (*Collection, error) {
	docRecs, latin1, err := parseSMARTFile(docs)
	if err != nil {
		return nil, err
	}
	c := &Collection{Gains: map[int]float64{}}
	c.Warnings = append(c.Warnings, latin1...)
	var empty []string
	for _, rec := range docRecs {
		title, body, warn := smartText(rec, docs)
		c.Warnings = append(c.Warnings, warn...)
		text := irJoinText(title, body)
		if strings.TrimSpace(text) == "" {
			empty = append(empty, fmt.Sprintf(".I %d (line %d)", rec.Num, rec.Line))
		}
		c.Docs = append(c.Docs, Document{ID: strconv.Itoa(rec.Num), Title: title, Text: text})
	}
	if len(empty) > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s without text (no .T or .W, or empty ones): %s", docs,
			countNoun(len(empty), "record"), Elide(strings.Join(empty, ", "), 120)))
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("%s: no .I records", docs)
	}
	if queries != "" {
		qRecs, latin1, err := parseSMARTFile(queries)
		if err != nil {
			return nil, err
		}
		c.Warnings = append(c.Warnings, latin1...)
		for _, rec := range qRecs {
			title, body, warn := smartText(rec, queries)
			c.Warnings = append(c.Warnings, warn...)
			text := irJoinText(title, body)
			if text == "" {
				return nil, fmt.Errorf("%s: line %d: query .I %d has no text", queries, rec.Line, rec.Num)
			}
			c.Queries = append(c.Queries, Query{ID: strconv.Itoa(rec.Num), Text: text})
		}
	}
	if qrels != "" {
		if c.Qrels, err = ReadQrels(qrels); err != nil {
			return nil, err
		}
		if err := checkUserQrels(c, qrels); err != nil {
			return nil, err
		}
	}
	for _, j := range c.Qrels {
		if j.Level > 0 {
			c.Gains[j.Level] = float64(j.Level)
		} else {
			c.Gains[j.Level] = 0
		}
	}
	c.GainNote = "relevance levels as given: level > 0 is relevant with gain = level"
	return c, nil
}

// parseSMARTFile reads the records of a user's SMART file, past a leading
// byte order mark. Lines that are not UTF-8 are read as Latin-1, as for the
// registered SMART collections, and counted in the warning returned.
func parseSMARTFile(path string) (recs []smartRecord, warnings []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	recs, latin1, err := parseSMART(skipBOM(f))
	if err, ok := recordTooLong(path, err); ok {
		return nil, nil, err
	}
	if err != nil { // parseSMART quotes whole lines: keep the message short
		return nil, nil, fmt.Errorf("%s: %s", path, Elide(err.Error(), 160))
	}
	return recs, latin1.warnings(path), nil
}

// checkUserQrels requires every judgment to name a known query (when there
// are queries) and document.
func checkUserQrels(c *Collection, file string) error {
	docs, queries := c.idSets()
	for i, j := range c.Qrels {
		if len(queries) > 0 && !queries[j.QueryID] {
			return fmt.Errorf("%s: judgment %d: query %q is not in the query file", file, i+1, Elide(j.QueryID, 40))
		}
		if !docs[j.DocID] {
			return fmt.Errorf("%s: judgment %d: document %q is not in the collection", file, i+1, Elide(j.DocID, 40))
		}
	}
	return nil
}

// ReadQrels reads a relevance file, one judgment per line: TREC qrels
// "query iteration doc level" (4 fields; the iteration is ignored), or
// "query doc level" (3 fields, as Cranfield's). Ids are any non-blank
// tokens; the level is an integer. Blank lines are skipped; a line of
// another shape is an error naming it. A leading byte order mark is not
// part of the first query id.
func ReadQrels(path string) ([]Judgment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := newIRLineScanner(skipBOM(f))
	var out []Judgment
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		var q, d, lv string
		switch len(fields) {
		case 0:
			continue
		case 3:
			q, d, lv = fields[0], fields[1], fields[2]
		case 4:
			q, d, lv = fields[0], fields[2], fields[3]
		default:
			return nil, fmt.Errorf("%s: line %d: %d fields, want \"query iteration doc level\" or \"query doc level\": %q", path, sc.n, len(fields), Elide(sc.Text(), 60))
		}
		level, err := strconv.Atoi(lv)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: relevance level %q is not an integer", path, sc.n, Elide(lv, 20))
		}
		out = append(out, Judgment{QueryID: q, DocID: d, Level: level})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// ReadSMARTQrels reads a relevance file in the SMART layout of CACM's,
// CISI's and ADI's qrels.text, "query doc 0 0.000000": every listed pair is
// relevant (level 1), and ids are canonical decimal ("01" is query 1, as
// ReadSMARTFiles numbers queries).
func ReadSMARTQrels(path string) ([]Judgment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	js, err := irParseQrels(f, irQrelsSMART)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return js, nil
}
