package datasets

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
)

// Stop-word list names accepted by StopWords.
const (
	// StopSMART is the 571-word SMART list (Lewis et al., JMLR 2004,
	// appendix 11): lines 9-579 of stopwords/smart_english.stop.turian,
	// whose first 8 lines are contractions added by that copy's author.
	StopSMART = "smart"
	// StopCACM is the older 429-word SMART "common_words" of the CACM
	// distribution.
	StopCACM = "cacm"
	// StopNLTK is NLTK's 179-word English list (stopwords/english inside
	// stopwords/nltk_stopwords.zip).
	StopNLTK = "nltk"
	// StopTerrier is Terrier's 733-word default English list.
	StopTerrier = "terrier"
)

// StopListNames are the lists StopWords knows, in the order the "stopwords"
// source returns them.
var StopListNames = []string{StopSMART, StopCACM, StopNLTK, StopTerrier}

// stopFiles are the four staged stop-word files, in the order of
// StopListNames (stopwords/SOURCE.md gives their origins; digests as in
// SHA256SUMS).
var stopFiles = []File{
	{
		Path:   "stopwords/smart_english.stop.turian",
		URL:    "https://raw.githubusercontent.com/turian/pytextpreprocess/58e81fc666f26198c687ff0f310550769a043152/english.stop",
		SHA256: "e6b62fd83673b034159309736592e7065fb68c5945a8f573b8b1959799e96e0d",
		Size:   3617,
	},
	{
		Path:   "stopwords/cacm_smart_common_words",
		URL:    "https://raw.githubusercontent.com/smaccall/cps842_Assign1/e600d7602d5efa0a51abba629dada18a5df067f0/cacm.tar",
		Member: "common_words",
		SHA256: "764c71ff1764b7745dc0df87c97646b50c56c989284997ad5c5182f41366dec3",
		Size:   2668,
	},
	{
		Path:   "stopwords/nltk_stopwords.zip",
		URL:    "https://raw.githubusercontent.com/nltk/nltk_data/5db857e6f7df11eabb5e5665836db9ec8df07e28/packages/corpora/stopwords.zip",
		SHA256: "15c94179887425ca1bedc265608cab9f27d650211f709bb929e320990a4b01d1",
		Size:   34276,
	},
	{
		Path:   "stopwords/terrier_stopword-list.txt",
		URL:    "https://raw.githubusercontent.com/terrier-org/terrier-core/3ceec7d89cb943a56e4bf298b00897d4221d0002/share/stopword-list.txt",
		SHA256: "e898516899c485739ca1fef24f6b2590ecf95cd06ba22e66587f64b079610999",
		Size:   5230,
	},
}

// stopSources registers the stop-word lists as the source "stopwords", so
// that their files are listed, verified and fetched like any collection's.
//
// They are not a document collection. Read returns a Collection with one
// Document per list (ID = list name as in StopListNames, Title = its
// description, Text = its words one per line, in file order), no classes,
// queries or judgments, and a warning saying so; code that wants the words
// calls StopWords.
func stopSources() []Source {
	return []Source{{
		Name:        "stopwords",
		Description: "English stop-word lists (SMART 571, CACM common words 429, NLTK 179, Terrier 733); not a document collection",
		Files:       stopFiles,
		Read:        readStopLists,
	}}
}

func readStopLists(dataDir string) (*Collection, error) {
	c := &Collection{
		Name:     "stopwords",
		Warnings: []string{"stop-word lists, one document per list; not a document collection"},
	}
	for _, name := range StopListNames {
		words, err := StopWords(dataDir, name)
		if err != nil {
			return nil, err
		}
		c.Docs = append(c.Docs, Document{ID: name, Title: stopDescription[name], Text: strings.Join(words, "\n")})
	}
	return c, nil
}

var stopDescription = map[string]string{
	StopSMART:   "SMART stop list, 571 words (Lewis et al. 2004, appendix 11)",
	StopCACM:    "SMART common_words of the CACM distribution, 429 words",
	StopNLTK:    "NLTK English stop words, 179 words",
	StopTerrier: "Terrier default English stop list, 733 words",
}

