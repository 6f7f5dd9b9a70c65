package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/metrics/topics"
)

// fitIterationHook, when set (by tests), is called after every iteration
// of a fit, before progress is shown.
var fitIterationHook func(engine.Iteration)

// fitKeepIterations is how many iterations a fit holds in memory; the
// whole trace goes to iterations.csv as it is recorded.
const fitKeepIterations = 16

// fitVersion is the fit command's own version in the code-version key;
// bump it when what fit writes changes.
const fitVersion = "fit/1"

// fitConfig is config.json of a fit run.
type fitConfig struct {
	Command  string            `json:"command"`
	Model    string            `json:"model"`
	Params   map[string]string `json:"params"`
	Seed     uint64            `json:"seed"`
	Data     fitData           `json:"data"`
	TopTerms int               `json:"top_terms"`
}

type fitData struct {
	// Kind is "dataset" (a registered collection through the text
	// pipeline) or "mtx" (a Matrix Market file).
	Kind      string          `json:"kind"`
	Name      string          `json:"name,omitempty"`
	Text      json.RawMessage `json:"text,omitempty"` // text.Options.Canonical
	Transpose bool            `json:"transpose,omitempty"`
	HasVocab  bool            `json:"has_vocab,omitempty"`
}

func newFitCmd() *cobra.Command {
	var (
		model, dataName, mtxPath, vocabPath, outDir, dataDir string
		corpusCache                                          string
		verifyData                                           bool
		params                                               []string
		seed                                                 uint64
		top                                                  int
		transpose                                            bool
		topt                                                 text.Options
	)
	shortcuts := []struct{ flag, key, usage string }{
		{"k", "k", "number of topics K (same as --param k=N)"},
		{"lambda1", "lambda1", "λ1 (same as --param lambda1=X)"},
		{"lambda2", "lambda2", "λ2 (same as --param lambda2=X)"},
		{"iters", "iters", "maximum iterations (same as --param iters=N)"},
		{"tol", "tol", "relative objective change that stops the fit (same as --param tol=X)"},
	}
	shortVals := make([]string, len(shortcuts))
	cmd := &cobra.Command{
		Use:   "fit --model NAME (--data NAME | --mtx FILE) [--k N] [--param key=value]... [--out DIR] [--seed N]",
		Short: "Fit a topic model and store its factors, top terms and iteration trace",
		Long: `fit loads a data set (a registered collection through the text pipeline, or a
Matrix Market term-document file), fits the named model family and writes a
complete run directory through the results store: U.mtx (M×K term-topic
factor) and V.mtx (K×N topic-document factor) as Matrix Market dense arrays,
topics.txt (top terms per topic), iterations.csv, metrics.csv, status.json,
vocab.txt, config.json and provenance.json.

The run directory is <out>/runs/<id>, where id is the SHA-256 of the
configuration, the data checksums and the code version. Running the same fit
again prints "cached: <dir>" without recomputing. An interrupted fit leaves
nothing behind; running it again starts afresh.

Family parameters: --param key=value (repeatable), or the shortcuts --k,
--lambda1, --lambda2, --iters, --tol; a key the family does not declare is an
error. The seed is given with --seed. --mtx files hold D with
terms as rows and documents as columns (--transpose for documents as rows);
--vocab names one term per line, in row order.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if model == "" {
				return errors.New("fit: --model is required")
			}
			fam, err := catalog.Lookup(model)
			if err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			p := catalog.Params{}
			for _, kv := range params {
				k, v, ok := strings.Cut(kv, "=")
				k = strings.TrimSpace(k)
				if !ok || k == "" {
					return fmt.Errorf("fit: --param %q: want key=value", kv)
				}
				if _, dup := p[k]; dup {
					return fmt.Errorf("fit: parameter %s given twice", k)
				}
				p[k] = strings.TrimSpace(v)
			}
			for i, s := range shortcuts {
				if !cmd.Flags().Changed(s.flag) {
					continue
				}
				if _, dup := p[s.key]; dup {
					return fmt.Errorf("fit: parameter %s given both as --%s and --param", s.key, s.flag)
				}
				p[s.key] = shortVals[i]
			}
			if _, ok := p["seed"]; ok {
				return errors.New("fit: give the seed with --seed, not --param seed=")
			}
			hasSeed := false
			for _, fp := range fam.Params {
				if fp.Key == "seed" {
					hasSeed = true
				}
			}
			// Validate the parameters before touching any data.
			withSeed := catalog.Params{}
			for k, v := range p {
				withSeed[k] = v
			}
			if hasSeed {
				withSeed["seed"] = strconv.FormatUint(seed, 10)
			}
			method, err := catalog.New(model, withSeed)
			if err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			if top < 1 {
				return fmt.Errorf("fit: --top = %d, want ≥ 1", top)
			}

			cfg := fitConfig{Command: "fit", Model: model, Params: p, Seed: seed, TopTerms: top}
			var sums []store.Checksum
			var load func() (*engine.Corpus, []string, error)
			switch {
			case (dataName == "") == (mtxPath == ""):
				return errors.New("fit: give exactly one of --data NAME and --mtx FILE")
			case dataName != "":
				if vocabPath != "" || transpose {
					return errors.New("fit: --vocab and --transpose apply to --mtx only")
				}
				if err := topt.Validate(); err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				src, err := datasets.Lookup(dataName)
				if err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				if dataDir != "" {
					if fi, err := os.Stat(dataDir); err != nil || !fi.IsDir() {
						return fmt.Errorf("fit: --data-dir %s: not an existing directory", dataDir)
					}
				}
				dir, err := datasets.DataDir(dataDir)
				if err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				topt.DataDir = dir
				cfg.Data = fitData{Kind: "dataset", Name: dataName, Text: json.RawMessage(topt.Canonical())}
				files, err := corpora.Files(src, topt)
				if err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				for _, f := range files {
					sums = append(sums, store.Checksum{Name: f.Path, SHA256: f.SHA256})
				}
				if corpusCache == "" {
					if corpusCache, err = corpora.DefaultCacheDir(); err != nil {
						return fmt.Errorf("fit: %w", err)
					}
				}
				if corpusCache == "none" {
					corpusCache = ""
				}
				load = func() (*engine.Corpus, []string, error) {
					res, err := corpora.Build(dir, src, topt, corpora.CacheOptions{Dir: corpusCache, Verify: verifyData})
					if err != nil {
						return nil, nil, err
					}
					return res.Corpus, res.Warnings, nil
				}
			default:
				cfg.Data = fitData{Kind: "mtx", Transpose: transpose, HasVocab: vocabPath != ""}
				sum, err := fileSHA256(mtxPath)
				if err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				sums = append(sums, store.Checksum{Name: "matrix", SHA256: sum})
				if vocabPath != "" {
					sum, err := fileSHA256(vocabPath)
					if err != nil {
						return fmt.Errorf("fit: %w", err)
					}
					sums = append(sums, store.Checksum{Name: "vocab", SHA256: sum})
				}
				load = func() (*engine.Corpus, []string, error) {
					c, err := loadMTX(mtxPath, vocabPath, transpose)
					return c, nil, err
				}
			}

			st, err := store.Open(outDir)
			if err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			key := store.Key{Config: cfg, Datasets: sums, Code: st.Code().WithExperiment(fitVersion), Seed: seed}
			id, err := key.ID()
			if err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if st.Finished(id) {
				fmt.Fprintf(out, "cached: %s\n", st.Dir(id))
				return nil
			}
			var status engine.Status
			run, err := st.Do(cmd.Context(), key, func(ctx context.Context, w *store.Writer) error {
				corpus, warnings, err := load()
				if err != nil {
					return err
				}
				for _, wmsg := range warnings {
					fmt.Fprintln(errw, "topicmf fit: warning:", wmsg)
				}
				status, err = fitAndWrite(ctx, w, method, corpus, top, warnings, errw)
				if err == nil && status.Reason == engine.NumericalFailure {
					// Recorded for inspection, never cached as a result.
					return store.Fail(errors.New(status.String()))
				}
				return err
			})
			if run.Replaced != "" && !strings.HasPrefix(run.Replaced, "failed before") {
				fmt.Fprintf(errw, "topicmf fit: warning: stored run %s did not match its manifest (%s); computed again\n", shortPath(run.Dir), run.Replaced)
			}
			if run.Failed {
				return fmt.Errorf("fit: %s: %w (recorded in %s, not cached)", model, err, shortPath(run.Dir))
			}
			if err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			if run.Cached {
				fmt.Fprintf(out, "cached: %s\n", run.Dir)
				return nil
			}
			fmt.Fprintf(out, "%s: %s\n", model, status)
			fmt.Fprintf(out, "wrote: %s\n", run.Dir)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&model, "model", "", "model family (catalog name, e.g. nmf, rlsi)")
	f.StringArrayVar(&params, "param", nil, "family parameter key=value (repeatable)")
	for i, s := range shortcuts {
		f.StringVar(&shortVals[i], s.flag, "", s.usage)
	}
	f.StringVar(&dataName, "data", "", "registered data set to fit (see topicmf data list)")
	f.StringVar(&dataDir, "data-dir", "", "data directory (overrides $TOPICMF_DATA)")
	f.StringVar(&corpusCache, "corpus-cache", "", "with --data: directory of built corpora, so a second fit skips tokenizing (default <user cache>/topicmf/corpora; \"none\" disables)")
	f.BoolVar(&verifyData, "verify", false, "with --data: re-hash every data file even when the corpus cache holds the corpus and the files look unchanged (size and time)")
	f.StringVar(&mtxPath, "mtx", "", "Matrix Market term-document matrix to fit instead of a data set")
	f.StringVar(&vocabPath, "vocab", "", "with --mtx: vocabulary file, one term per line in row order")
	f.BoolVar(&transpose, "transpose", false, "with --mtx: the file has documents as rows")
	f.StringVar(&outDir, "out", "results", "results root; the run goes to <out>/runs/<id>")
	f.Uint64Var(&seed, "seed", 1, "random seed of the model's initialization")
	f.IntVar(&top, "top", 10, "top terms per topic in topics.txt")
	f.StringVar(&topt.StopList, "stop", "smart", "with --data: stop list (smart, terrier, cacm, nltk, or none)")
	f.BoolVar(&topt.Stem, "stem", false, "with --data: Snowball English stemming")
	f.IntVar(&topt.MinDF, "min-df", 0, "with --data: drop terms in fewer documents")
	f.IntVar(&topt.MaxVocab, "max-vocab", 0, "with --data: keep the most frequent terms only (0: all)")
	f.StringVar(&topt.Weighting, "weighting", "", "with --data: tf, boolean, tfidf (default) or logtf-idf")
	return cmd
}

// fitAndWrite fits method on corpus and writes the run's files.
func fitAndWrite(ctx context.Context, w *store.Writer, method engine.Method, corpus *engine.Corpus, top int, warnings []string, errw io.Writer) (engine.Status, error) {
	trace, err := newTraceWriter(w)
	if err != nil {
		return engine.Status{}, err
	}
	defer trace.Abort()
	// The trace streams to disk; memory holds only the last iterations.
	rec := engine.NewBoundedRecorder(fitKeepIterations)
	tty := isTerminal(errw)
	rec.OnIteration = func(it engine.Iteration) {
		trace.Record(it)
		if fitIterationHook != nil {
			fitIterationHook(it)
		}
		if tty {
			fmt.Fprintf(errw, "\riteration %d  objective %.6g   ", it.Iter, it.Objective)
		}
	}
	m, status, err := method.Fit(ctx, corpus, rec)
	if tty {
		fmt.Fprintln(errw)
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
	U := m.TermTopics()
	VT := m.DocTopics()
	var V mat.Dense
	V.CloneFrom(VT.T())
	if err := w.WriteFile("U.mtx", func(out io.Writer) error { return sparse.WriteDenseMM(out, U) }); err != nil {
		return status, err
	}
	if err := w.WriteFile("V.mtx", func(out io.Writer) error { return sparse.WriteDenseMM(out, &V) }); err != nil {
		return status, err
	}
	if err := w.WriteFile("topics.txt", func(out io.Writer) error {
		for k, terms := range topics.TopTerms(U, corpus.Vocab, top) {
			if _, err := fmt.Fprintf(out, "topic %d: %s\n", k, topics.Format(terms)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return status, err
	}
	if err := w.WriteFile("vocab.txt", func(out io.Writer) error {
		for _, t := range corpus.Vocab {
			if _, err := io.WriteString(out, t+"\n"); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return status, err
	}
	if err := writeStatus(w, status); err != nil {
		return status, err
	}
	metrics := [][]string{
		{"terms", strconv.Itoa(corpus.Terms())},
		{"documents", strconv.Itoa(corpus.Docs())},
		{"iterations", strconv.Itoa(status.Iterations)},
		{"objective", store.FormatFloat(status.Objective)},
		{"avgcomp", store.FormatFloat(topics.AvgComp(U))},
	}
	if err := w.WriteCSV("metrics.csv", []string{"metric", "value"}, metrics); err != nil {
		return status, err
	}
	if len(warnings) > 0 {
		if err := w.WriteBytes("notes.txt", []byte(strings.Join(warnings, "\n")+"\n")); err != nil {
			return status, err
		}
	}
	return status, nil
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

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// loadMTX reads a term-document Matrix Market file (documents × terms
// with transpose) and its optional vocabulary.
func loadMTX(path, vocabPath string, transpose bool) (*engine.Corpus, error) {
	d, err := sparse.ReadMMFile(path)
	if err != nil {
		return nil, err
	}
	if transpose {
		d = d.T()
	}
	var vocab []string
	if vocabPath != "" {
		f, err := os.Open(vocabPath)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		line := 0
		for sc.Scan() {
			line++
			t := strings.TrimSpace(sc.Text())
			if t == "" {
				return nil, fmt.Errorf("%s: line %d: empty term", vocabPath, line)
			}
			vocab = append(vocab, t)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", vocabPath, line+1, err)
		}
		if len(vocab) != d.Rows {
			what := "rows"
			if transpose {
				what = "columns"
			}
			return nil, fmt.Errorf("%s: %d terms, but %s has %d term %s", vocabPath, len(vocab), path, d.Rows, what)
		}
	} else {
		vocab = make([]string, d.Rows)
		for i := range vocab {
			vocab[i] = "t" + strconv.Itoa(i)
		}
	}
	c, err := engine.NewCorpus(filepath.Base(path), vocab, d, nil, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}
