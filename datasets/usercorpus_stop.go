package datasets

import (
	"fmt"
	"os"
	"unicode/utf8"
)

// ReadStopWordFile reads a user's stop-word file (fit --stop FILE): one
// word a line, blank lines skipped, surrounding white space trimmed; a line
// holding two words is an error naming it, as is text that is not UTF-8
// (a stop word decoded wrongly would silently match nothing). The words are
// returned as written; the text pipeline tokenizes them as it tokenizes
// the documents (text.Options.ExtraStopWords).
func ReadStopWordFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	words, lines, err := scanWordLines(path, skipBOM(f))
	if err != nil {
		return nil, err
	}
	for i, w := range words {
		if !utf8.ValidString(w) {
			return nil, fmt.Errorf("%s: line %d: not valid UTF-8", path, lines[i])
		}
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("%s: no stop words (want one word a line)", path)
	}
	return words, nil
}
