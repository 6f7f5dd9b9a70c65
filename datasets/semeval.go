package datasets

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// This file reads SemEval-2016 Task 3 (community question answering,
// Qatar Living forum, English), subtask B: question-question similarity,
// from the three staged files (train part 1 v2.0, train part 2, dev).
//
// Mapping to a Collection:
//   - each distinct OrgQuestion is a Query: ID = ORGQ_ID, Text = subject
//     and body one newline apart, Split "train" (part 1 and part 2) or
//     "dev". An OrgQuestion element is repeated once per related thread
//     (10 times) in the files; repeats are merged, and a repeat whose
//     subject or body differs from the first is an error;
//   - each RelQuestion is a Document: ID = RELQ_ID, Title = RelQSubject,
//     Text = subject and body, Class = RELQ_CATEGORY (the forum category,
//     26 in all), Split = its original question's split;
//   - each RelQuestion gives one Judgment of its document for its original
//     question, with RELQ_RELEVANCE2ORGQ mapped PerfectMatch = 2,
//     Relevant = 1, Irrelevant = 0 and gains equal to the levels.
//
// The comments (RelComment, subtask A/C) are not part of the Collection;
// ReadSemEvalComments reads them. The files open with an inline DTD, which
// encoding/xml passes over as a directive; the decoder streams the files
// one OrgQuestion (or Thread) element at a time.
//
// Quirks reported as Warnings: some related questions have an empty body
// (their text is the subject alone), and in train part 2 and dev many
// threads carry SubtaskA_Skip_Because_Same_As_RelQuestion_ID, meaning the
// same forum question appears again under another RELQ_ID (with its own
// judgment for another original question); they stay separate documents.

// semevalFile is one staged XML file with its split.
type semevalFile struct{ path, split string }

// semevalFiles are the staged files of "semeval2016" (train and dev), in
// reading order.
var semevalFiles = []semevalFile{
	{"semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml.gz", "train"},
	{"semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-train-part2.xml.gz", "train"},
	{"semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-dev.xml.gz", "dev"},
}

// semevalTestFile is the 2016 test set with its inline gold labels, read by
// "semeval2016-all" only, so that "semeval2016" (and every result computed
// on it) is unchanged.
var semevalTestFile = semevalFile{"semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-test.xml.gz", "test"}

// semevalLevels maps RELQ_RELEVANCE2ORGQ to a relevance level.
var semevalLevels = map[string]int{"PerfectMatch": 2, "Relevant": 1, "Irrelevant": 0}

type semevalOrgQuestion struct {
	ID      string `xml:"ORGQ_ID,attr"`
	Subject string `xml:"OrgQSubject"`
	Body    string `xml:"OrgQBody"`
	Threads []struct {
		SameAs string `xml:"SubtaskA_Skip_Because_Same_As_RelQuestion_ID,attr"`
		Rel    []struct {
			ID        string `xml:"RELQ_ID,attr"`
			Category  string `xml:"RELQ_CATEGORY,attr"`
			Relevance string `xml:"RELQ_RELEVANCE2ORGQ,attr"`
			Subject   string `xml:"RelQSubject"`
			Body      string `xml:"RelQBody"`
		} `xml:"RelQuestion"`
	} `xml:"Thread"`
}

// ReadSemEval2016 reads the three SemEval-2016 Task 3 files below
// dataDir/semeval2016_task3_cqa_partial.
func ReadSemEval2016(dataDir string) (*Collection, error) {
	return readSemEval(dataDir, "semeval2016", semevalFiles)
}

// ReadSemEval2016All reads "semeval2016-all": the files of ReadSemEval2016
// and the 2016 test set (split "test"): 290 original questions, 2,483 judged
// related questions in 26 categories, the official train / dev / test split.
func ReadSemEval2016All(dataDir string) (*Collection, error) {
	return readSemEval(dataDir, "semeval2016-all", append(append([]semevalFile(nil), semevalFiles...), semevalTestFile))
}

func readSemEval(dataDir, name string, files []semevalFile) (*Collection, error) {
	c := &Collection{
		Name:  name,
		Gains: map[int]float64{2: 2, 1: 1, 0: 0},
		GainNote: "SemEval-2016 Task 3 RELQ_RELEVANCE2ORGQ: PerfectMatch = level 2 (gain 2), " +
			"Relevant = 1 (gain 1), Irrelevant = 0 (gain 0, not relevant)",
	}
	s := &semevalState{c: c, queries: map[string]semevalQuery{}, docs: map[string]string{}, classes: map[string]bool{}}
	for _, f := range files {
		p := filepath.Join(dataDir, filepath.FromSlash(f.path))
		if err := s.readFile(p, filepath.Base(f.path), f.split); err != nil {
			return nil, err
		}
	}
	for cl := range s.classes {
		c.Classes = append(c.Classes, cl)
	}
	sort.Strings(c.Classes)
	return c, nil
}

type semevalQuery struct {
	subject, body, file string
	line                int
}

type semevalState struct {
	c       *Collection
	queries map[string]semevalQuery // ORGQ_ID -> first occurrence
	docs    map[string]string       // RELQ_ID -> file where seen
	classes map[string]bool
}

