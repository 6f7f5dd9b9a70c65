package datasets

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"unicode"
)

// ReadLabelsFile reads the class labels of a run's documents (topicmf eval
// --labels), docIDs being the run's documents in order (doc_ids.txt). Two
// layouts are read: one label a line in document order, as fit writes
// labels.txt (as many lines as documents); or "id<TAB>label" lines naming
// documents by id, in any order, a document left out being unlabelled. The
// second is chosen when every non-blank line holds a tab. "" and "-" mean
// no label. It returns one label per document of docIDs, and a warning
// when ids that are not documents of the run were skipped.
func ReadLabelsFile(path string, docIDs []string) (labels []string, warnings []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(skipBOM(f))
	sc.Buffer(make([]byte, 4096), 1<<20)
	var lines []string
	tabbed := true
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), "\r")
		if strings.ContainsFunc(l, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) {
			return nil, nil, fmt.Errorf("%s: line %d: a control character in a label", path, len(lines)+1)
		}
		lines = append(lines, l)
		if strings.TrimSpace(l) != "" && !strings.Contains(l, "\t") {
			tabbed = false
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: line %d: %w", path, len(lines)+1, err)
	}
	if len(lines) == 0 {
		return nil, nil, fmt.Errorf("%s: empty", path)
	}
	if !tabbed {
		for len(lines) > len(docIDs) && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) != len(docIDs) {
			return nil, nil, fmt.Errorf("%s: %d labels for %d documents (one label a line in document order, or id<TAB>label lines)", path, len(lines), len(docIDs))
		}
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		return lines, nil, nil
	}
	pos := make(map[string]int, len(docIDs))
	for i, id := range docIDs {
		pos[id] = i
	}
	out := make([]string, len(docIDs))
	seen := map[string]int{}
	unknown, firstUnknown := 0, ""
	for n, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		id, label, _ := strings.Cut(l, "\t")
		id, label = strings.TrimSpace(id), strings.TrimSpace(label)
		if first, dup := seen[id]; dup {
			return nil, nil, fmt.Errorf("%s: line %d: document %q labelled again (first on line %d)", path, n+1, Elide(id, 40), first)
		}
		seen[id] = n + 1
		i, ok := pos[id]
		if !ok {
			if unknown == 0 {
				firstUnknown = id
			}
			unknown++
			continue
		}
		out[i] = label
	}
	if unknown == len(seen) {
		return nil, nil, fmt.Errorf("%s: none of its %d ids is a document of the run (the first: %q)", path, unknown, Elide(firstUnknown, 40))
	}
	if unknown > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: %d of its %d ids are not documents of the run and were skipped (the first: %q)", path, unknown, len(seen), Elide(firstUnknown, 40)))
	}
	return out, warnings, nil
}