// StopListFile returns the registered file the named list (StopSMART,
// StopCACM, StopNLTK or StopTerrier) is read from.
func StopListFile(list string) (File, error) {
	if i := slices.Index(StopListNames, list); i >= 0 {
		return stopFiles[i], nil
	}
	return File{}, fmt.Errorf("unknown stop-word list %q (known: %s)", list, strings.Join(StopListNames, ", "))
}

// smartAdded are the 8 lines the turian copy put above the SMART list.
var smartAdded = []string{"'d", "'ll", "'m", "'n", "n't", "'re", "'s", "'ve"}

// StopWords returns the named stop-word list (StopSMART, StopCACM, StopNLTK
// or StopTerrier) from the data directory, in file order, one entry per
// non-empty line with surrounding white space removed.
func StopWords(dataDir, list string) ([]string, error) {
	f, err := StopListFile(list)
	if err != nil {
		return nil, err
	}
	local, err := LocalPath(dataDir, f)
	if err != nil {
		return nil, err
	}
	if list == StopNLTK {
		return ZipWords(local, "stopwords/english")
	}
	r, err := OpenMaybeGzip(local)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return ParseStopList(list, f.Path, r)
}

// ParseStopList reads the named list's words from r, which holds the text
// of its file (for StopNLTK, the zip's stopwords/english member), as
// ScanWords does; for StopSMART it also drops the 8 lines the turian copy
// adds above the list, checking that they are there and that the list
// proper starts with "a". name says where r comes from in errors. Every
// reader of a stop list (StopWords, and the copies embedded in
// datasets/text) goes through it, so that all give the same words.
func ParseStopList(list, name string, r io.Reader) ([]string, error) {
	words, lines, err := scanWordLines(name, r)
	if err != nil || list != StopSMART {
		return words, err
	}
	for i, w := range smartAdded {
		if i >= len(words) || words[i] != w {
			return nil, fmt.Errorf("%s: line %d: expected the added entry %q above the SMART list", name, lineOf(lines, i), w)
		}
	}
	if n := len(smartAdded); len(words) == n || words[n] != "a" {
		return nil, fmt.Errorf("%s: line %d: expected the SMART list to start with \"a\" after the %d added lines", name, lineOf(lines, n), n)
	}
	return words[len(smartAdded):], nil
}

// lineOf is the line of word i of a list read by scanWordLines, or the line
// after the last word when the list has no word i.
func lineOf(lines []int, i int) int {
	if i < len(lines) {
		return lines[i]
	}
	if len(lines) == 0 {
		return 1
	}
	return lines[len(lines)-1] + 1
}

// ZipWords reads the member of the zip archive zipPath as ScanWords does
// (NLTK's stopwords.zip holds one list per language); it is an error when
// the archive has no such member.
func ZipWords(zipPath, member string) ([]string, error) {
	var words []string
	found := false
	err := EachZipMember(zipPath, func(name string, r io.Reader) error {
		if name != member {
			return nil
		}
		found = true
		var err error
		words, err = ScanWords(zipPath+":"+name, r)
		return err
	})
	if err == nil && !found {
		err = fmt.Errorf("%s: no member %s", zipPath, member)
	}
	return words, err
}

// ScanWords reads a word list, one word per line, surrounding white space
// removed and empty lines skipped; a line with inner white space is an
// error naming the list (name) and the line.
func ScanWords(name string, r io.Reader) ([]string, error) {
	words, _, err := scanWordLines(name, r)
	return words, err
}

// scanWordLines is ScanWords that also returns the line of each word.
func scanWordLines(name string, r io.Reader) (words []string, lines []int, err error) {
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		w := strings.TrimSpace(sc.Text())
		if w == "" {
			continue
		}
		if strings.IndexFunc(w, unicode.IsSpace) >= 0 {
			return nil, nil, fmt.Errorf("%s: line %d: %q is not a single word", name, line, w)
		}
		words = append(words, w)
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	return words, lines, nil
}
