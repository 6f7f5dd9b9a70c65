package datasets

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// This file reads TREC topic files (FormatTRECTopics), the queries of the
// TREC ad hoc tasks:
//
//	<top>
//	<num> Number: 051
//	<title> Topic: Airbus Subsidies
//	<desc> Description:
//	Document will discuss government assistance to Airbus Industrie, ...
//	<narr> Narrative:
//	...
//	</top>
//
// The fields' tags are not closed in the classic files (a field runs to the
// next tag); closing tags (</title>), as later tracks write them, are
// allowed. Tag names are matched without regard to case. A field's leading
// label ("Number:", "Topic:", "Description:", "Narrative:") is dropped. The
// id is <num>'s content, a decimal number without its leading zeros ("051"
// is topic 51, as TREC's qrels name it), any other id as written. The
// query's text is the fields UserOptions.TopicFields names ("title" by
// default, TREC's short queries; "title,desc" for longer ones), joined.

// TopicFields are the fields of a TREC topic that can make a query's text.
var TopicFields = []string{"title", "desc", "narr"}

// maxTopicFile bounds a topic file (topic files are kilobytes).
const maxTopicFile = 64 << 20

// topicLabels are the labels a field's content starts with.
var topicLabels = map[string]string{"num": "number:", "title": "topic:", "desc": "description:", "narr": "narrative:"}

// readUserTRECTopics reads a TREC topic file as a collection whose
// documents are the topics (rank reads its --queries this way).
func readUserTRECTopics(path string, fields []string) (*Collection, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := maybeGunzip(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b, err := io.ReadAll(io.LimitReader(skipBOM(r), maxTopicFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxTopicFile {
		return nil, fmt.Errorf("%s: longer than %d MiB; not a TREC topic file", path, maxTopicFile>>20)
	}
	s, l1 := utf8OrLatin1(b)
	docs, err := parseTRECTopics(s, path, fields)
	if err != nil {
		return nil, err
	}
	c := &Collection{Docs: docs}
	if l1 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: not valid UTF-8, decoded as Latin-1", path))
	}
	return c, nil
}

// ParseTopicFields checks a comma-separated list of topic fields ("" is
// "title").
func ParseTopicFields(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return []string{"title"}, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		known := false
		for _, k := range TopicFields {
			known = known || f == k
		}
		if !known {
			return nil, fmt.Errorf("topic field %q: want one of %s", f, strings.Join(TopicFields, ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

// parseTRECTopics parses the <top> elements of s.
func parseTRECTopics(s, path string, fields []string) ([]Document, error) {
	var docs []Document
	seen := map[string]string{}
	lineAt := func(i int) int { return strings.Count(s[:i], "\n") + 1 }
	for i := 0; ; {
		rest := strings.TrimLeft(s[i:], " \t\r\n")
		if rest == "" {
			break
		}
		at := len(s) - len(rest)
		if !hasPrefixFold([]byte(rest), "<top>") {
			return nil, fmt.Errorf("%s: line %d: text outside a <top> element: %q", path, lineAt(at), Elide(strings.SplitN(rest, "\n", 2)[0], 40))
		}
		body := rest[len("<top>"):]
		end := indexFold([]byte(body), "</top>")
		if end < 0 {
			return nil, fmt.Errorf("%s: line %d: <top> not closed by </top>", path, lineAt(at))
		}
		body = body[:end]
		i = at + len("<top>") + end + len("</top>")
		where := fmt.Sprintf("%s: line %d", path, lineAt(at))
		d, err := trecTopic(body, fields)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if err := checkID(seen, d.ID, where); err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%s: no <top> elements", path)
	}
	return docs, nil
}

// trecTopic reads one topic's fields.
func trecTopic(body string, fields []string) (Document, error) {
	get := func(tag string) (string, bool) {
		es := trecElements(body, tag)
		if len(es) == 0 {
			return "", false
		}
		t := es[0].text
		if j := strings.IndexByte(t, '<'); j >= 0 { // runs to the next tag
			t = t[:j]
		}
		t = strings.TrimSpace(t)
		if label := topicLabels[tag]; len(t) >= len(label) && strings.EqualFold(t[:len(label)], label) {
			t = strings.TrimSpace(t[len(label):])
		}
		return strings.Join(strings.Fields(t), " "), true
	}
	num, ok := get("num")
	if !ok || num == "" {
		return Document{}, fmt.Errorf("<top> without a <num>")
	}
	if n, err := strconv.ParseUint(num, 10, 63); err == nil {
		num = strconv.FormatUint(n, 10)
	}
	var parts []string
	title := ""
	for _, f := range fields {
		t, ok := get(f)
		if !ok {
			return Document{}, fmt.Errorf("topic %s has no <%s>", num, f)
		}
		if f == "title" {
			title = t
		}
		if t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return Document{}, fmt.Errorf("topic %s: its %s is empty", num, strings.Join(fields, " and "))
	}
	return Document{ID: num, Title: title, Text: strings.Join(parts, "\n")}, nil
}
