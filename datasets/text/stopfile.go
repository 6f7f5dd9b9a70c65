package text

import (
	"fmt"
	"os"
	"strings"

	"github.com/topicmf/topicmf/datasets"
)

// StopSpec reads a stop-list specification as fit's --stop takes it: a
// list name (none, smart, terrier, nltk, cacm), a file of one's own (one
// word a line, datasets.ReadStopWordFile), or NAME+FILE, a named list and
// a file's words together ("smart+mystop.txt"). It returns the list name
// for Options.StopList and the file's words for Options.ExtraStopWords
// (none for a plain name). A name is looked for first, so a file called
// "smart" must be given as "./smart".
func StopSpec(spec string) (list string, extra []string, err error) {
	if _, err := StopListPath(spec); err == nil {
		return spec, nil, nil
	}
	list, file := StopNone, spec
	if name, rest, ok := strings.Cut(spec, "+"); ok {
		if _, err := StopListPath(name); err == nil {
			list, file = name, rest
		}
	}
	if fi, err := os.Stat(file); err != nil || fi.IsDir() {
		return "", nil, fmt.Errorf("neither a stop list (known: none, %s), nor a file of stop words (one a line), nor LIST+FILE", strings.Join(StopLists, ", "))
	}
	words, err := datasets.ReadStopWordFile(file)
	if err != nil {
		return "", nil, err
	}
	return list, words, nil
}
