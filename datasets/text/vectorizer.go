package text

import (
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Analyzer turns a text into the token sequence the pipeline indexes:
// steps 1–5 of the package documentation (tokenize, drop numbers, minimum
// length, stop words, stemming).
type Analyzer struct {
	minLen, maxLen int // maxLen < 0: no limit
	keepNumbers    bool
	keepMixed      bool
	strip          []string
	stem           bool
	stop           map[string]struct{}
}

// NewAnalyzer validates opts and loads its stop list (embedded, or for
// cacm read from the data directory).
func NewAnalyzer(opts Options) (*Analyzer, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	n := opts.normalized()
	var list []string
	switch {
	case n.StopList == StopNone:
	case IsEmbedded(n.StopList):
		var err error
		if list, err = StopList(n.StopList); err != nil {
			return nil, err
		}
	default:
		dir := n.dataDir()
		if dir == "" {
			return nil, fmt.Errorf("text options: StopList %q needs a data directory: set Options.DataDir or TOPICMF_DATA", n.StopList)
		}
		var err error
		if list, err = ReadStopList(dir, n.StopList); err != nil {
			return nil, fmt.Errorf("stop list %q: %w", n.StopList, err)
		}
	}
	return &Analyzer{minLen: n.MinTokenLen, maxLen: n.MaxTokenLen, keepNumbers: n.KeepNumbers,
		keepMixed: n.KeepMixed, strip: n.Strip, stem: n.Stem,
		stop: StopSet(list, n.ExtraStopWords)}, nil
}

// Tokens returns the indexed tokens of text, in text order.
func (a *Analyzer) Tokens(text string) []string { return a.tokens(text, nil) }

// tokens is Tokens with an optional stem cache (owned by the caller's
// goroutine).
func (a *Analyzer) tokens(text string, cache map[string]string) []string {
	if len(a.strip) > 0 {
		text = StripPost(text, a.strip...)
	}
	raw := Tokenize(text)
	out := raw[:0]
	for _, t := range raw {
		if !a.keepNumbers && IsNumber(t) {
			continue
		}
		if !a.keepMixed && IsMixed(t) {
			continue
		}
		if n := utf8.RuneCountInString(t); n < a.minLen || (a.maxLen >= 0 && n > a.maxLen) {
			continue
		}
		if _, ok := a.stop[t]; ok {
			continue
		}
		if a.stem {
			s, ok := cache[t]
			if !ok {
				s = english.Stem(t, false)
				if cache != nil {
					cache[t] = s
				}
			}
			t = s
		}
		out = append(out, t)
	}
	return out
}

// Vectorizer is the fitted pipeline: the analyzer, the vocabulary and the
// training document frequencies. It weights any text the way the training
// corpus was weighted.
type Vectorizer struct {
	// Options are the (normalized) options the vectorizer was fitted with.
	Options Options
	// Vocab is the sorted vocabulary; Vocab[m] is row m of D.
	Vocab []string
	// DF[m] is the number of training documents containing Vocab[m].
	DF []int
	// N is the number of training documents (columns of D).
	N int

	analyzer *Analyzer
	index    map[string]int32
	idf      []float64 // nil for tf and boolean
}

// NewVectorizer rebuilds a vectorizer from a vocabulary (sorted, distinct),
// its document frequencies (each in 1..n) and the number of training
// documents n.
func NewVectorizer(vocab []string, df []int, n int, opts Options) (*Vectorizer, error) {
	a, err := NewAnalyzer(opts)
	if err != nil {
		return nil, err
	}
	return newVectorizer(a, opts.normalized(), vocab, df, n)
}

func newVectorizer(a *Analyzer, opts Options, vocab []string, df []int, n int) (*Vectorizer, error) {
	if len(df) != len(vocab) {
		return nil, fmt.Errorf("vectorizer: %d document frequencies for %d terms", len(df), len(vocab))
	}
	if n < 1 {
		return nil, fmt.Errorf("vectorizer: %d training documents, want at least 1", n)
	}
	index := make(map[string]int32, len(vocab))
	for m, t := range vocab {
		if m > 0 && vocab[m-1] >= t {
			return nil, fmt.Errorf("vectorizer: vocabulary not sorted and distinct at term %d (%q after %q)", m, t, vocab[m-1])
		}
		if df[m] < 1 || df[m] > n {
			return nil, fmt.Errorf("vectorizer: term %q has document frequency %d, want 1..%d", t, df[m], n)
		}
		index[t] = int32(m)
	}
	v := &Vectorizer{Options: opts, Vocab: vocab, DF: df, N: n, analyzer: a, index: index}
	if opts.Weighting == WeightTFIDF || opts.Weighting == WeightLogTFIDF {
		v.idf = make([]float64, len(vocab))
		for m, d := range df {
			v.idf[m] = math.Log(float64(n) / float64(d))
		}
	}
	return v, nil
}

// VectorizerFromCorpus rebuilds the vectorizer of a corpus made by Build
// with opts (for example one read back from the corpus cache). The document
// frequency of a term is the number of non-zeros in its row of D; under the
// idf weightings an empty row means idf 0, that is df = N.
func VectorizerFromCorpus(c *engine.Corpus, opts Options) (*Vectorizer, error) {
	a, err := NewAnalyzer(opts)
	if err != nil {
		return nil, err
	}
	n := opts.normalized()
	idfWeighted := n.Weighting == WeightTFIDF || n.Weighting == WeightLogTFIDF
	df := make([]int, c.Terms())
	for m := range df {
		df[m] = c.D.RowPtr[m+1] - c.D.RowPtr[m]
		if df[m] == 0 {
			if !idfWeighted {
				return nil, fmt.Errorf("corpus %q: term %q has an empty row, impossible under %s weighting: was it built with these options?", c.Name, c.Vocab[m], n.Weighting)
			}
			df[m] = c.Docs()
		}
	}
	return newVectorizer(a, n, c.Vocab, df, c.Docs())
}

// Terms is M, the vocabulary size.
func (v *Vectorizer) Terms() int { return len(v.Vocab) }

// Index returns the row of term t in D, or -1 when t is not in the
// vocabulary. t must be an analyzed token (lower-cased, stemmed if Stem).
func (v *Vectorizer) Index(t string) int {
	if m, ok := v.index[t]; ok {
		return int(m)
	}
	return -1
}

// IDF returns a copy of ln(N/df) per term, or nil under tf and boolean
// weighting.
func (v *Vectorizer) IDF() []float64 { return slices.Clone(v.idf) }

// Weight is the weight of term m occurring tf > 0 times.
func (v *Vectorizer) Weight(m, tf int) float64 {
	switch v.Options.Weighting {
	case WeightTF:
		return float64(tf)
	case WeightBoolean:
		return 1
	case WeightLogTFIDF:
		return (1 + math.Log(float64(tf))) * v.idf[m]
	default: // tfidf
		return float64(tf) * v.idf[m]
	}
}

// row returns the vocabulary ids (ascending) and weights of one text; terms
// of weight 0 are left out.
func (v *Vectorizer) row(text string, cache map[string]string) ([]int32, []float64) {
	counts := make(map[int32]int)
	for _, t := range v.analyzer.tokens(text, cache) {
		if m, ok := v.index[t]; ok {
			counts[m]++
		}
	}
	idx := make([]int32, 0, len(counts))
	for m := range counts {
		idx = append(idx, m)
	}
	slices.Sort(idx)
	val := make([]float64, 0, len(idx))
	out := idx[:0]
	for _, m := range idx {
		if w := v.Weight(int(m), counts[m]); w != 0 {
			out = append(out, m)
			val = append(val, w)
		}
	}
	if v.Options.Norm == NormL2 {
		NormalizeL2(val)
	}
	return out, val
}

// NormalizeL2 scales val to unit Euclidean length (left as is when all
// zero), summing the squares in order: the normalization of Options.Norm
// "l2".
func NormalizeL2(val []float64) {
	var ss float64
	for _, x := range val {
		ss += x * x
	}
	if ss == 0 {
		return
	}
	inv := 1 / math.Sqrt(ss)
	for i := range val {
		val[i] *= inv
	}
}

// textBlock is the number of texts per parallel block.
const textBlock = 256

// Transform returns the n × M matrix whose row i is texts[i] weighted like
// the training corpus (a column of D, transposed). Texts without a
// vocabulary term give empty rows.
func (v *Vectorizer) Transform(texts []string) *sparse.CSR {
	idx := make([][]int32, len(texts))
	val := make([][]float64, len(texts))
	parallel.Default().For(len(texts), textBlock, func(_, lo, hi int) {
		cache := make(map[string]string)
		for i := lo; i < hi; i++ {
			idx[i], val[i] = v.row(texts[i], cache)
		}
	})
	return sparse.FromRows(len(v.Vocab), idx, val)
}

// Vectorize is v.Transform(texts): the texts (queries, new documents) as
// rows weighted with the training vocabulary and idf, for fold-in.
func Vectorize(texts []string, v *Vectorizer) *sparse.CSR { return v.Transform(texts) }
