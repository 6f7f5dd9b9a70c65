package text

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
)

// Weighting schemes accepted by Options.Weighting (see the package doc for
// the formulas).
const (
	WeightTF       = "tf"
	WeightBoolean  = "boolean"
	WeightTFIDF    = "tfidf"
	WeightLogTFIDF = "logtf-idf"
)

// Weightings lists the accepted weighting names.
var Weightings = []string{WeightBoolean, WeightLogTFIDF, WeightTF, WeightTFIDF}

// PipelineVersion names the tokenizer and weighting rules implemented here;
// it is part of Options.Canonical and changes whenever the same options
// would produce a different corpus, so that caches keyed on it miss.
const PipelineVersion = "text/1"

// Options configures the pipeline. The zero value is valid: tokens of at
// least 2 runes, numbers dropped, no stop list, no stemming, no pruning,
// tf-idf weighting.
type Options struct {
	// MinTokenLen is the minimum token length in runes; 0 means 2.
	MinTokenLen int
	// KeepNumbers keeps tokens made only of digits (dropped by default).
	KeepNumbers bool
	// StopList names the stop list: "" or "none", "smart", "terrier",
	// "cacm", "nltk".
	StopList string
	// ExtraStopWords are added to the stop list (tokenized the same way).
	ExtraStopWords []string
	// DataDir is where StopList is read from (its stopwords/ folder); ""
	// means the TOPICMF_DATA environment variable. It is not part of
	// Canonical: the same list read from two places gives the same corpus
	// (callers key caches on the list file's checksum, see StopListPath).
	DataDir string
	// Stem applies the Snowball English (Porter2) stemmer.
	Stem bool
	// MinDF removes terms found in fewer than MinDF documents; 0 means 1
	// (no pruning).
	MinDF int
	// MaxDF, when in (0, 1), removes terms found in more than MaxDF·N₀
	// documents; 0 (or 1) means no limit.
	MaxDF float64
	// MaxVocab, when > 0, keeps only the MaxVocab terms of highest document
	// frequency (ties broken by term).
	MaxVocab int
	// Weighting is "tf", "boolean", "tfidf" or "logtf-idf"; "" means
	// "tfidf".
	Weighting string
}

// Validate reports the first invalid field, by name.
func (o Options) Validate() error {
	if o.MinTokenLen < 0 {
		return fmt.Errorf("text options: MinTokenLen = %d, want >= 0 (0 means 2)", o.MinTokenLen)
	}
	if _, err := StopListPath(o.StopList); err != nil {
		return fmt.Errorf("text options: StopList: %w", err)
	}
	if o.MinDF < 0 {
		return fmt.Errorf("text options: MinDF = %d, want >= 0 (0 means 1)", o.MinDF)
	}
	if math.IsNaN(o.MaxDF) || o.MaxDF < 0 || o.MaxDF > 1 {
		return fmt.Errorf("text options: MaxDF = %v, want a fraction in [0, 1] (0 means no limit)", o.MaxDF)
	}
	if o.MaxVocab < 0 {
		return fmt.Errorf("text options: MaxVocab = %d, want >= 0 (0 means no limit)", o.MaxVocab)
	}
	switch o.Weighting {
	case "", WeightTF, WeightBoolean, WeightTFIDF, WeightLogTFIDF:
	default:
		return fmt.Errorf("text options: unknown Weighting %q (known: %s)", o.Weighting, strings.Join(Weightings, ", "))
	}
	return nil
}

// normalized returns o with defaults filled in, so that two option values
// meaning the same pipeline are equal.
func (o Options) normalized() Options {
	if o.MinTokenLen == 0 {
		o.MinTokenLen = 2
	}
	if o.StopList == "" {
		o.StopList = StopNone
	}
	if o.MinDF == 0 {
		o.MinDF = 1
	}
	if o.MaxDF == 0 {
		o.MaxDF = 1
	}
	if o.Weighting == "" {
		o.Weighting = WeightTFIDF
	}
	// Extra stop words matter as the set of tokens they add.
	set := StopSet(o.ExtraStopWords)
	extra := make([]string, 0, len(set))
	for w := range set {
		extra = append(extra, w)
	}
	slices.Sort(extra)
	o.ExtraStopWords = extra
	return o
}

// dataDir is where the stop list is read from.
func (o Options) dataDir() string {
	if o.DataDir != "" {
		return o.DataDir
	}
	return os.Getenv("TOPICMF_DATA")
}

// canonicalOptions fixes the field names and order of Canonical.
type canonicalOptions struct {
	Pipeline       string   `json:"pipeline"`
	MinTokenLen    int      `json:"min_token_len"`
	KeepNumbers    bool     `json:"keep_numbers"`
	StopList       string   `json:"stop_list"`
	ExtraStopWords []string `json:"extra_stop_words"`
	Stem           string   `json:"stem"`
	MinDF          int      `json:"min_df"`
	MaxDF          float64  `json:"max_df"`
	MaxVocab       int      `json:"max_vocab"`
	Weighting      string   `json:"weighting"`
}

// Canonical returns a stable JSON description of the pipeline these options
// define: defaults filled in, extra stop words tokenized, deduplicated and
// sorted, DataDir left out, and PipelineVersion included. Two option values
// have the same Canonical string exactly when they build the same corpus
// from the same files; caches and the results store key on it.
func (o Options) Canonical() string {
	n := o.normalized()
	stem := "none"
	if n.Stem {
		stem = "snowball-english-v0.10.0"
	}
	c := canonicalOptions{
		Pipeline: PipelineVersion, MinTokenLen: n.MinTokenLen, KeepNumbers: n.KeepNumbers,
		StopList: n.StopList, ExtraStopWords: n.ExtraStopWords, Stem: stem,
		MinDF: n.MinDF, MaxDF: n.MaxDF, MaxVocab: n.MaxVocab, Weighting: n.Weighting,
	}
	b, err := json.Marshal(c)
	if err != nil { // cannot happen for these field types
		panic(err)
	}
	return string(b)
}
