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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/lda"
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
const fitVersion = "fit/2"

// fitConfig is config.json of a fit run.
type fitConfig struct {
	Command  string            `json:"command"`
	Model    string            `json:"model"`
	Params   map[string]string `json:"params"`
	Seed     uint64            `json:"seed"`
	Data     fitData           `json:"data"`
	TopTerms int               `json:"top_terms"`
	// Quality is --coherence and --reference ("" when off).
	Quality string `json:"quality,omitempty"`
}

type fitData struct {
	// Kind is "dataset" (a registered collection through the text
	// pipeline), "user" (a user's collection read by datasets.ReadUser,
	// through the text pipeline) or "mtx" (a Matrix Market file).
	Kind      string          `json:"kind"`
	Name      string          `json:"name,omitempty"`
	Text      json.RawMessage `json:"text,omitempty"` // text.Options.Canonical
	Transpose bool            `json:"transpose,omitempty"`
	HasVocab  bool            `json:"has_vocab,omitempty"`
	HasLabels bool            `json:"has_labels,omitempty"`
	// Format and Columns say how a user collection was read (format, and
	// the text, id and label column names for CSV/TSV).
	Format  string   `json:"format,omitempty"`
	Columns []string `json:"columns,omitempty"`
	// Split is the split fitted ("" for all documents).
	Split string `json:"split,omitempty"`
}

// splitDocs keeps the documents of col in split ("all" keeps every one);
// it is an error when the collection has no document of that split.
func splitDocs(col *datasets.Collection, split string) (*datasets.Collection, error) {
	if split == "all" {
		return col, nil
	}
	sub := *col
	sub.Docs = nil
	present := map[string]bool{}
	for _, d := range col.Docs {
		present[d.Split] = true
		if d.Split == split {
			sub.Docs = append(sub.Docs, d)
		}
	}
	if len(sub.Docs) == 0 {
		var have []string
		for s := range present {
			if s != "" {
				have = append(have, s)
			}
		}
		slices.Sort(have)
		if len(have) == 0 {
			return nil, fmt.Errorf("--split %s: %s has no splits (use --split all)", split, col.Name)
		}
		return nil, fmt.Errorf("--split %s: %s has no document in that split (splits: %s)", split, col.Name, strings.Join(have, ", "))
	}
	return &sub, nil
}

