package text

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicmf/topicmf/datasets"
)

// Stop-list names accepted by Options.StopList and ReadStopList. The files
// live below the data directory in stopwords/ (see
// ../shared/datasets/stopwords/SOURCE.md for their provenance).
const (
	StopNone    = "none"    // no stop list
	StopSMART   = "smart"   // SMART 571 (Lewis et al., RCV1, JMLR 2004, appendix 11)
	StopTerrier = "terrier" // Terrier's default English list, 733 words
	StopCACM    = "cacm"    // CACM SMART common_words, 429 entries
	StopNLTK    = "nltk"    // NLTK english (Snowball list augmented by NLTK), 179 words
)

// StopLists are the known stop-list names other than StopNone.
var StopLists = []string{StopCACM, StopNLTK, StopSMART, StopTerrier}

// StopListPath returns the path, relative to the data directory, of the
// file a stop list is read from ("" for StopNone), so that callers can put
// its checksum into a cache key.
func StopListPath(name string) (string, error) {
	switch name {
	case StopNone, "":
		return "", nil
	case StopSMART:
		return "stopwords/smart_english.stop.turian", nil
	case StopTerrier:
		return "stopwords/terrier_stopword-list.txt", nil
	case StopCACM:
		return "stopwords/cacm_smart_common_words", nil
	case StopNLTK:
		return "stopwords/nltk_stopwords.zip", nil
	}
	return "", fmt.Errorf("unknown stop list %q (known: none, %s)", name, strings.Join(StopLists, ", "))
}

// ReadStopList reads the named list from the data directory dataDir and
// returns its entries as written in the file (not yet tokenized).
func ReadStopList(dataDir, name string) ([]string, error) {
	rel, err := StopListPath(name)
	if err != nil || rel == "" {
		return nil, err
	}
	path := filepath.Join(dataDir, rel)
	switch name {
	case StopSMART:
		return ReadSMART(path)
	case StopNLTK:
		return ReadNLTK(path, "english")
	default:
		return ReadWordList(path)
	}
}

// smartAdded is the number of lines turian/pytextpreprocess added above the
// SMART list ('d 'll 'm 'n n't 're 's 've); the 571 SMART words are lines
// 9–579.
const smartAdded = 8

// ReadSMART reads the SMART 571-word list from turian's english.stop: it
// skips the first 8 lines (words that file adds above "a") and checks that
// what follows starts with "a".
func ReadSMART(path string) ([]string, error) {
	all, err := ReadWordList(path)
	if err != nil {
		return nil, err
	}
	if len(all) <= smartAdded || all[smartAdded] != "a" {
		return nil, fmt.Errorf("%s: expected the SMART list to start with \"a\" at line %d (after %d added lines); is this turian's english.stop?", path, smartAdded+1, smartAdded)
	}
	return all[smartAdded:], nil
}

// ReadWordList reads a list with one entry per line, trimming spaces and
// skipping empty lines (the Terrier and CACM lists, and the SMART file).
func ReadWordList(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	words, err := readLines(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return words, nil
}

// ReadNLTK reads the list of one language (member stopwords/<lang>) from
// NLTK's stopwords.zip.
func ReadNLTK(zipPath, lang string) ([]string, error) {
	member := "stopwords/" + lang
	var words []string
	found := false
	err := datasets.EachZipMember(zipPath, func(name string, r io.Reader) error {
		if name != member {
			return nil
		}
		found = true
		var err error
		words, err = readLines(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%s: no member %s", zipPath, member)
	}
	return words, nil
}

func readLines(r io.Reader) ([]string, error) {
	var words []string
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		w := strings.TrimSpace(sc.Text())
		if w != "" {
			words = append(words, w)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d too long for a word list", line+1)
		}
		return nil, err
	}
	return words, nil
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
