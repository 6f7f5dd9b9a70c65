package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/metrics/coherence"
)

// qualityFlags are --coherence and --reference of fit and eval.
type qualityFlags struct {
	coherence string
	reference string
}

func (q *qualityFlags) register(f *pflag.FlagSet, def string) {
	f.StringVar(&q.coherence, "coherence", def, "topic coherence measures: off, all, or a list of npmi, cv, umass, uci (gensim's definitions, top 10 words; TD@25 and inverted RBO come with any)")
	f.StringVar(&q.reference, "reference", "", "reference corpus of coherence: a registered data set or a --data style PATH, tokenized by the run's text pipeline (default: the training documents)")
}

// measures parses --coherence; nil means off.
func (q *qualityFlags) measures() ([]coherence.Measure, error) {
	ms, err := coherence.ParseMeasures(q.coherence)
	if err != nil {
		return nil, fmt.Errorf("--coherence: %w", err)
	}
	return ms, nil
}

// scoreOptions are the scoring fit asks of its run (workflow.ScoreRun):
// --top, the measures (none for a Matrix Market input, which has no
// text: checkMTX refused an explicit request) and --reference, resolved
// now so that a reference that cannot be read is refused before the fit.
func (q *qualityFlags) scoreOptions(top int, mtx bool, dataDir string) (workflow.ScoreOptions, error) {
	o := workflow.ScoreOptions{Top: top, DataDir: dataDir}
	ms, err := q.measures()
	if err != nil || mtx {
		return o, err
	}
	o.Measures = ms
	if q.reference != "" && ms != nil {
		if o.Reference, err = workflow.Resolve(workflow.Input{Data: q.reference, DataDir: dataDir, CacheDir: "none"}); err != nil {
			return o, fmt.Errorf("--reference: %w", err)
		}
	}
	return o, nil
}

// readNamedCollection reads a registered data set or a user's collection at a
// path (its format from the path, default columns).
func readNamedCollection(name, dataDir string, uopt datasets.UserOptions) (*datasets.Collection, error) {
	if workflow.IsPath(name) {
		format, err := datasets.UserFormat(name, uopt.Format)
		if err != nil {
			return nil, err
		}
		uopt.Format = format
		return datasets.ReadUser(name, uopt)
	}
	src, err := datasets.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("%s: neither a registered data set (topicmf data list shows them) nor an existing file or folder", name)
	}
	dir, err := datasets.DataDir(dataDir)
	if err != nil {
		return nil, err
	}
	return src.Read(dir)
}

// referenceFor returns the reference corpus: --reference, all its
// documents, or else the training documents docIDs of the collection
// training (read again: the corpus keeps counts, not token order).
func (q *qualityFlags) referenceFor(vec *text.Vectorizer, docIDs []string, training func() (*datasets.Collection, error), dataDir string) (coherence.Reference, error) {
	if q.reference != "" {
		col, err := readNamedCollection(q.reference, dataDir, datasets.UserOptions{})
		if err != nil {
			return coherence.Reference{}, fmt.Errorf("--reference: %w", err)
		}
		return quality.Reference(col, nil, vec)
	}
	col, err := training()
	if err != nil {
		return coherence.Reference{}, err
	}
	return quality.Reference(col, docIDs, vec)
}

// scoreRunDir scores the topics of the run files in dir (U.mtx, checked
// against the run's manifest when dir is a finished run of a store).
func scoreRunDir(dir string, ref coherence.Reference, ms []coherence.Measure) (*quality.Report, error) {
	U, err := readRunDense(dir, "U.mtx")
	if err != nil {
		return nil, err
	}
	return quality.Evaluate(U, ref, quality.Options{Measures: ms})
}

