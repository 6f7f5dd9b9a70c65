package text

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/topicmf/topicmf/engine/param"
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

// Norms accepted by Options.Norm.
const (
	NormNone = "none" // columns of D as weighted
	NormL2   = "l2"   // every column of D scaled to unit Euclidean length
)

// Parts of a 20 Newsgroups-style post that Options.Strip removes.
const (
	StripHeaders = "headers"
	StripFooters = "footers"
	StripQuotes  = "quotes"
)

// PipelineVersion names the tokenizer and weighting rules implemented here;
// it is part of Options.Canonical and changes whenever the same options
// would produce a different corpus, so that caches keyed on it miss.
const PipelineVersion = "text/2"

// The default pipeline's values for the fields whose zero value means
// "default" (see Options and Default). They were chosen by the top terms of
// NMF and RLSI on 20 Newsgroups and Cranfield (docs/pipeline.md),
// following scikit-learn's topic-extraction example (min_df = 2,
// max_df = 0.95, l2-normalized tf-idf).
const (
	DefaultMinTokenLen = 2
	DefaultMaxTokenLen = 25
	DefaultMinDF       = 2
	DefaultMaxDF       = 0.95
)

// Options configures the pipeline. The fields that are parameters of the
// pipeline are declared by engine/param tags, from which the command
// line's flags, their help and their range checks come; as engine/param's
// rule has it, a zero field whose range excludes 0 (MinDF, MaxDF,
// MaxTokenLen, Weighting, Norm) stands for its default. The zero value is the default pipeline
// the command line uses too: SMART stop list (embedded), tokens of 2 to 25
// runes, numbers and tokens mixing digits and letters dropped, terms in at
// least 2 and at most 95% of the documents, tf-idf, columns of D scaled to
// unit length. Bare gives the pipeline with all of that off.
type Options struct {
	// MinTokenLen is the minimum token length in runes; 0 means 2.
	MinTokenLen int
	// MaxTokenLen is the maximum token length in runes; 0 means
	// DefaultMaxTokenLen (25), a negative value means no limit.
	MaxTokenLen int `param:"max-token-len" default:"25" range:"[2,inf)|-1" doc:"drop tokens longer than this many letters (-1: no limit)"`
	// KeepNumbers keeps tokens made only of digits (dropped by default).
	KeepNumbers bool
	// KeepMixed keeps tokens mixing digits and letters ("b52", "z6ei4");
	// they are dropped by default (in 20 Newsgroups they are mostly the
	// pieces of uuencoded binaries).
	KeepMixed bool `param:"keep-mixed" default:"false" doc:"keep tokens mixing digits and letters (b52, z6ei4)"`
	// Strip removes parts of e-mail and news posts before tokenizing, as
	// scikit-learn's fetch_20newsgroups(remove=...) does: "headers",
	// "footers", "quotes" (see StripPost). Empty: nothing removed.
	Strip []string `param:"strip" default:"" range:"headers|footers|quotes" doc:"remove parts of news posts before tokenizing: headers, footers, quotes (scikit-learn's 20 Newsgroups remove=)"`
	// StopList names the stop list: "" means "smart"; "none", "smart",
	// "terrier", "nltk" (these three embedded in the binary), "cacm"
	// (read from the data directory).
	StopList string `param:"stop" default:"smart" doc:"stop list (smart, terrier, nltk: embedded; cacm: from the data directory; or none), a FILE of one's own (one word a line), or LIST+FILE (smart+mystop.txt)"`
	// ExtraStopWords are added to the stop list (tokenized the same way).
	ExtraStopWords []string
	// DataDir is where a stop list that is not embedded (cacm) is read from
	// (its stopwords/ folder); "" means the TOPICMF_DATA environment
	// variable. It is not part of
	// Canonical: the same list read from two places gives the same corpus
	// (callers key caches on the list file's checksum, see StopListPath).
	DataDir string
	// Stem applies the Snowball English (Porter2) stemmer.
	Stem bool `param:"stem" default:"false" doc:"Snowball English stemming"`
	// MinDF removes terms found in fewer than MinDF documents; 0 means
	// DefaultMinDF (2), 1 means no pruning.
	MinDF int `param:"min-df" default:"2" range:"[1,inf)" doc:"drop terms in fewer documents (1: keep all)"`
	// MaxDF, when in (0, 1), removes terms found in more than MaxDF·N₀
	// documents; 0 means DefaultMaxDF (0.95), 1 means no limit.
	MaxDF float64 `param:"max-df" default:"0.95" range:"(0,1]" doc:"drop terms in more than this fraction of the documents (1: keep all)"`
	// MaxVocab, when > 0, keeps only the MaxVocab terms of highest document
	// frequency (ties broken by term).
	MaxVocab int `param:"max-vocab" default:"0" range:"[0,inf)" doc:"keep the most frequent terms only (0: all)"`
	// Weighting is "tf", "boolean", "tfidf" or "logtf-idf"; "" means
	// "tfidf".
	Weighting string `param:"weighting" default:"tfidf" range:"tf|boolean|tfidf|logtf-idf" doc:"term weighting: tf, boolean, tfidf or logtf-idf"`
	// Norm is "l2" (every document's column of D scaled to unit length,
	// so that long documents do not dominate the factorization) or "none";
	// "" means "l2".
	Norm string `param:"norm" default:"l2" range:"l2|none" doc:"l2 (unit-length documents) or none"`
}

