package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/metrics/topics"
)

// Version is the fit run's own version in the code-version key of the
// results store; bump it when what FitRun writes changes.
const Version = "fit/3"

// TopTerms is the number of top terms per topic in a fit run's
// topics.txt; a scoring of the run (ScoreRun) lists as many as asked.
const TopTerms = 10

// keepIterations is how many iterations a fit holds in memory; the whole
// trace goes to iterations.csv as it is recorded.
const keepIterations = 16

// Config is config.json of a fit run, and so its key: what determines the
// fitted model (the data and its pipeline, the family and its parameters,
// the seed; the code version is added by the store). What only scores or
// lists the fitted topics (the number of top terms, the coherence
// measures, the reference corpus) is not in it: that is a scoring of the
// run (ScoreRun), so that asking for other scores serves the same fit.
type Config struct {
	Command string `json:"command"` // "fit"
	Model   string `json:"model"`
	// Params are the parameters as used, without the seed
	// (Method.Params).
	Params map[string]string `json:"params"`
	Seed   uint64            `json:"seed"`
	Data   DataConfig        `json:"data"`
}

// RunOptions are the options of FitRun that do not change the model.
type RunOptions struct {
	// OnStart, when not nil, is called with the corpus before the fit.
	OnStart func(*engine.Corpus)
	// OnIteration, when not nil, is called after every iteration.
	OnIteration func(engine.Iteration)
	// OnWarning, when not nil, receives the collection's and the
	// pipeline's warnings before the fit.
	OnWarning func(string)
}

// Fitted is what FitRun did.
type Fitted struct {
	// Run is the store's account: the directory, whether the run was
	// finished already (Cached: nothing was computed), whether a damaged
	// run was replaced, whether the fit failed (recorded, not cached).
	store.Run
	// Status is the fit's stop status (zero when Cached).
	Status engine.Status
}

// FitRun fits m on the corpus of src and writes a complete run to st:
// U.mtx (M×K term-topic factor) and V.mtx (K×N topic-document factor) as
// Matrix Market dense arrays, doc_ids.txt, topics.txt (the top TopTerms
// terms of every topic), iterations.csv,
// metrics.csv, status.json, vocab.txt, model/ (the saved model, which
// Restore loads), vectorizer.json and counts.mtx (what transform and Rank
// need, for a corpus from text), labels.txt (for
// labelled documents), notes.txt (the warnings), config.json and
// provenance.json. The run's id is the SHA-256 of the configuration, the
// data checksums and the code version: a finished run is not recomputed
// (Cached). A numerical failure is recorded for inspection, never cached
// as a result, and returned as an error (Failed). The returned Fitted
// describes the run on an error too.
func FitRun(ctx context.Context, st *store.Store, m *Method, src *Source, o RunOptions) (*Fitted, error) {
	cfg := Config{Command: "fit", Model: m.Family.Name, Params: m.Params, Seed: m.Seed, Data: src.Data}
	key := store.Key{Config: cfg, Datasets: src.Sums, Code: st.Code().WithExperiment(Version), Seed: m.Seed}
	id, err := key.ID()
	if err != nil {
		return &Fitted{}, err
	}
	// A fit's product is its factors: every file is hashed before it is
	// served (store.CheckAll), the large factors included; a damaged run
	// is computed again (Replaced says so).
	if st.CheckAll(id) == nil {
		return &Fitted{Run: store.Run{ID: id, Dir: st.Dir(id), Cached: true}}, nil
	}
	out := &Fitted{}
	out.Run, err = st.DoVerified(ctx, key, func(ctx context.Context, w *store.Writer) error {
		b, err := src.Build()
		if err != nil {
			return err
		}
		for _, msg := range b.Warnings {
			if o.OnWarning != nil {
				o.OnWarning(msg)
			}
		}
		out.Status, err = WriteRun(ctx, w, m.Method, b, o)
		if err == nil && out.Status.Reason == engine.NumericalFailure {
			return store.Fail(errors.New(out.Status.String()))
		}
		return err
	})
	return out, err
}

// WriteRun fits method on b.Corpus and writes the run's files through w
// (see FitRun).
func WriteRun(ctx context.Context, w *store.Writer, method engine.Method, b *Built, o RunOptions) (engine.Status, error) {
	trace, err := newTraceWriter(w)
	if err != nil {
		return engine.Status{}, err
	}
	defer trace.Abort()
	// A trace write error (a full disk) stops the fit at that iteration.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	// The trace streams to disk; memory holds only the last iterations.
	rec := engine.NewBoundedRecorder(keepIterations)
	rec.OnIteration = func(it engine.Iteration) {
		if err := trace.Record(it); err != nil {
			stop(err)
			return
		}
		if o.OnIteration != nil {
			o.OnIteration(it)
		}
	}
	if o.OnStart != nil {
		o.OnStart(b.Corpus)
	}
	model, status, err := method.Fit(ctx, b.Corpus, rec)
	if trace.Err() != nil {
		return status, trace.Err()
	}
	if err != nil {
		return status, err
	}
	if status.Reason == engine.Cancelled || ctx.Err() != nil {
		if ctx.Err() != nil {
			return status, ctx.Err()
		}
		return status, context.Canceled
	}
	if err := trace.Close(); err != nil {
		return status, err
	}
	if status.Reason == engine.NumericalFailure {
		// The trace and the status are what there is to inspect.
		return status, writeStatus(w, status)
	}
	if err := writeModel(w, model, b); err != nil {
		return status, err
	}
	if err := writeStatus(w, status); err != nil {
		return status, err
	}
	if err := writeMetrics(w, model, b.Corpus, status); err != nil {
		return status, err
	}
	if len(b.Warnings) > 0 {
		if err := w.WriteBytes("notes.txt", []byte(strings.Join(b.Warnings, "\n")+"\n")); err != nil {
			return status, err
		}
	}
	return status, nil
}

