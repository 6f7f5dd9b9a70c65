package datasets

import (
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
)

// NewsgroupsFile is the 20 Newsgroups bydate archive below the data
// directory (see 20newsgroups/SOURCE.md).
const NewsgroupsFile = "20newsgroups/20news-bydate.tar.gz"

// NewsgroupsOptions selects what ReadNewsgroupsArchive keeps of a message.
// The zero value is the default reading.
type NewsgroupsOptions struct {
	// KeepHeaders keeps the whole message (every Usenet header, the blank
	// line and the body) as Text. By default Text is the Subject value and
	// the body, and the other headers are dropped: From, Organization,
	// Lines, NNTP-Posting-Host and the like name the poster's site rather
	// than the topic and make classification unrealistically easy.
	KeepHeaders bool
}

// ReadNewsgroups reads the 20 Newsgroups "bydate" collection from the data
// directory with the default options: 18,846 posts, 11,314 train and 7,532
// test, 20 classes.
func ReadNewsgroups(dataDir string) (*Collection, error) {
	return ReadNewsgroupsArchive(dataFilePath(dataDir, NewsgroupsFile), NewsgroupsOptions{})
}

// ReadNewsgroupsArchive reads a 20news-bydate.tar.gz archive, streaming its
// members (the archive is never loaded whole). The layout is Rennie's:
// 20news-bydate-{train,test}/<newsgroup>/<message number>.
//
// Each Document has ID "<split>/<newsgroup>/<number>" (e.g.
// "train/alt.atheism/49960"), Class the newsgroup, Split "train" or "test"
// from the top directory, Title the Subject value, and Text the Subject
// value, a blank line and the body (see NewsgroupsOptions). Quirks handled:
//   - the header block ends at the first empty line (a lone "\r" counts as
//     empty: a few messages have CRLF header lines);
//   - only the first physical line of the Subject header is taken: in this
//     release the "continuation" lines under Subject (and the indented lines
//     opening some header blocks) are leftovers of the References and Path
//     headers that were stripped, lists of message ids and hosts;
//   - a message that is not valid UTF-8 is decoded as Latin-1 (Rennie's
//     original files have a few such bytes; the staged copy has none) and
//     counted in Warnings;
//   - hidden files (names starting with ".", e.g. a stray .DS_Store) are
//     skipped and counted in Warnings; any other member outside the layout
//     is an error.
//
// Documents are sorted by split (train, then test), newsgroup and message
// number, so the order does not depend on the archive's member order.
func ReadNewsgroupsArchive(archive string, opt NewsgroupsOptions) (*Collection, error) {
	type item struct {
		doc   Document
		split int
		num   int
	}
	var items []item
	var latin1, hidden, noSubject, noBlank int
	err := EachTarGzMember(archive, func(name string, r io.Reader) error {
		split, group, num, skip, err := parseNewsgroupsMember(name)
		if err != nil {
			return err
		}
		if skip {
			hidden++
			return nil
		}
		raw, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		msg, wasLatin1 := utf8OrLatin1(raw)
		if wasLatin1 {
			latin1++
		}
		subject, body, hasSubject, hasBlank := splitUsenetMessage(msg)
		if !hasSubject {
			noSubject++
		}
		if !hasBlank {
			noBlank++
		}
		text := msg
		if !opt.KeepHeaders {
			text = body
			if subject != "" {
				text = subject + "\n\n" + body
			}
		}
		splitName := [...]string{"train", "test"}[split]
		n, _ := strconv.Atoi(num)
		items = append(items, item{
			doc: Document{
				ID:    splitName + "/" + group + "/" + num,
				Title: subject,
				Text:  text,
				Class: group,
				Split: splitName,
			},
			split: split, num: n,
		})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("20newsgroups: %w", err)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("20newsgroups: %s: no messages found (expected members 20news-bydate-{train,test}/<group>/<number>)", archive)
	}
	sort.Slice(items, func(a, b int) bool {
		x, y := items[a], items[b]
		if x.split != y.split {
			return x.split < y.split
		}
		if x.doc.Class != y.doc.Class {
			return x.doc.Class < y.doc.Class
		}
		return x.num < y.num
	})
	c := &Collection{Name: "20newsgroups", Docs: make([]Document, len(items))}
	seen := map[string]bool{}
	for i, it := range items {
		if i > 0 && it.doc.ID == items[i-1].doc.ID {
			return nil, fmt.Errorf("20newsgroups: %s: message %q appears twice", archive, it.doc.ID)
		}
		c.Docs[i] = it.doc
		if !seen[it.doc.Class] {
			seen[it.doc.Class] = true
			c.Classes = append(c.Classes, it.doc.Class)
		}
	}
	sort.Strings(c.Classes)
	c.warnCount(latin1, "20newsgroups: %d messages were not valid UTF-8 and were decoded as Latin-1")
	c.warnCount(hidden, "20newsgroups: %d hidden files (e.g. .DS_Store) skipped")
	c.warnCount(noSubject, "20newsgroups: %d messages have no Subject header")
	c.warnCount(noBlank, "20newsgroups: %d messages have no blank line after the headers (read as headers only, empty body)")
	return c, nil
}

// parseNewsgroupsMember splits a member name
// "20news-bydate-<split>/<group>/<number>" (optionally under "./"). split
// is 0 for train, 1 for test. skip reports a hidden file to ignore.
func parseNewsgroupsMember(name string) (split int, group, num string, skip bool, err error) {
	clean := strings.TrimPrefix(name, "./")
	if strings.HasPrefix(path.Base(clean), ".") {
		return 0, "", "", true, nil
	}
	parts := strings.Split(clean, "/")
	bad := func(why string) error {
		return fmt.Errorf("unexpected member %q: %s (expected 20news-bydate-train/<newsgroup>/<number> or 20news-bydate-test/...)", name, why)
	}
	if len(parts) != 3 {
		return 0, "", "", false, bad("not three path elements")
	}
	switch parts[0] {
	case "20news-bydate-train":
		split = 0
	case "20news-bydate-test":
		split = 1
	default:
		return 0, "", "", false, bad("top directory is neither 20news-bydate-train nor 20news-bydate-test")
	}
	group, num = parts[1], parts[2]
	if group == "" {
		return 0, "", "", false, bad("empty newsgroup name")
	}
	if !textIsDigits(num) {
		return 0, "", "", false, bad("message name is not a number")
	}
	if _, err := strconv.Atoi(num); err != nil {
		return 0, "", "", false, bad("message number out of range")
	}
	return split, group, num, false, nil
}

// splitUsenetMessage returns the value of the first Subject header (its
// first physical line, trimmed) and the body after the first empty line.
// hasBlank is false when the message has no empty line, in which case it
// is all headers and body is "".
func splitUsenetMessage(msg string) (subject, body string, hasSubject, hasBlank bool) {
	rest := msg
	for len(rest) > 0 {
		line := rest
		next := ""
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, next = rest[:i], rest[i+1:]
		}
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			return subject, next, hasSubject, true
		}
		if !hasSubject && len(line) >= 8 && strings.EqualFold(line[:8], "Subject:") {
			subject = strings.TrimSpace(line[8:])
			hasSubject = true
		}
		rest = next
	}
	return subject, "", hasSubject, false
}
