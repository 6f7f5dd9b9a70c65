// Package quality scores the topics of a fitted model the way topic-model
// papers and toolkits (gensim, OCTIS) report them: coherence of each topic
// against a reference corpus (package metrics/coherence: NPMI, C_V, UMass,
// UCI), and the diversity of the whole set (package metrics/diversity: TD@25
// and inverted RBO). It joins what those packages need: the top words of
// U (metrics/topics) and the token streams of a collection through the
// text pipeline that built the corpus (datasets/text).
//
// The reference corpus is by default the training documents, re-tokenized
// by the run's own analyzer with their tokens in text order and only the
// vocabulary kept (text.Vectorizer.Streams), or any other collection
// tokenized the same way.
package quality

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/metrics/coherence"
	"github.com/topicmf/topicmf/metrics/diversity"
	"github.com/topicmf/topicmf/metrics/topics"
)

// DefaultMeasures are the coherence measures scored when none are named:
// the two most used (NPMI, C_V).
var DefaultMeasures = []coherence.Measure{coherence.NPMI, coherence.CV}

// Options say what to score.
type Options struct {
	// Measures are the coherence measures (nil: none; diversity is always
	// computed).
	Measures []coherence.Measure
	// TopN is the number of top words scored by coherence (0:
	// coherence.DefaultTopN = 10).
	TopN int
	// Coherence are the measures' parameters (zero: gensim's).
	Coherence coherence.Options
}

// Topic is one topic's top words and coherence scores.
type Topic struct {
	Words  []string // the top TopN words, best first
	Scores map[coherence.Measure]float64
}

// Report is the quality of one model's topics.
type Report struct {
	Measures []coherence.Measure
	Topics   []Topic
	// Mean is each measure's mean over the topics with a score (a topic of
	// fewer than two words has none).
	Mean map[coherence.Measure]float64
	// Scored is the number of topics with a score for every measure;
	// Absent the topic words that occur in no reference document (a topic
	// with one, or with fewer than two words, has no score).
	Scored int
	Absent []string
	TD     float64 // TD@25 (Dieng et al. 2020)
	IRBO   float64 // inverted RBO, top 10, p = 0.9 (OCTIS)
}

// Reference returns the token streams of the documents of col named by
// docIDs (nil: every document, in order) through vec's analyzer, keeping
// the vocabulary terms only.
func Reference(col *datasets.Collection, docIDs []string, vec *text.Vectorizer) (coherence.Reference, error) {
	var texts []string
	if docIDs == nil {
		for _, d := range col.Docs {
			texts = append(texts, d.Text)
		}
	} else {
		byID := make(map[string]int, len(col.Docs))
		for i, d := range col.Docs {
			if _, dup := byID[d.ID]; dup {
				byID[d.ID] = -1
				continue
			}
			byID[d.ID] = i
		}
		for _, id := range docIDs {
			i, ok := byID[id]
			if !ok {
				return coherence.Reference{}, fmt.Errorf("document %q is not in %s", id, col.Name)
			}
			if i < 0 {
				return coherence.Reference{}, fmt.Errorf("document id %q occurs more than once in %s", id, col.Name)
			}
			texts = append(texts, col.Docs[i].Text)
		}
	}
	return coherence.Reference{Vocab: vec.Vocab, Docs: vec.Streams(texts)}, nil
}