// checkMTX refuses --coherence given explicitly, or --reference, on a fit
// of a Matrix Market file, before anything is fitted.
func (q *qualityFlags) checkMTX(explicit bool) error {
	ms, err := q.measures()
	if err != nil {
		return err
	}
	if (explicit && ms != nil) || q.reference != "" {
		return errors.New("--coherence and --reference need a fit through the text pipeline (--data), not --mtx: coherence counts words in text")
	}
	return nil
}

// printRunQuality prints the summary line of a run's quality.csv, if it
// has one.
func printRunQuality(out io.Writer, dir string) error {
	f, err := os.Open(filepath.Join(dir, workflow.QualityFile))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, workflow.QualityFile), err)
	}
	labels := map[string]string{"td25": "TD@25", "inverted_rbo": "inverted RBO"}
	for _, m := range coherence.All {
		labels["mean_"+string(m)] = quality.Label(m)
	}
	var parts []string
	var topics, scored string
	for _, r := range rows[1:] {
		if len(r) != 2 {
			continue
		}
		switch r[0] {
		case "topics":
			topics = r[1]
		case "scored_topics":
			scored = r[1]
		default:
			parts = append(parts, labels[r[0]]+" "+shortFloat(r[1]))
		}
	}
	note := ""
	if scored != topics {
		note = fmt.Sprintf(" (coherence of %s of %s topics: the others list fewer than 2 words or a word absent from the reference)", scored, topics)
	}
	_, err = fmt.Fprintf(out, "topic quality (mean over topics, top 10 words; per topic in %s): %s%s\n", workflow.TopicQualityFile, strings.Join(parts, ", "), note)
	return err
}

// shortFloat prints a stored value with 4 decimals.
func shortFloat(s string) string {
	var x float64
	if _, err := fmt.Sscan(s, &x); err != nil {
		return s
	}
	return fmt.Sprintf("%.4f", x)
}

// evalQuality is eval --run RUN --coherence: it scores the topics of a
// finished fit run and prints them, one row per topic, then the means.
func evalQuality(out io.Writer, runDir string, q *qualityFlags, dataDir string) error {
	ms, err := q.measures()
	if err != nil {
		return err
	}
	if ms == nil {
		return errors.New("--coherence off: nothing to score")
	}
	if _, err := os.Stat(filepath.Join(runDir, "U.mtx")); err != nil {
		return fmt.Errorf("--run %s: not a fit run directory (no U.mtx)", runDir)
	}
	vec, err := workflow.ReadVectorizer(runDir, dataDir)
	if err != nil {
		return err
	}
	docIDs, err := workflow.ReadLines(filepath.Join(runDir, "doc_ids.txt"), "document id")
	if err != nil {
		return err
	}
	training := func() (*datasets.Collection, error) {
		var cfg workflow.Config
		b, err := os.ReadFile(filepath.Join(runDir, "config.json"))
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &cfg); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(runDir, "config.json"), err)
		}
		if cfg.Data.Kind != "dataset" {
			return nil, fmt.Errorf("run %s was fitted on %s (%s), which it does not keep: give --reference PATH", runDir, cfg.Data.Name, cfg.Data.Kind)
		}
		return readNamedCollection(cfg.Data.Name, dataDir, datasets.UserOptions{})
	}
	ref, err := q.referenceFor(vec, docIDs, training, dataDir)
	if err != nil {
		return err
	}
	rep, err := scoreRunDir(runDir, ref, ms)
	if err != nil {
		return err
	}
	header := []string{"topic"}
	for _, m := range ms {
		header = append(header, quality.Label(m))
	}
	header = append(header, "words")
	rows := [][]string{header}
	for k, t := range rep.Topics {
		row := []string{fmt.Sprint(k)}
		for _, m := range ms {
			row = append(row, fmt.Sprintf("%.4f", t.Scores[m]))
		}
		rows = append(rows, append(row, strings.Join(t.Words, " ")))
	}
	for _, r := range rows {
		if _, err := fmt.Fprintln(out, strings.Join(r, "\t")); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintf(out, "mean: %s\n", rep.Summary())
	return err
}