// writeModel writes the factors, the saved model (model/, engine/modelio,
// which Restore loads), the top terms, the vocabulary, the document ids
// and labels, the vectorizer and the raw counts.
func writeModel(w *store.Writer, model engine.Model, b *Built) error {
	corpus := b.Corpus
	U := model.TermTopics()
	var V mat.Dense
	V.CloneFrom(model.DocTopics().T())
	if err := w.WriteFile("U.mtx", func(out io.Writer) error { return sparse.WriteDenseMM(out, U) }); err != nil {
		return err
	}
	if err := w.WriteFile("V.mtx", func(out io.Writer) error { return sparse.WriteDenseMM(out, &V) }); err != nil {
		return err
	}
	if err := saveModel(w, model); err != nil {
		return err
	}
	if err := writeLines(w, "topics.txt", topicLines(U, corpus.Vocab, TopTerms)); err != nil {
		return err
	}
	if err := writeLines(w, "vocab.txt", corpus.Vocab); err != nil {
		return err
	}
	ids := corpus.DocIDs
	if ids == nil {
		for j := range corpus.Docs() {
			ids = append(ids, strconv.Itoa(j+1))
		}
	}
	if err := writeLines(w, "doc_ids.txt", ids); err != nil {
		return err
	}
	if b.Vectorizer != nil {
		if err := w.WriteFile("vectorizer.json", func(out io.Writer) error { return writeVectorizer(out, b.Vectorizer) }); err != nil {
			return err
		}
	}
	if b.Counts != nil {
		if err := w.WriteFile("counts.mtx", func(out io.Writer) error { return sparse.WriteMM(out, b.Counts.D) }); err != nil {
			return err
		}
	}
	if corpus.Labels == nil {
		return nil
	}
	names := make([]string, len(corpus.Labels))
	for j, l := range corpus.Labels {
		names[j] = "-"
		if l >= 0 {
			names[j] = corpus.ClassNames[l]
		}
	}
	return writeLines(w, "labels.txt", names)
}

// topicLines are the lines of topics.txt: the top terms of every topic
// (column of U), "topic k: term (weight) …".
func topicLines(U *mat.Dense, vocab []string, top int) []string {
	var lines []string
	for k, terms := range topics.TopTerms(U, vocab, top) {
		lines = append(lines, fmt.Sprintf("topic %d: %s", k, topics.Format(terms)))
	}
	return lines
}

// writeLines writes one line per string.
func writeLines(w *store.Writer, name string, lines []string) error {
	return w.WriteFile(name, func(out io.Writer) error {
		for _, l := range lines {
			if _, err := io.WriteString(out, l+"\n"); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeMetrics writes metrics.csv.
func writeMetrics(w *store.Writer, model engine.Model, corpus *engine.Corpus, status engine.Status) error {
	metrics := [][]string{
		{"terms", strconv.Itoa(corpus.Terms())},
		{"documents", strconv.Itoa(corpus.Docs())},
		{"iterations", strconv.Itoa(status.Iterations)},
		{"objective", store.FormatFloat(status.Objective)},
		{"avgcomp", store.FormatFloat(topics.AvgComp(model.TermTopics()))},
	}
	metrics = append(metrics, LabelMetricRows(corpus, model.DocTopics())...)
	return w.WriteCSV("metrics.csv", []string{"metric", "value"}, metrics)
}

// writeStatus writes status.json.
func writeStatus(w *store.Writer, status engine.Status) error {
	sj, err := json.MarshalIndent(map[string]any{
		"reason": status.Reason.String(), "iterations": status.Iterations,
		"objective": finiteOrNil(status.Objective), "detail": status.Detail,
	}, "", "  ")
	if err != nil {
		return err
	}
	return w.WriteBytes("status.json", append(sj, '\n'))
}

// finiteOrNil is v, or nil (JSON null) for NaN and ±Inf.
func finiteOrNil(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// savedVectorizer is vectorizer.json of a run fitted through the text
// pipeline: the options and document frequencies that, with vocab.txt,
// rebuild the run's text.Vectorizer.
type savedVectorizer struct {
	Options text.Options `json:"options"`
	N       int          `json:"n"`
	DF      []int        `json:"df"`
}

func writeVectorizer(w io.Writer, v *text.Vectorizer) error {
	o := v.Options
	o.DataDir = ""
	b, err := json.Marshal(savedVectorizer{Options: o, N: v.N, DF: v.DF})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