func newFitCmd() *cobra.Command {
	var (
		model, dataName, mtxPath, vocabPath, outDir string
		corpusCache, labelsPath, split              string
		uopt                                        datasets.UserOptions
		verifyData                                  bool
		params                                      []string
		seed                                        uint64
		top                                         int
		transpose                                   bool
		topt                                        text.Options
		qf                                          qualityFlags
		training                                    func() (*datasets.Collection, error)
	)
	// Shortcuts for the common parameters, typed so that the flag parser
	// rejects "--k ten"; each is the same as --param key=value.
	var (
		kFlag, itersFlag          int
		lambda1, lambda2, tolFlag float64
	)
	shortcuts := []struct {
		flag  string
		value func() string
	}{
		{"k", func() string { return strconv.Itoa(kFlag) }},
		{"lambda1", func() string { return fmtFloat(lambda1) }},
		{"lambda2", func() string { return fmtFloat(lambda2) }},
		{"iters", func() string { return strconv.Itoa(itersFlag) }},
		{"tol", func() string { return fmtFloat(tolFlag) }},
	}
	cmd := &cobra.Command{
		Use:   "fit --model NAME (--data NAME|PATH | --mtx FILE) [-k N] [--param key=value]...",
		Short: "Fit a topic model and store its factors, top terms and iteration trace",
		Long: `fit loads a data set (a registered collection or a collection of one's own
through the text pipeline, or a Matrix Market term-document file), fits the
named model family and writes a complete run directory through the results
store: U.mtx (M×K term-topic factor) and V.mtx (K×N topic-document factor) as
Matrix Market dense arrays, doc_ids.txt (the document of each column of V),
topics.txt (top terms per topic), iterations.csv, metrics.csv, status.json,
quality.csv and topic-quality.csv (mean and per-topic coherence against the
training documents, TD@25 and inverted RBO; --coherence, --reference;
docs/quality.md),
vocab.txt, vectorizer.json (what transform and rank need to weight new text
like the training text), model/ (the saved model transform and rank load:
model.json and its matrices, engine/modelio), config.json and
provenance.json.

--data takes a registered name (topicmf data list) or a path: a folder of text
files (one document per file, sub-folders as classes), a .csv/.tsv file with a
header (--text-col, --id-col, --label-col; a "split" column is used by
--split), a .jsonl file ({"id", "text", "label", "split"}), or a SMART-format
document file (.I/.T/.W). The default text pipeline is the library's
(datasets/text): SMART stop list, tokens of 2-25 letters, min-df 2, max-df
0.95, l2-normalized tf-idf; lda and onlinelda, models of word counts, get raw
counts (--weighting tf --norm none) unless --weighting or --norm is given.
A text-pipeline flag given with --mtx, or a column flag with a file that has
no columns, is an error.

The run directory is <out>/runs/<id>, where id is the SHA-256 of the
configuration, the data checksums and the code version. Running the same fit
again prints "cached: <dir>" without recomputing, once every file of the run
hashes to its manifest; a run that does not is named in a warning and
computed again. A fit interrupted by Ctrl-C, SIGTERM or an error leaves
nothing behind; a fit killed outright (kill -9, a crash) leaves a .tmp-
folder under <out>/runs that the next command on the store removes. Running
it again starts afresh.

Family parameters: --param key=value (repeatable), or the shortcuts --k,
--lambda1, --lambda2, --iters, --tol; a key the family does not declare is an
error. The seed is given with --seed. --mtx files hold D with
terms as rows and documents as columns (--transpose for documents as rows);
--vocab names one term per line, in row order.

` + strings.Join(wrap("Model families (topicmf models NAME lists one's parameters, defaults and ranges): "+strings.Join(catalog.Names(), ", ")+".", modelsWidth), "\n"),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dataDir := dataDirFlag(cmd)
			if model == "" {
				return errors.New("fit: --model is required (topicmf models lists the families)")
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
			for _, s := range shortcuts {
				if !cmd.Flags().Changed(s.flag) {
					continue
				}
				if _, dup := p[s.flag]; dup {
					return fmt.Errorf("fit: parameter %s given both as --%s and --param", s.flag, s.flag)
				}
				p[s.flag] = s.value()
			}
			// fit's own defaults (fitDefaults), where the family's default
			// suits the paper's reproduction but not a user's first fit.
			for key, def := range fitDefaults[model].Params {
				if _, given := p[key]; !given {
					p[key] = def
				}
			}
			if fitDefaults[model].Counts {
				if !cmd.Flags().Changed("weighting") {
					topt.Weighting = text.WeightTF
				}
				if !cmd.Flags().Changed("norm") {
					topt.Norm = text.NormNone
				}
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
			if err := checkOutDir(outDir); err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			if (dataName == "") == (mtxPath == "") {
				return errors.New("fit: give exactly one of --data NAME and --mtx FILE")
			}
			if dataName != "" {
				if err := resolveStopFlag(&topt); err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				if err := checkTextFlags(topt); err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				if o, ok := method.(lda.Options); ok && !o.RoundWeights && !integerWeights(topt) {
					return fmt.Errorf("fit: %w", errNoCounts(topt))
				}
			}

			cfg := fitConfig{Command: "fit", Model: model, Params: p, Seed: seed, TopTerms: top}
			if cfg.Quality, err = qf.configValue(); err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			var sums []store.Checksum
			// load returns the corpus to fit, the raw term counts of its
			// documents (nil for --mtx) and the warnings.
			var load func() (*engine.Corpus, *engine.Corpus, []string, error)
			switch {
			case dataName != "" && isPath(dataName):
				if vocabPath != "" || transpose || labelsPath != "" {
					return errors.New("fit: --vocab, --labels and --transpose apply to --mtx only")
				}
				topt.DataDir = dataDir // a stop list that is not embedded (cacm); "" means $TOPICMF_DATA
				col, format, err := readUserFile(cmd.Flags(), dataName, uopt)
				if err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				if col, err = splitDocs(col, split); err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				sum, err := datasets.UserSHA256(dataName)
				if err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				sums = append(sums, store.Checksum{Name: filepath.Base(dataName), SHA256: sum})
				cfg.Data = fitData{Kind: "user", Name: filepath.Base(dataName), Format: format,
					Text: json.RawMessage(topt.Canonical()), Split: splitKey(split)}
				cfg.Data.Columns = userColumnsKey(format, uopt)
				load = func() (*engine.Corpus, *engine.Corpus, []string, error) {
					return buildWithCounts(col, topt)
				}
				training = func() (*datasets.Collection, error) { return col, nil }
			case dataName != "":
				if vocabPath != "" || transpose || labelsPath != "" {
					return errors.New("fit: --vocab, --labels and --transpose apply to --mtx only")
				}
				if uopt != (datasets.UserOptions{}) {
					return errors.New("fit: --format and --text-col, --id-col, --label-col apply to a --data PATH, not to a registered data set")
				}
				src, err := datasets.Lookup(dataName)
				if err != nil {
					return fmt.Errorf("fit: --data %s: neither a registered data set (topicmf data list shows them) nor an existing file or folder", dataName)
				}
				dir, err := datasets.DataDir(dataDir)
				if err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				topt.DataDir = dir
				cfg.Data = fitData{Kind: "dataset", Name: dataName, Text: json.RawMessage(topt.Canonical()), Split: splitKey(split)}
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
				training = func() (*datasets.Collection, error) { return src.Read(dir) }
				load = func() (*engine.Corpus, *engine.Corpus, []string, error) {
					if split == "all" {
						res, err := corpora.Build(dir, src, topt, corpora.CacheOptions{Dir: corpusCache, Verify: verifyData})
						if err != nil {
							return nil, nil, nil, err
						}
						if isCounts(topt) {
							return res.Corpus, res.Corpus, res.Warnings, nil
						}
						counts, err := corpora.Build(dir, src, countOptions(topt), corpora.CacheOptions{Dir: corpusCache, Verify: verifyData})
						if err != nil {
							return nil, nil, nil, err
						}
						return res.Corpus, counts.Corpus, res.Warnings, nil
					}
					// One split: read, keep the split, build (not cached).
					col, err := src.Read(dir)
					if err != nil {
						return nil, nil, nil, err
					}
					if col, err = splitDocs(col, split); err != nil {
						return nil, nil, nil, err
					}
					return buildWithCounts(col, topt)
				}
			default:
				if err := checkMTXFlags(cmd.Flags()); err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				if err := qf.checkMTX(cmd.Flags().Changed("coherence")); err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				cfg.Data = fitData{Kind: "mtx", Transpose: transpose, HasVocab: vocabPath != "", HasLabels: labelsPath != ""}
				// Read now: a bad file is reported before anything is written.
				c, mtxSums, err := loadMTX(mtxPath, vocabPath, labelsPath, transpose)
				if err != nil {
					return fmt.Errorf("fit: %w", err)
				}
				sums = append(sums, mtxSums...)
				load = func() (*engine.Corpus, *engine.Corpus, []string, error) { return c, nil, nil, nil }
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
			// A fit's product is its factors: every file is hashed before
			// it is served (store.CheckAll), the large factors included.
			if st.CheckAll(id) == nil {
				fmt.Fprintf(out, "cached: %s\n", st.Dir(id))
				return printRunQuality(out, st.Dir(id))
			}
			var status engine.Status
			run, err := st.DoVerified(cmd.Context(), key, func(ctx context.Context, w *store.Writer) error {
				corpus, counts, warnings, err := load()
				if err != nil {
					return err
				}
				if counts != nil && (!slices.Equal(counts.Vocab, corpus.Vocab) || !slices.Equal(counts.DocIDs, corpus.DocIDs)) {
					return errors.New("the count corpus and the weighted corpus differ in vocabulary or documents")
				}
				for _, wmsg := range warnings {
					fmt.Fprintln(errw, "topicmf fit: warning:", wmsg)
				}
				var vec *text.Vectorizer
				if cfg.Data.Kind != "mtx" {
					if vec, err = text.VectorizerFromCorpus(corpus, topt); err != nil {
						return err
					}
				}
				m := newMeter(errw, quietFlag(cmd))
				m.message(startedLine(model, corpus, p["k"]))
				status, err = fitAndWrite(ctx, w, method, corpus, vec, top, warnings, m, maxIters(fam, p))
				if err == nil && status.Reason == engine.NumericalFailure {
					// Recorded for inspection, never cached as a result.
					return store.Fail(errors.New(status.String()))
				}
				if err == nil && counts != nil {
					err = w.WriteFile("counts.mtx", func(out io.Writer) error { return sparse.WriteMM(out, counts.D) })
				}
				if err == nil && corpus.Labels != nil {
					err = w.WriteFile("labels.txt", func(out io.Writer) error {
						for _, l := range corpus.Labels {
							name := "-"
							if l >= 0 {
								name = corpus.ClassNames[l]
							}
							if _, err := io.WriteString(out, name+"\n"); err != nil {
								return err
							}
						}
						return nil
					})
				}
				if err == nil {
					err = qf.writeFitQuality(w, vec, corpus.DocIDs, training, dataDir)
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
				return printRunQuality(out, run.Dir)
			}
			fmt.Fprintf(out, "%s: %s\n", model, status)
			if err := printClusterMetrics(out, run.Dir); err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			if err := printRunQuality(out, run.Dir); err != nil {
				return err
			}
			fmt.Fprintf(out, "wrote: %s\n", run.Dir)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&model, "model", "", "model family (catalog name, e.g. nmf, rlsi)")
	f.StringArrayVar(&params, "param", nil, "family parameter key=value (repeatable)")
	f.IntVarP(&kFlag, "k", "k", 0, "number of topics K (same as --param k=N)")
	f.Float64Var(&lambda1, "lambda1", 0, "λ1 (same as --param lambda1=X)")
	f.Float64Var(&lambda2, "lambda2", 0, "λ2 (same as --param lambda2=X)")
	f.IntVar(&itersFlag, "iters", 0, "maximum iterations (same as --param iters=N)")
	f.Float64Var(&tolFlag, "tol", 0, "relative objective change that stops the fit (same as --param tol=X)")
	f.StringVar(&dataName, "data", "", "registered data set (see topicmf data list), or a folder of text files, .csv/.tsv, .jsonl or SMART file")
	f.StringVar(&uopt.Format, "format", "", "with --data PATH: "+formatList+" (default: from the path)")
	f.StringVar(&uopt.TextCol, "text-col", "", `with a --data CSV/TSV: the text column (default "text")`)
	f.StringVar(&uopt.IDCol, "id-col", "", `with a --data CSV/TSV: the document id column (default "id" when present, else the record number)`)
	f.StringVar(&uopt.LabelCol, "label-col", "", `with a --data CSV/TSV: the class label column (default "label" when present)`)
	addReaderFlags(cmd, &uopt)
	f.StringVar(&split, "split", "all", "with --data: fit the documents of one split only (train, test, ...) or all")
	f.StringVar(&corpusCache, "corpus-cache", "", "with a registered --data: directory of built corpora, so a second fit skips tokenizing (default <user cache>/topicmf/corpora; \"none\" disables)")
	f.BoolVar(&verifyData, "verify", false, "with a registered --data: re-hash every data file even when the corpus cache holds the corpus and the files look unchanged (size and time)")
	f.StringVar(&mtxPath, "mtx", "", "Matrix Market term-document matrix to fit instead of a data set")
	f.StringVar(&vocabPath, "vocab", "", "with --mtx: vocabulary file, one term per line in row order")
	f.BoolVar(&transpose, "transpose", false, "with --mtx: the file has documents as rows")
	f.StringVar(&labelsPath, "labels", "", "with --mtx: class labels, one per line in document order (for the group models)")
	f.StringVar(&outDir, "out", "results", "results root, not a run or its runs/ folder; the run goes to <out>/runs/<id>")
	f.Uint64Var(&seed, "seed", fitSeedDefault, "random seed of the model's initialization")
	f.IntVar(&top, "top", 10, "top terms per topic in topics.txt")
	qf.register(f, "npmi,cv")
	def := text.Default()
	f.StringVar(&topt.StopList, "stop", def.StopList, "with --data: stop list (smart, terrier, nltk: embedded; cacm: from the data directory; or none), a FILE of one's own (one word a line), or LIST+FILE (smart+mystop.txt)")
	f.BoolVar(&topt.Stem, "stem", false, "with --data: Snowball English stemming")
	f.IntVar(&topt.MinDF, "min-df", def.MinDF, "with --data: drop terms in fewer documents (1: keep all)")
	f.Float64Var(&topt.MaxDF, "max-df", def.MaxDF, "with --data: drop terms in more than this fraction of the documents (1: keep all)")
	f.IntVar(&topt.MaxTokenLen, "max-token-len", def.MaxTokenLen, "with --data: drop tokens longer than this many letters (-1: no limit)")
	f.BoolVar(&topt.KeepMixed, "keep-mixed", false, "with --data: keep tokens mixing digits and letters (b52, z6ei4)")
	f.StringSliceVar(&topt.Strip, "strip", nil, "with --data: remove parts of news posts before tokenizing: headers, footers, quotes (scikit-learn's 20 Newsgroups remove=)")
	f.IntVar(&topt.MaxVocab, "max-vocab", 0, "with --data: keep the most frequent terms only (0: all)")
	f.StringVar(&topt.Weighting, "weighting", def.Weighting, "with --data: tf, boolean, tfidf or logtf-idf (lda, onlinelda: tf)")
	f.StringVar(&topt.Norm, "norm", def.Norm, "with --data: l2 (unit-length documents) or none (lda, onlinelda: none)")

	return cmd
}

// fitDefault is what fit uses for one family where the command line says
// nothing and the family's declared default (the library's, which the
// paper experiments use) serves the paper's reproduction but not a first
// fit on one's own data. Both are recorded in config.json like given
// values: Params in "params", the pipeline in "data"/"text".
type fitDefault struct {
	// Params are parameter values used when no --param (or shortcut) gives
	// the key.
	Params map[string]string
	// Counts marks a model of term counts: the text pipeline gives raw
	// term frequencies, unnormalized (--weighting tf --norm none), unless
	// --weighting or --norm is given.
	Counts bool
}

// fitDefaults are, per family, fit's own defaults (fitDefault).
//
// RLSI: the paper's λ1 = 0.5 read as given regularizes nothing on raw
// tf-idf (AvgComp 0.956 on Cranfield) and empties every topic on the
// default pipeline's unit-length documents; λ read relative to the data's
// scale (rlsi.Options.RelativeLambda), V⁽⁰⁾ drawn at that scale and
// λ1 = 0.05 give sparse topics with none empty at K = 20: AvgComp 0.10 on
// Cranfield and 0.039 on 20 Newsgroups (λ1 = 0.1 leaves 3 of 20 topics
// empty on 20 Newsgroups; docs/pipeline.md).
//
// LDA (Gibbs and online) models the counts n(d,w) of the words of each
// document: Gibbs LDA refuses a weight that is not an integer, and online
// LDA on the default pipeline's unit-length tf-idf documents (an ℓ1 mass of
// a few "words" each) gives topics of rare terms ("indicial exerted sinking
// drags" on Cranfield at K = 10, against "flow pressure mach number shock"
// on counts). Both get raw counts, as in scikit-learn's topic-extraction
// example that the default pipeline follows (tf-idf for NMF, a
// CountVectorizer for LDA). PLSI accepts any non-negative weight and gives
// topics as clear on the default pipeline, so it keeps it.
var fitDefaults = map[string]fitDefault{
	"rlsi":      {Params: map[string]string{"lambda-scale": "relative", "init-scale": "balanced", "lambda1": "0.05"}},
	"lda":       {Counts: true},
	"onlinelda": {Counts: true},
}

// fitSeedDefault is the default of --seed, which fit gives every family
// that declares a "seed" parameter (declared default: 0).
const fitSeedDefault = 1

// maxIters is the iteration limit of a fit of fam with p: the "iters"
// parameter, given or default; 0 when the family declares none.
func maxIters(fam catalog.Family, p catalog.Params) int {
	v, ok := p["iters"]
	if !ok {
		for _, fp := range fam.Params {
			if fp.Key == "iters" {
				v, ok = fp.Default, true
			}
		}
	}
	n, err := strconv.Atoi(v)
	if !ok || err != nil || n < 0 {
		return 0
	}
	return n
}

// countOptions are opts giving raw term counts with the same tokens,
// vocabulary and documents (counts.mtx of a run: the index of BM25 and LM
// in rank, and the corpus transform rebuilds).
func countOptions(opts text.Options) text.Options {
	opts.Weighting, opts.Norm = text.WeightTF, text.NormNone
	return opts
}

// isCounts reports whether opts already give raw term counts (a count
// model's pipeline), so that the counts need no second build.
func isCounts(opts text.Options) bool {
	return opts.Canonical() == countOptions(opts).Canonical()
}

// buildWithCounts builds col's corpus under opts and its raw counts
// (countOptions), with the collection's and the pipeline's warnings.
func buildWithCounts(col *datasets.Collection, opts text.Options) (*engine.Corpus, *engine.Corpus, []string, error) {
	corpus, rep, err := text.Build(col, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	counts := corpus
	if !isCounts(opts) {
		if counts, _, err = text.Build(col, countOptions(opts)); err != nil {
			return nil, nil, nil, err
		}
	}
	warnings := append(slices.Clone(col.Warnings), rep.Warnings...)
	if w := spacedIDsWarning(corpus.DocIDs); w != "" {
		warnings = append(warnings, w)
	}
	return corpus, counts, warnings, nil
}

// isPath reports whether --data names an existing file or folder (a user's
// collection) rather than a registered data set.
func isPath(s string) bool {
	_, err := os.Stat(s)
	return err == nil
}

// splitKey is the config value of --split ("" for all documents, so that
// runs of all documents keep their ids).
func splitKey(split string) string {
	if split == "all" {
		return ""
	}
	return split
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// fitAndWrite fits method on corpus and writes the run's files; vec (nil
// for a Matrix Market corpus) is saved so that transform and rank weight
// new text as the corpus was weighted.
// Progress goes to m (nil: none) as iteration i of maxIter (0 when the
// family has no iteration limit); the ETA assumes every iteration runs, so
// a fit that converges earlier ends sooner.
func fitAndWrite(ctx context.Context, w *store.Writer, method engine.Method, corpus *engine.Corpus, vec *text.Vectorizer, top int, warnings []string, m *meter, maxIter int) (engine.Status, error) {
	trace, err := newTraceWriter(w)
	if err != nil {
		return engine.Status{}, err
	}
	defer trace.Abort()
	// A trace write error (a full disk) stops the fit at that iteration.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	// The trace streams to disk; memory holds only the last iterations.
	rec := engine.NewBoundedRecorder(fitKeepIterations)
	var obj lastObjective
	rec.OnIteration = func(it engine.Iteration) {
		if err := trace.Record(it); err != nil {
			stop(err)
			return
		}
		if fitIterationHook != nil {
			fitIterationHook(it)
		}
		if m != nil {
			eta := time.Duration(-1)
			if maxIter > 0 {
				eta = remaining(m.elapsed(), it.Iter, maxIter)
			}
			m.show("iteration", it.Iter, maxIter, eta, obj.text(it), false)
		}
	}
	model, status, err := method.Fit(ctx, corpus, rec)
	m.finish()
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
	U := model.TermTopics()
	VT := model.DocTopics()
	var V mat.Dense
	V.CloneFrom(VT.T())
	if err := w.WriteFile("U.mtx", func(out io.Writer) error { return sparse.WriteDenseMM(out, U) }); err != nil {
		return status, err
	}
	if err := w.WriteFile("V.mtx", func(out io.Writer) error { return sparse.WriteDenseMM(out, &V) }); err != nil {
		return status, err
	}
	if err := writeModel(w, model); err != nil {
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
	if err := w.WriteFile("doc_ids.txt", func(out io.Writer) error {
		for j := range corpus.Docs() {
			id := strconv.Itoa(j + 1)
			if corpus.DocIDs != nil {
				id = corpus.DocIDs[j]
			}
			if _, err := io.WriteString(out, id+"\n"); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return status, err
	}
	if vec != nil {
		if err := w.WriteFile("vectorizer.json", func(out io.Writer) error { return writeVectorizer(out, vec) }); err != nil {
			return status, err
		}
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
	metrics = append(metrics, labelMetricRows(corpus, VT)...)
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

// readHashed opens path, calls read on its bytes and returns their SHA-256,
// reading the file once: a pipe (--mtx /dev/stdin) works like a file. What
// read leaves unread is hashed too, so that the digest is the file's. For
// a regular file the reader has a Len method (the bytes left), by which
// the Matrix Market reader bounds what a size line may declare.
func readHashed(path string, read func(io.Reader) error) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	var r io.Reader = io.TeeReader(f, h)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		r = &sizedReader{r: r, left: fi.Size()}
	}
	if err := read(r); err != nil {
		return "", err
	}
	if _, err := io.Copy(io.Discard, r); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sizedReader is a reader of a known number of bytes, which Len tells.
type sizedReader struct {
	r    io.Reader
	left int64
}

func (s *sizedReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.left -= int64(n)
	return n, err
}

// Len is the number of bytes left.
func (s *sizedReader) Len() int { return int(max(s.left, 0)) }

// loadMTX reads a term-document Matrix Market file (documents × terms
// with transpose), its optional vocabulary and its optional class labels
// (one per line, in document order), each file once; it returns the
// corpus and the files' checksums (named matrix, vocab, labels).
func loadMTX(path, vocabPath, labelsPath string, transpose bool) (*engine.Corpus, []store.Checksum, error) {
	var d *sparse.CSR
	sum, err := readHashed(path, func(r io.Reader) (err error) {
		if d, err = (sparse.MMOptions{NonNegative: true}).ReadMM(r); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sums := []store.Checksum{{Name: "matrix", SHA256: sum}}
	if transpose {
		d = d.T()
	}
	var vocab []string
	if vocabPath != "" {
		var sum string
		if vocab, sum, err = readHashedLines(vocabPath, "term"); err != nil {
			return nil, nil, err
		}
		sums = append(sums, store.Checksum{Name: "vocab", SHA256: sum})
		if err := checkUniqueTerms(vocabPath, vocab); err != nil {
			return nil, nil, err
		}
		if len(vocab) != d.Rows {
			what := "rows"
			if transpose {
				what = "columns"
			}
			return nil, nil, fmt.Errorf("%s: %d terms, but %s has %d term %s", vocabPath, len(vocab), path, d.Rows, what)
		}
	} else {
		vocab = make([]string, d.Rows)
		for i := range vocab {
			vocab[i] = "t" + strconv.Itoa(i)
		}
	}
	var labels []int
	var classes []string
	if labelsPath != "" {
		names, sum, err := readHashedLines(labelsPath, "label")
		if err != nil {
			return nil, nil, err
		}
		sums = append(sums, store.Checksum{Name: "labels", SHA256: sum})
		if len(names) != d.Cols {
			return nil, nil, fmt.Errorf("%s: %d labels, but %s has %d documents", labelsPath, len(names), path, d.Cols)
		}
		index := map[string]int{}
		for _, n := range names {
			index[n] = 0
		}
		for n := range index {
			classes = append(classes, n)
		}
		slices.Sort(classes)
		for k, n := range classes {
			index[n] = k
		}
		labels = make([]int, len(names))
		for j, n := range names {
			labels[j] = index[n]
		}
	}
	c, err := engine.NewCorpus(filepath.Base(path), vocab, d, nil, labels, classes)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, sums, nil
}

// readLines reads one non-empty entry (a term, a label) per line.
func readLines(path, what string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLinesFrom(f, path, what)
}

// readHashedLines reads the non-empty lines of path (a term or label per
// line, what names it in errors) and the file's SHA-256, in one pass.
func readHashedLines(path, what string) (lines []string, sum string, err error) {
	sum, err = readHashed(path, func(r io.Reader) (err error) {
		lines, err = readLinesFrom(r, path, what)
		return err
	})
	return lines, sum, err
}

// readLinesFrom reads one non-empty entry per line from r, the contents of
// path (named in errors).
func readLinesFrom(r io.Reader, path, what string) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var out []string
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			return nil, fmt.Errorf("%s: line %d: empty %s", path, line, what)
		}
		out = append(out, t)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s: line %d is longer than 1 MiB; want one %s per line", path, line+1, what)
	} else if err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", path, line+1, err)
	}
	return out, nil
}
