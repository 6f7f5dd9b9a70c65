package text

import (
	"bytes"
	"embed"
	"fmt"
	"strings"

	"github.com/topicmf/topicmf/datasets"
)

// Stop-list names accepted by Options.StopList and ReadStopList. smart,
// terrier and nltk are embedded in the binary (stopwords/SOURCE.md gives
// their provenance and licences); cacm, whose licence is not stated, is read
// from the data directory's stopwords/ folder.
const (
	StopNone    = "none"               // no stop list
	StopSMART   = datasets.StopSMART   // SMART 571 (Lewis et al., RCV1, JMLR 2004, appendix 11); the default
	StopTerrier = datasets.StopTerrier // Terrier's default English list, 733 words
	StopCACM    = datasets.StopCACM    // CACM SMART common_words, 429 entries
	StopNLTK    = datasets.StopNLTK    // NLTK english (Snowball list augmented by NLTK), 179 words
)

// StopLists are the known stop-list names other than StopNone.
var StopLists = []string{StopCACM, StopNLTK, StopSMART, StopTerrier}

//go:embed stopwords/smart_english.stop stopwords/terrier_stopword-list.txt stopwords/nltk_english
var embedded embed.FS

// embeddedFile names the embedded copy of each list that has one.
var embeddedFile = map[string]string{
	StopSMART:   "stopwords/smart_english.stop",
	StopTerrier: "stopwords/terrier_stopword-list.txt",
	StopNLTK:    "stopwords/nltk_english",
}

// IsEmbedded reports whether the named list is compiled into the binary
// (and so needs no data directory).
func IsEmbedded(name string) bool {
	if name == "" {
		name = StopSMART
	}
	_, ok := embeddedFile[name]
	return ok
}

// StopListPath returns the path, relative to the data directory, of the
// registered file a stop list comes from ("" for StopNone; "" means
// StopSMART, the default), so that callers can put its checksum into a
// cache key. The embedded copies are byte-identical to those files (the
// NLTK one is the zip's stopwords/english member).
func StopListPath(name string) (string, error) {
	switch name {
	case StopNone:
		return "", nil
	case "":
		name = StopSMART
	}
	f, err := datasets.StopListFile(name)
	if err != nil {
		return "", fmt.Errorf("unknown stop list %q (known: none, %s)", name, strings.Join(StopLists, ", "))
	}
	return f.Path, nil
}

// StopList returns the entries of an embedded list as written in its file
// (not yet tokenized); "" means StopSMART. It is an error for StopNone, for
// an unknown name and for a list that is not embedded (cacm: see
// ReadStopList).
func StopList(name string) ([]string, error) {
	if name == "" {
		name = StopSMART
	}
	file, ok := embeddedFile[name]
	if !ok {
		if _, err := StopListPath(name); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("stop list %q is not embedded; read it from the data directory with ReadStopList", name)
	}
	b, err := embedded.ReadFile(file)
	if err != nil { // cannot happen: the file is compiled in
		panic(err)
	}
	return datasets.ParseStopList(name, "embedded "+file, bytes.NewReader(b))
}

// ReadStopList reads the named list from the data directory dataDir and
// returns its entries as written in the file (not yet tokenized), as
// datasets.StopWords does; "" means StopSMART and StopNone gives no entries.
func ReadStopList(dataDir, name string) ([]string, error) {
	rel, err := StopListPath(name)
	if err != nil || rel == "" {
		return nil, err
	}
	if name == "" {
		name = StopSMART
	}
	return datasets.StopWords(dataDir, name)
}

// StopSet turns stop-list entries into the set of tokens removed from text:
// every entry is lower-cased and tokenized with Tokenize and each piece is a
// stop word ("don't" → "don", "t"). See the package documentation.
func StopSet(lists ...[]string) map[string]struct{} {
	set := make(map[string]struct{})
	for _, l := range lists {
		for _, w := range l {
			for _, tok := range Tokenize(w) {
				set[tok] = struct{}{}
			}
		}
	}
	return set
}
