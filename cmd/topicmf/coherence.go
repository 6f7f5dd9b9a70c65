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

	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/experiments/store"
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
// finished fit run (workflow.ScoreTopics) and prints them, one row per
// topic, then the means.
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
	o, err := q.scoreOptions(0, false, dataDir)
	if err != nil {
		return err
	}
	var training *workflow.Source
	if o.Reference == nil {
		if training, err = trainingOf(runDir, dataDir); err != nil {
			return err
		}
	}
	rep, err := workflow.ScoreTopics(runDir, training, o)
	if damaged, ok := errors.AsType[*store.DamagedError](err); ok {
		_, root, _ := store.RunOf(runDir)
		return damagedRun(runDir, root, damaged.Err)
	}
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

// trainingOf is the input the fit run in dir was fitted on, read again for
// the default reference corpus: a registered data set, by its name in
// config.json. A run keeps no path to a file of one's own (an error that
// asks for --reference) and a Matrix Market file has no text (nil: the
// scoring then says so).
func trainingOf(dir, dataDir string) (*workflow.Source, error) {
	var cfg workflow.Config
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "config.json"), err)
	}
	switch cfg.Data.Kind {
	case workflow.KindDataset:
		return workflow.Resolve(workflow.Input{Data: cfg.Data.Name, DataDir: dataDir, CacheDir: "none"})
	case workflow.KindMTX:
		return nil, nil
	}
	return nil, fmt.Errorf("run %s was fitted on %s (%s), which it does not keep: give --reference PATH", dir, cfg.Data.Name, cfg.Data.Kind)
}