// readFile streams one XML file, adding its queries, documents and
// judgments.
func (s *semevalState) readFile(path, base, split string) error {
	emptyBody, sameAs := 0, 0
	err := eachSemEvalElement(path, "OrgQuestion", func(oq *semevalOrgQuestion, line int) error {
		where := fmt.Sprintf("%s: OrgQuestion starting at line %d", path, line)
		if oq.ID == "" {
			return fmt.Errorf("%s: expected an ORGQ_ID attribute", where)
		}
		subject, body := strings.TrimSpace(oq.Subject), strings.TrimSpace(oq.Body)
		if prev, seen := s.queries[oq.ID]; seen {
			if prev.file != base {
				return fmt.Errorf("%s: ORGQ_ID %s already used in %s", where, oq.ID, prev.file)
			}
			if prev.subject != subject || prev.body != body {
				// The 2016 test file repeats Q326 once with its subject and
				// body quoted ("…"): the same question, kept as first read.
				if unquoted(prev.subject) != unquoted(subject) || unquoted(prev.body) != unquoted(body) {
					return fmt.Errorf("%s: ORGQ_ID %s repeats with a different subject or body than at line %d", where, oq.ID, prev.line)
				}
				s.c.Warnings = append(s.c.Warnings, fmt.Sprintf("%s: ORGQ_ID %s repeats with its subject or body quoted differently than at line %d; the first is kept", where, oq.ID, prev.line))
			}
		} else {
			s.queries[oq.ID] = semevalQuery{subject: subject, body: body, file: base, line: line}
			s.c.Queries = append(s.c.Queries, Query{ID: oq.ID, Text: irJoinText(subject, body), Split: split})
		}
		if len(oq.Threads) == 0 {
			return fmt.Errorf("%s: ORGQ_ID %s has no Thread", where, oq.ID)
		}
		for _, th := range oq.Threads {
			if len(th.Rel) != 1 {
				return fmt.Errorf("%s: expected one RelQuestion per Thread, got %d", where, len(th.Rel))
			}
			rq := th.Rel[0]
			if rq.ID == "" || rq.Category == "" {
				return fmt.Errorf("%s: RelQuestion %q: expected RELQ_ID and RELQ_CATEGORY attributes", where, rq.ID)
			}
			level, ok := semevalLevels[rq.Relevance]
			if !ok {
				return fmt.Errorf("%s: RelQuestion %s: RELQ_RELEVANCE2ORGQ is %q, expected PerfectMatch, Relevant or Irrelevant", where, rq.ID, rq.Relevance)
			}
			if f, dup := s.docs[rq.ID]; dup {
				return fmt.Errorf("%s: RELQ_ID %s already used in %s", where, rq.ID, f)
			}
			s.docs[rq.ID] = base
			rs, rb := strings.TrimSpace(rq.Subject), strings.TrimSpace(rq.Body)
			if rb == "" {
				emptyBody++
			}
			if th.SameAs != "" {
				sameAs++
			}
			s.classes[rq.Category] = true
			s.c.Docs = append(s.c.Docs, Document{ID: rq.ID, Title: rs, Text: irJoinText(rs, rb), Class: rq.Category, Split: split})
			s.c.Qrels = append(s.c.Qrels, Judgment{QueryID: oq.ID, DocID: rq.ID, Level: level})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if emptyBody > 0 {
		s.c.Warnings = append(s.c.Warnings, fmt.Sprintf("%s: %d related questions have an empty body; their text is the subject alone", base, emptyBody))
	}
	if sameAs > 0 {
		s.c.Warnings = append(s.c.Warnings, fmt.Sprintf("%s: %d threads are marked SubtaskA_Skip_Because_Same_As_RelQuestion_ID (the same forum question under another RELQ_ID); kept as separate documents", base, sameAs))
	}
	return nil
}

// unquoted is s without the double quotes and white space around it.
func unquoted(s string) string { return strings.Trim(s, "\" \t\r\n") }

// eachSemEvalElement streams the XML file at path (gzip-compressed when
// its name ends in .gz) and decodes every element named name, in file
// order, into a fresh T for each, with the line where the element starts.
// An error names the file and the line: a truncated file, malformed XML, or
// what each returns.
func eachSemEvalElement[T any](path, name string, each func(v *T, line int) error) error {
	rc, err := OpenMaybeGzip(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := xml.NewDecoder(rc)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		line, _ := dec.InputPos()
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("%s: truncated or corrupt file near line %d: %w", path, line, err)
			}
			return fmt.Errorf("%s: line %d: malformed XML: %w", path, line, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != name {
			continue
		}
		var v T
		if err := dec.DecodeElement(&v, &se); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("%s: truncated or corrupt file in %s starting at line %d: %w", path, name, line, err)
			}
			return fmt.Errorf("%s: %s starting at line %d: malformed XML: %w", path, name, line, err)
		}
		if err := each(&v, line); err != nil {
			return err
		}
	}
}

// semevalThread is the part of a Thread that ReadSemEvalComments reads.
type semevalThread struct {
	Rel struct {
		ID      string `xml:"RELQ_ID,attr"`
		Subject string `xml:"RelQSubject"`
		Body    string `xml:"RelQBody"`
	} `xml:"RelQuestion"`
	Comments []struct {
		Text string `xml:"RelCText"`
	} `xml:"RelComment"`
}

// ReadSemEvalComments reads the question–comment pairs of one SemEval-2016
// Task 3 XML file (subtask A's RelComment elements, which the Collection
// leaves out): for every comment of every Thread, the thread's related
// question (subject and body trimmed, one newline apart, the newline kept
// when the body is empty) and the comment's text as it stands.
func ReadSemEvalComments(path string) (questions, comments []string, err error) {
	err = eachSemEvalElement(path, "Thread", func(th *semevalThread, line int) error {
		if th.Rel.ID == "" {
			return fmt.Errorf("%s: Thread starting at line %d: RelQuestion without RELQ_ID", path, line)
		}
		q := strings.TrimSpace(th.Rel.Subject) + "\n" + strings.TrimSpace(th.Rel.Body)
		for _, c := range th.Comments {
			questions = append(questions, q)
			comments = append(comments, c.Text)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return questions, comments, nil
}
