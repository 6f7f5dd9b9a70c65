package workflow

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/metrics/coherence"
)

// ScoreVersion is the scoring run's own version in the code-version key of
// the results store; bump it when what ScoreRun writes changes.
const ScoreVersion = "score/1"

// Files of a scoring run that hold the topic quality.
const (
	QualityFile      = "quality.csv"       // mean of each measure, TD@25, inverted RBO
	TopicQualityFile = "topic-quality.csv" // each topic's scores and words
)

// ScoreOptions are a scoring of a fit run: the options of a fit that do
// not change the fitted model and so are not in its key (Config).
type ScoreOptions struct {
	// Top is the number of top terms per topic in the scoring's
	// topics.txt (0: TopTerms).
	Top int
	// Measures are the coherence measures scored (nil: no topic quality).
	Measures []coherence.Measure
	// Reference is the reference corpus of coherence, tokenized by the
	// run's vectorizer (nil: the run's training documents).
	Reference *Source
	// DataDir is where a stop list that is not embedded is read from.
	DataDir string
}

// top is o.Top, or TopTerms when not given.
func (o ScoreOptions) top() int {
	if o.Top <= 0 {
		return TopTerms
	}
	return o.Top
}

// AddsToFit reports whether the scoring holds anything beyond the fit run's
// own files: topic quality, or top terms other than the fit's TopTerms.
func (o ScoreOptions) AddsToFit() bool {
	return o.Measures != nil || o.top() != TopTerms
}

// ScoreConfig is config.json of a scoring run, and so its key (with the
// reference's checksums and the code version): the fit run scored and the
// scoring options.
type ScoreConfig struct {
	Command string `json:"command"` // "score"
	// Run is the id of the fit run scored; it stands for everything that
	// determined the fitted model, the training data included.
	Run      string `json:"run"`
	TopTerms int    `json:"top_terms"`
	// Coherence are the measures, comma-separated ("" for none).
	Coherence string `json:"coherence,omitempty"`
	// Reference is the reference corpus (nil: the training documents).
	Reference *DataConfig `json:"reference,omitempty"`
}

// ScoreRun scores the topics of the finished fit run fit (FitRun's, served
// from the store or just computed) and writes the scores as a run of their
// own: topics.txt (the top o.Top terms of every topic) and, when measures
// are asked for, TopicQualityFile (each topic's coherence and words) and
// QualityFile (the means, TD@25 and inverted RBO; experiments/quality).
//
// Its key is the fit run's id with the scoring options (ScoreConfig) and
// the reference's checksums, so that other scores of the same fit are
// computed without fitting again, and a finished fit run is never
// changed: its manifest keeps describing it. A scoring asked for again is
// served from the store (Cached). training is the input the fit was made
// from (its documents are the default reference; the fit keeps counts,
// not the order of the words).
func ScoreRun(ctx context.Context, st *store.Store, fit store.Run, training *Source, o ScoreOptions) (store.Run, error) {
	cfg := ScoreConfig{Command: "score", Run: fit.ID, TopTerms: o.top(), Coherence: measureList(o.Measures)}
	var sums []store.Checksum
	if o.Reference != nil {
		ref := o.Reference.Data
		ref.Text = nil // tokenized by the run's own vectorizer
		cfg.Reference, sums = &ref, o.Reference.Sums
	}
	if o.Measures != nil && training.Data.Kind == KindMTX {
		return store.Run{}, errors.New("coherence needs a fit through the text pipeline, not of a Matrix Market file: coherence counts words in text")
	}
	key := store.Key{Config: cfg, Datasets: sums, Code: st.Code().WithExperiment(ScoreVersion)}
	return st.Do(ctx, key, func(ctx context.Context, w *store.Writer) error {
		U, err := readRunDense(fit.Dir, "U.mtx")
		if err != nil {
			return err
		}
		vocab, err := ReadLines(filepath.Join(fit.Dir, "vocab.txt"), "term")
		if err != nil {
			return err
		}
		if err := writeLines(w, "topics.txt", topicLines(U, vocab, o.top())); err != nil {
			return err
		}
		if o.Measures == nil {
			return nil
		}
		rep, err := scoreTopics(fit.Dir, U, training, o)
		if err != nil {
			return fmt.Errorf("topic quality: %w", err)
		}
		if err := w.WriteFile(TopicQualityFile, rep.WriteTopics); err != nil {
			return err
		}
		return w.WriteFile(QualityFile, rep.WriteSummary)
	})
}

// ScoreTopics scores the topics of the finished fit run in dir (its U.mtx,
// hashed against the run's manifest) with o.Measures against o.Reference,
// or else the run's training documents read from training, without
// writing anything (topicmf eval --run --coherence).
func ScoreTopics(dir string, training *Source, o ScoreOptions) (*quality.Report, error) {
	U, err := readRunDense(dir, "U.mtx")
	if err != nil {
		return nil, err
	}
	return scoreTopics(dir, U, training, o)
}

// scoreTopics scores the topics U of the fit run in dir against
// o.Reference, or else the training documents of the run.
func scoreTopics(dir string, U *mat.Dense, training *Source, o ScoreOptions) (*quality.Report, error) {
	vec, err := ReadVectorizer(dir, o.DataDir)
	if err != nil {
		return nil, err
	}
	ref, err := runReference(dir, vec, training, o.Reference)
	if err != nil {
		return nil, err
	}
	return quality.Evaluate(U, ref, quality.Options{Measures: o.Measures})
}

// runReference returns the token streams of reference (all its
// documents), or else of the training documents of the run in dir (those
// of doc_ids.txt, read again from training: a run keeps counts, not the
// order of the words), through the run's vectorizer vec.
func runReference(dir string, vec *text.Vectorizer, training, reference *Source) (coherence.Reference, error) {
	if reference != nil {
		col, err := reference.Collection()
		if err != nil {
			return coherence.Reference{}, fmt.Errorf("reference: %w", err)
		}
		return quality.Reference(col, nil, vec)
	}
	docIDs, err := ReadLines(filepath.Join(dir, "doc_ids.txt"), "document id")
	if err != nil {
		return coherence.Reference{}, err
	}
	if training == nil {
		return coherence.Reference{}, fmt.Errorf("run %s: no training documents to count co-occurrences in: give a reference corpus", dir)
	}
	col, err := training.Collection()
	if err != nil {
		return coherence.Reference{}, err
	}
	return quality.Reference(col, docIDs, vec)
}

// measureList is the measures' names, comma-separated.
func measureList(ms []coherence.Measure) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = string(m)
	}
	return strings.Join(names, ",")
}

// readRunDense reads the dense Matrix Market file name of the run in dir
// through OpenRunFile.
func readRunDense(dir, name string) (*mat.Dense, error) {
	f, err := OpenRunFile(dir, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := sparse.ReadDenseMM(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return m, nil
}