// Evaluate scores the topics (columns of U, M × K, rows named by
// ref.Vocab) against the reference corpus.
func Evaluate(U *mat.Dense, ref coherence.Reference, opt Options) (*Report, error) {
	m, _ := U.Dims()
	if m != len(ref.Vocab) {
		return nil, fmt.Errorf("quality: U has %d terms, the reference vocabulary %d", m, len(ref.Vocab))
	}
	topN := opt.TopN
	if topN <= 0 {
		topN = coherence.DefaultTopN
	}
	depth := max(topN, diversity.DefaultTDTop, diversity.DefaultRBOTop)
	top := topics.TopTerms(U, ref.Vocab, depth)
	rep := &Report{Measures: opt.Measures, Mean: map[coherence.Measure]float64{}}
	var ids [][]int32
	var lists [][]string
	for _, terms := range top {
		words := topics.Words(terms)
		lists = append(lists, words)
		n := min(topN, len(terms))
		t := Topic{Words: words[:n], Scores: map[coherence.Measure]float64{}}
		rep.Topics = append(rep.Topics, t)
		id := make([]int32, n)
		for i, term := range terms[:n] {
			id[i] = int32(term.Index)
		}
		ids = append(ids, id)
	}
	rep.TD = diversity.TopicDiversity(lists, diversity.DefaultTDTop)
	irbo, err := diversity.InvertedRBO(lists, diversity.DefaultRBOTop, diversity.DefaultRBOProb)
	if err != nil {
		return nil, err
	}
	rep.IRBO = irbo
	rep.Scored = len(rep.Topics)
	if len(opt.Measures) == 0 {
		return rep, nil
	}
	rep.Absent = coherence.Absent(ref, ids)
	scores, err := coherence.Score(ref, ids, opt.Measures, opt.Coherence)
	if err != nil {
		return nil, err
	}
	for _, ms := range opt.Measures {
		for k := range rep.Topics {
			rep.Topics[k].Scores[ms] = scores[ms][k]
		}
		var n int
		rep.Mean[ms], n = coherence.Mean(scores[ms])
		rep.Scored = min(rep.Scored, n)
	}
	return rep, nil
}

// Label is a measure's name in reports.
func Label(m coherence.Measure) string {
	switch m {
	case coherence.NPMI:
		return "NPMI"
	case coherence.CV:
		return "C_V"
	case coherence.UMass:
		return "UMass"
	case coherence.UCI:
		return "UCI"
	}
	return string(m)
}

// Summary is one line: every measure's mean, TD@25 and inverted RBO.
func (r *Report) Summary() string {
	var parts []string
	for _, m := range r.Measures {
		parts = append(parts, fmt.Sprintf("%s %.4f", Label(m), r.Mean[m]))
	}
	parts = append(parts, fmt.Sprintf("TD@25 %.4f", r.TD), fmt.Sprintf("inverted RBO %.4f", r.IRBO))
	s := strings.Join(parts, ", ")
	if len(r.Measures) > 0 && r.Scored < len(r.Topics) {
		s += fmt.Sprintf(" (coherence of %d of %d topics: the others list fewer than 2 words or a word absent from the reference%s)", r.Scored, len(r.Topics), absentNote(r.Absent))
	}
	return s
}

func absentNote(words []string) string {
	if len(words) == 0 {
		return ""
	}
	if len(words) > 5 {
		return fmt.Sprintf(": %s, … (%d words)", strings.Join(words[:5], ", "), len(words))
	}
	return ": " + strings.Join(words, ", ")
}

// WriteTopics writes the per-topic CSV: topic, one column per measure,
// words (space-separated).
func (r *Report) WriteTopics(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"topic"}
	for _, m := range r.Measures {
		header = append(header, string(m))
	}
	header = append(header, "words")
	if err := cw.Write(header); err != nil {
		return err
	}
	for k, t := range r.Topics {
		row := []string{strconv.Itoa(k)}
		for _, m := range r.Measures {
			row = append(row, formatFloat(t.Scores[m]))
		}
		row = append(row, strings.Join(t.Words, " "))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteSummary writes the summary CSV: measure,value rows (mean_npmi, …,
// td25, inverted_rbo, topics, scored_topics).
func (r *Report) WriteSummary(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"measure", "value"}); err != nil {
		return err
	}
	for _, m := range r.Measures {
		if err := cw.Write([]string{"mean_" + string(m), formatFloat(r.Mean[m])}); err != nil {
			return err
		}
	}
	for _, row := range [][]string{{"td25", formatFloat(r.TD)}, {"inverted_rbo", formatFloat(r.IRBO)},
		{"topics", strconv.Itoa(len(r.Topics))}, {"scored_topics", strconv.Itoa(r.Scored)}} {
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func formatFloat(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', 17, 64)
}