// Default returns the default pipeline with every field spelled out (the
// values the zero Options stands for).
func Default() Options {
	o := Options{}.normalized()
	o.ExtraStopWords = nil
	return o
}

// Bare returns o with the fields left at their zero value set to "off"
// instead of to the default pipeline: no stop list, no maximum token length,
// tokens mixing digits and letters kept, no document-frequency pruning, no
// normalization. Tokens shorter than 2 runes and numbers are still dropped
// and the weighting is still tf-idf unless o says otherwise. The paper
// experiments build their corpora with Bare and state every filter they
// add, so that a change of the default pipeline never changes them.
func Bare(o Options) Options {
	if o.StopList == "" {
		o.StopList = StopNone
	}
	if o.MaxTokenLen == 0 {
		o.MaxTokenLen = -1
	}
	o.KeepMixed = true
	if o.MinDF == 0 {
		o.MinDF = 1
	}
	if o.MaxDF == 0 {
		o.MaxDF = 1
	}
	if o.Norm == "" {
		o.Norm = NormNone
	}
	return o
}

// Validate reports the first invalid field, by name: a value outside the
// declared range of its parameter (engine/param), a maximum token length
// below the minimum, or a stop list that does not exist.
func (o Options) Validate() error {
	if o.MinTokenLen < 0 {
		return fmt.Errorf("text options: MinTokenLen = %d, want >= 0 (0 means the default, %d)", o.MinTokenLen, DefaultMinTokenLen)
	}
	declared := o
	if declared.MaxTokenLen < 0 {
		declared.MaxTokenLen = -1 // every negative value means no limit
	}
	if err := param.Check(declared); err != nil {
		return fmt.Errorf("text options: %w", err)
	}
	if n := o.normalized(); n.MaxTokenLen > 0 && n.MaxTokenLen < n.MinTokenLen {
		return fmt.Errorf("text options: MaxTokenLen = %d is below MinTokenLen = %d", n.MaxTokenLen, n.MinTokenLen)
	}
	if _, err := StopListPath(o.StopList); err != nil {
		return fmt.Errorf("text options: StopList: %w", err)
	}
	return nil
}

// normalized returns o with defaults filled in, so that two option values
// meaning the same pipeline are equal.
func (o Options) normalized() Options {
	if o.MinTokenLen == 0 {
		o.MinTokenLen = DefaultMinTokenLen
	}
	if o.MaxTokenLen == 0 {
		o.MaxTokenLen = DefaultMaxTokenLen
	} else if o.MaxTokenLen < 0 {
		o.MaxTokenLen = -1
	}
	if o.StopList == "" {
		o.StopList = StopSMART
	}
	if o.MinDF == 0 {
		o.MinDF = DefaultMinDF
	}
	if o.MaxDF == 0 {
		o.MaxDF = DefaultMaxDF
	}
	if o.Weighting == "" {
		o.Weighting = WeightTFIDF
	}
	if o.Norm == "" {
		o.Norm = NormL2
	}
	// Strip parts are a set, in a fixed order.
	var strip []string
	for _, part := range []string{StripHeaders, StripFooters, StripQuotes} {
		if slices.Contains(o.Strip, part) {
			strip = append(strip, part)
		}
	}
	o.Strip = strip
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
	MaxTokenLen    int      `json:"max_token_len"`
	KeepNumbers    bool     `json:"keep_numbers"`
	KeepMixed      bool     `json:"keep_mixed"`
	Strip          []string `json:"strip"`
	StopList       string   `json:"stop_list"`
	ExtraStopWords []string `json:"extra_stop_words"`
	Stem           string   `json:"stem"`
	MinDF          int      `json:"min_df"`
	MaxDF          float64  `json:"max_df"`
	MaxVocab       int      `json:"max_vocab"`
	Weighting      string   `json:"weighting"`
	Norm           string   `json:"norm"`
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
		Pipeline: PipelineVersion, MinTokenLen: n.MinTokenLen, MaxTokenLen: n.MaxTokenLen,
		KeepNumbers: n.KeepNumbers, KeepMixed: n.KeepMixed, Strip: n.Strip,
		StopList: n.StopList, ExtraStopWords: n.ExtraStopWords, Stem: stem,
		MinDF: n.MinDF, MaxDF: n.MaxDF, MaxVocab: n.MaxVocab, Weighting: n.Weighting, Norm: n.Norm,
	}
	b, err := json.Marshal(c)
	if err != nil { // cannot happen for these field types
		panic(err)
	}
	return string(b)
}

// Params returns the pipeline's declared parameters (the fields of Options
// tagged for engine/param), in field order: their keys, defaults, ranges
// and docs, from which the command line makes its flags.
func Params() []param.Param { return param.Declared(Options{}) }

// ParseParams sets the fields of o named by the keys of given (declared
// keys, e.g. "min-df": "1") and checks each against its declared range,
// and a stop list given as StopSpec reads it (a list, a FILE or LIST+FILE).
func ParseParams(o *Options, given map[string]string) error {
	if err := param.Parse(o, given); err != nil {
		return err
	}
	if v, ok := given["stop"]; ok {
		if _, _, err := StopSpec(o.StopList); err != nil {
			return &param.ValueError{Key: "stop", Value: v, Reason: err}
		}
	}
	return nil
}
