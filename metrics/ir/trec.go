package ir

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// ReadQrelsFile reads a TREC qrels file (see ReadQrels).
func ReadQrelsFile(path string) (Qrels, error) { return readFile(path, ReadQrels) }

// readFile opens path and reads it with read, which names it path in its
// errors.
func readFile[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var none T
		return none, fmt.Errorf("ir: %w", err)
	}
	defer f.Close()
	return read(f, path)
}

// firstLines is the line on which each (query, document) pair was first
// read.
type firstLines map[[2]string]int

// add records that the pair (query, doc) is on line; a pair read before is
// an error naming the line it was first on, the pair being already "what"
// (judged, retrieved) there.
func (fl firstLines) add(query, doc string, line int, what string) error {
	key := [2]string{query, doc}
	if prev, dup := fl[key]; dup {
		return fmt.Errorf("query %s document %s already %s on line %d", query, doc, what, prev)
	}
	fl[key] = line
	return nil
}

// ReadQrels reads TREC qrels lines "qid iter docno rel" separated by white
// space; iter is ignored and rel must be an integer. Blank lines and lines
// starting with '#' are skipped. A (qid, docno) pair judged twice is an
// error. name is used in error messages ("name:line: ...").
func ReadQrels(r io.Reader, name string) (Qrels, error) {
	q := Qrels{}
	first := firstLines{}
	err := scanLines(r, name, func(line int, f []string) error {
		if len(f) != 4 {
			return fmt.Errorf("%d fields, want 4 (qid iter docno rel)", len(f))
		}
		level, err := strconv.Atoi(f[3])
		if err != nil {
			return fmt.Errorf("relevance %q is not an integer", f[3])
		}
		if err := first.add(f[0], f[2], line, "judged"); err != nil {
			return err
		}
		if q[f[0]] == nil {
			q[f[0]] = map[string]int{}
		}
		q[f[0]][f[2]] = level
		return nil
	})
	if err != nil {
		return nil, err
	}
	return q, nil
}

// ReadRunFile reads a TREC run file (see ReadRun).
func ReadRunFile(path string) (Run, error) { return readFile(path, ReadRun) }

// ReadRun reads TREC run lines "qid Q0 docno rank score tag" separated by
// white space; as in trec_eval the Q0 and rank columns are ignored, fields
// after tag are ignored, and blank lines and lines starting with '#' are
// skipped. The score must be a finite number. A document listed twice for
// one query is an error. name is used in error messages.
func ReadRun(r io.Reader, name string) (Run, error) {
	run := Run{}
	first := firstLines{}
	err := scanLines(r, name, func(line int, f []string) error {
		if len(f) < 6 {
			return fmt.Errorf("%d fields, want 6 (qid Q0 docno rank score tag)", len(f))
		}
		score, err := strconv.ParseFloat(f[4], 64)
		if err != nil || math.IsNaN(score) || math.IsInf(score, 0) {
			return fmt.Errorf("score %q is not a finite number", f[4])
		}
		if err := first.add(f[0], f[2], line, "retrieved"); err != nil {
			return err
		}
		run[f[0]] = append(run[f[0]], ScoredDoc{DocID: f[2], Score: score})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return run, nil
}

func scanLines(r io.Reader, name string, fn func(line int, fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		if err := fn(line, strings.Fields(text)); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return nil
}

// CheckQueryID returns an error when id cannot be the query id of a TREC
// run or qrels line: an empty id or one holding white space, which
// separates the fields, or one starting with '#', which ReadRun and
// ReadQrels take for a comment.
func CheckQueryID(id string) error {
	if err := checkField("query id", id); err != nil {
		return err
	}
	if strings.HasPrefix(id, "#") {
		return fmt.Errorf("query id %q starts with '#': a TREC run or qrels line starting so is read as a comment", id)
	}
	return nil
}

// CheckDocID returns an error when id cannot be the document id of a TREC
// run or qrels line: an empty id or one holding white space, which
// separates the fields.
func CheckDocID(id string) error { return checkField("document id", id) }

// CheckTag returns an error when tag cannot be the run tag of a TREC run
// line: it must be one non-empty word.
func CheckTag(tag string) error { return checkField("run tag", tag) }

// checkField returns an error when s cannot be one white-space-separated
// field (what names it) of a TREC line.
func checkField(what, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty %s: a TREC run or qrels line cannot hold it", what)
	case strings.IndexFunc(s, unicode.IsSpace) >= 0:
		return fmt.Errorf("%s %q holds white space: a TREC run or qrels line cannot hold it (white space separates its fields)", what, s)
	}
	return nil
}

// WriteRun writes run in TREC format, queries in byte order and documents in
// trec_eval rank order, with ranks 1, 2, ... and scores printed with the
// shortest representation that reads back to the same float64, so ties are
// neither created nor lost. Everything is checked before anything is
// written: tag must be one word (CheckTag), every id one field
// (CheckQueryID, CheckDocID) and every score finite.
func WriteRun(w io.Writer, run Run, tag string) error {
	if err := CheckTag(tag); err != nil {
		return fmt.Errorf("ir: %w", err)
	}
	queries := slices.Sorted(maps.Keys(run))
	ranked := make([][]ScoredDoc, len(queries))
	for i, q := range queries {
		if err := CheckQueryID(q); err != nil {
			return fmt.Errorf("ir: %w", err)
		}
		ranked[i] = Rank(run[q])
		for _, d := range ranked[i] {
			if err := CheckDocID(d.DocID); err != nil {
				return fmt.Errorf("ir: %w (query %s)", err, q)
			}
			if math.IsNaN(d.Score) || math.IsInf(d.Score, 0) {
				return fmt.Errorf("ir: query %s document %s: score %v is not finite", q, d.DocID, d.Score)
			}
		}
	}
	bw := bufio.NewWriter(w)
	for i, q := range queries {
		for r, d := range ranked[i] {
			fmt.Fprintf(bw, "%s Q0 %s %d %s %s\n", q, d.DocID, r+1, strconv.FormatFloat(d.Score, 'g', -1, 64), tag)
		}
	}
	return bw.Flush()
}

// WriteQrels writes qrels in TREC format ("qid 0 docno rel"), queries and
// documents in byte order, after checking every id as WriteRun does.
func WriteQrels(w io.Writer, qrels Qrels) error {
	queries := slices.Sorted(maps.Keys(qrels))
	for _, q := range queries {
		if err := CheckQueryID(q); err != nil {
			return fmt.Errorf("ir: %w", err)
		}
		for d := range qrels[q] {
			if err := CheckDocID(d); err != nil {
				return fmt.Errorf("ir: %w (query %s)", err, q)
			}
		}
	}
	bw := bufio.NewWriter(w)
	for _, q := range queries {
		for _, d := range slices.Sorted(maps.Keys(qrels[q])) {
			fmt.Fprintf(bw, "%s 0 %s %d\n", q, d, qrels[q][d])
		}
	}
	return bw.Flush()
}
