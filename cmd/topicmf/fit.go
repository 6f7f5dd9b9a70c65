package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/experiments/workflow"
)

// fitIterationHook, when set (by tests), is called after every iteration
// of a fit, before progress is shown.
var fitIterationHook func(engine.Iteration)

// fitFlags are fit's command line.
type fitFlags struct {
	model  string
	params []string          // --param key=value
	text   map[string]string // the text-pipeline flags given, by key
	input  workflow.Input
	seed   uint64
	top    int
	out    string
	// Shortcuts for the common parameters, typed so that the flag parser
	// rejects "--k ten"; each is the same as --param key=value.
	k, iters              int
	lambda1, lambda2, tol float64
	quality               qualityFlags
}

func newFitCmd() *cobra.Command {
	f := &fitFlags{text: map[string]string{}}
	cmd := &cobra.Command{
		Use:   "fit --model NAME (--data NAME|PATH | --mtx FILE) [-k N] [--param key=value]...",
		Short: "Fit a topic model and store its factors, top terms and iteration trace",
		Long: `fit loads a data set (a registered collection or a collection of one's own
through the text pipeline, or a Matrix Market term-document file), fits the
named model family and writes a complete run directory through the results
store: U.mtx (M×K term-topic factor) and V.mtx (K×N topic-document factor) as
Matrix Market dense arrays, doc_ids.txt (the document of each column of V),
topics.txt (the top 10 terms per topic), iterations.csv, metrics.csv,
status.json, vocab.txt, vectorizer.json (what transform and rank need to
weight new text like the training text), model/ (the saved model transform
and rank load: model.json and its matrices, engine/modelio), config.json
and provenance.json.

The scores of the fitted topics are a run of their own, <out>/runs/<id>
printed as "scores: <dir>": topics.txt (the top --top terms per topic),
quality.csv and topic-quality.csv (mean and per-topic coherence, TD@25 and
inverted RBO; --coherence, --reference; docs/quality.md). Its id is that of
the fit run with the scoring options: --top, --coherence and --reference
do not change the model, so asking for other scores of a stored fit scores
it without fitting again and leaves the stored fit and its earlier scores
as they are.

--data takes a registered name (topicmf data list) or a path: a folder of text
files (one document per file, sub-folders as classes), a .csv/.tsv file with a
header (--text-col, --id-col, --label-col; a "split" column is used by
--split), a .jsonl file ({"id", "text", "label", "split"}), or a SMART-format
document file (.I/.T/.W). The default text pipeline is the library's
(datasets/text): SMART stop list, tokens of 2-25 letters, min-df 2, max-df
0.95, l2-normalized tf-idf; ` + countFamilies() + `, models of word counts, get raw
counts (--weighting tf --norm none) unless --weighting or --norm is given
(topicmf models shows each family's front-end defaults).
A text-pipeline flag given with --mtx, or a column flag with a file that has
no columns, is an error.

The run directory is <out>/runs/<id>, where id is the SHA-256 of what
determines the model (data, text pipeline, family, parameters, seed), the
data checksums and the code version. Running the same fit
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
			if err := runFit(cmd, f); err != nil {
				return fmt.Errorf("fit: %w", err)
			}
			return nil
		},
	}
	addFitFlags(cmd.Flags(), f)
	addReaderFlags(cmd, &f.input.Read)
	annotateInputs(cmd.Flags(), []string{inputFile, inputColumns}, "no-header", "topic-fields")
	return cmd
}

// addFitFlags declares fit's flags, each with the inputs it applies to.
func addFitFlags(fs *pflag.FlagSet, f *fitFlags) {
	fs.StringVar(&f.model, "model", "", "model family (catalog name, e.g. nmf, rlsi)")
	fs.StringArrayVar(&f.params, "param", nil, "family parameter key=value (repeatable)")
	fs.IntVarP(&f.k, "k", "k", 0, "number of topics K (same as --param k=N)")
	fs.Float64Var(&f.lambda1, "lambda1", 0, "λ1 (same as --param lambda1=X)")
	fs.Float64Var(&f.lambda2, "lambda2", 0, "λ2 (same as --param lambda2=X)")
	fs.IntVar(&f.iters, "iters", 0, "maximum iterations (same as --param iters=N)")
	fs.Float64Var(&f.tol, "tol", 0, "relative objective change that stops the fit (same as --param tol=X)")
	in := &f.input
	fs.StringVar(&in.Data, "data", "", "registered data set (see topicmf data list), or a folder of text files, .csv/.tsv, .jsonl or SMART file")
	fs.StringVar(&in.Read.Format, "format", "", "with --data PATH: "+formatList+" (default: from the path)")
	fs.StringVar(&in.Read.TextCol, "text-col", "", `with a --data CSV/TSV: the text column (default "text")`)
	fs.StringVar(&in.Read.IDCol, "id-col", "", `with a --data CSV/TSV: the document id column (default "id" when present, else the record number)`)
	fs.StringVar(&in.Read.LabelCol, "label-col", "", `with a --data CSV/TSV: the class label column (default "label" when present)`)
	fs.StringVar(&in.Split, "split", "all", "with --data: fit the documents of one split only (train, test, ...) or all")
	fs.StringVar(&in.CacheDir, "corpus-cache", "", "with a registered --data: directory of built corpora, so a second fit skips tokenizing (default <user cache>/topicmf/corpora; \"none\" disables)")
	fs.BoolVar(&in.Verify, "verify", false, "with a registered --data: re-hash every data file even when the corpus cache holds the corpus and the files look unchanged (size and time)")
	fs.StringVar(&in.MTX.Path, "mtx", "", "Matrix Market term-document matrix to fit instead of a data set")
	fs.StringVar(&in.MTX.Vocab, "vocab", "", "with --mtx: vocabulary file, one term per line in row order")
	fs.BoolVar(&in.MTX.Transpose, "transpose", false, "with --mtx: the file has documents as rows")
	fs.StringVar(&in.MTX.Labels, "labels", "", "with --mtx: class labels, one per line in document order (for the group models)")
	fs.StringVar(&f.out, "out", "results", "results root, not a run or its runs/ folder; the run goes to <out>/runs/<id>")
	fs.Uint64Var(&f.seed, "seed", workflow.DefaultSeed, "random seed of the model's initialization")
	fs.IntVar(&f.top, "top", workflow.TopTerms, "top terms per topic in the scores' topics.txt")
	f.quality.register(fs, "npmi,cv")
	var scratch text.Options
	textParams := text.Params()
	addParamFlags(fs, textParams, f.text, "with --data: ", func(v map[string]string) error { return text.ParseParams(&scratch, v) })
	for _, p := range textParams {
		annotateInputs(fs, textInputs, p.Key)
	}
	annotateInputs(fs, textInputs, "split")
	annotateInputs(fs, []string{inputFile, inputColumns}, "format")
	annotateInputs(fs, []string{inputColumns}, "text-col", "id-col", "label-col")
	annotateInputs(fs, []string{inputRegistered}, "corpus-cache", "verify")
	annotateInputs(fs, []string{inputMTX}, "vocab", "transpose", "labels")
}

// runFit checks the whole command line before reading any data, then fits
// and writes the run (workflow.FitRun), scores it (workflow.ScoreRun: the
// scoring options are not in the fit's key, so other scores of a fit
// already stored are computed without fitting again) and says where both
// went.
func runFit(cmd *cobra.Command, f *fitFlags) error {
	m, err := f.method(cmd.Flags())
	if err != nil {
		return err
	}
	if f.top < 1 {
		return fmt.Errorf("--top = %d, want ≥ 1", f.top)
	}
	if err := checkOutDir(f.out); err != nil {
		return err
	}
	src, err := f.source(cmd, m)
	if err != nil {
		return err
	}
	scoring, err := f.quality.scoreOptions(f.top, src.Data.Kind == workflow.KindMTX, dataDirFlag(cmd))
	if err != nil {
		return err
	}
	st, err := store.Open(f.out)
	if err != nil {
		return err
	}
	out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	meter := newMeter(errw, quietFlag(cmd))
	res, err := workflow.FitRun(cmd.Context(), st, m, src, workflow.RunOptions{
		OnStart:     func(c *engine.Corpus) { meter.message(startedLine(f.model, c, m.Params["k"])) },
		OnIteration: fitProgress(meter, m.MaxIters()),
		OnWarning:   func(msg string) { fmt.Fprintln(errw, "topicmf fit: warning:", msg) },
	})
	meter.finish()
	if res.Replaced != "" && !strings.HasPrefix(res.Replaced, "failed before") {
		fmt.Fprintf(errw, "topicmf fit: warning: stored run %s did not match its manifest (%s); computed again\n", shortPath(res.Dir), res.Replaced)
	}
	switch {
	case res.Failed:
		return fmt.Errorf("%s: %w (recorded in %s, not cached)", f.model, err, shortPath(res.Dir))
	case err != nil:
		return err
	case res.Cached:
		fmt.Fprintf(out, "cached: %s\n", res.Dir)
	default:
		fmt.Fprintf(out, "%s: %s\n", f.model, res.Status)
		if err := printClusterMetrics(out, res.Dir); err != nil {
			return err
		}
	}
	scores, err := scoreFit(cmd, st, res.Run, src, scoring)
	if err != nil {
		return err
	}
	if !res.Cached {
		fmt.Fprintf(out, "wrote: %s\n", res.Dir)
	}
	if scores != "" {
		fmt.Fprintf(out, "scores: %s\n", scores)
	}
	return nil
}

// scoreFit scores the fit run (workflow.ScoreRun), when the scoring adds
// anything to it, prints the topic quality and returns the scoring run's
// directory ("" when there is none).
func scoreFit(cmd *cobra.Command, st *store.Store, fit store.Run, src *workflow.Source, o workflow.ScoreOptions) (string, error) {
	if !o.AddsToFit() {
		return "", nil
	}
	scores, err := workflow.ScoreRun(cmd.Context(), st, fit, src, o)
	if err != nil {
		return "", err
	}
	return scores.Dir, printRunQuality(cmd.OutOrStdout(), scores.Dir)
}

// fitProgress shows iteration i of limit (0 when the family has none);
// the ETA assumes every iteration runs, so a fit that converges earlier
// ends sooner.
func fitProgress(m *meter, limit int) func(engine.Iteration) {
	var obj lastObjective
	return func(it engine.Iteration) {
		if fitIterationHook != nil {
			fitIterationHook(it)
		}
		eta := time.Duration(-1)
		if limit > 0 {
			eta = remaining(m.elapsed(), it.Iter, limit)
		}
		m.show("iteration", it.Iter, limit, eta, obj.text(it), false)
	}
}

// method is the model of the command line: --model with --param, the
// shortcuts and --seed (workflow.NewMethod adds the family's front-end
// defaults).
func (f *fitFlags) method(fs *pflag.FlagSet) (*workflow.Method, error) {
	if f.model == "" {
		return nil, errors.New("--model is required (topicmf models lists the families)")
	}
	fam, err := catalog.Lookup(f.model)
	if err != nil {
		return nil, err
	}
	p, err := f.givenParams(fs)
	if err != nil {
		return nil, err
	}
	for _, fp := range fam.Params {
		if fp.Key == "seed" {
			p["seed"] = strconv.FormatUint(f.seed, 10)
		}
	}
	return workflow.NewMethod(f.model, p)
}

// givenParams are the parameters of --param and of the shortcuts; a key
// given twice is an error.
func (f *fitFlags) givenParams(fs *pflag.FlagSet) (catalog.Params, error) {
	p := catalog.Params{}
	for _, kv := range f.params {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		switch {
		case !ok || k == "":
			return nil, fmt.Errorf("--param %q: want key=value", kv)
		case k == "seed":
			return nil, errors.New("give the seed with --seed, not --param seed=")
		}
		if _, dup := p[k]; dup {
			return nil, fmt.Errorf("parameter %s given twice", k)
		}
		p[k] = strings.TrimSpace(v)
	}
	shortcuts := map[string]string{
		"k": strconv.Itoa(f.k), "iters": strconv.Itoa(f.iters),
		"lambda1": fmtFloat(f.lambda1), "lambda2": fmtFloat(f.lambda2), "tol": fmtFloat(f.tol),
	}
	for _, name := range []string{"k", "lambda1", "lambda2", "iters", "tol"} {
		if !fs.Changed(name) {
			continue
		}
		if _, dup := p[name]; dup {
			return nil, fmt.Errorf("parameter %s given both as --%s and --param", name, name)
		}
		p[name] = shortcuts[name]
	}
	return p, nil
}

// source resolves --data or --mtx, refusing the flags that do not apply
// to it and a text pipeline the model cannot fit.
func (f *fitFlags) source(cmd *cobra.Command, m *workflow.Method) (*workflow.Source, error) {
	in := f.input
	in.DataDir = dataDirFlag(cmd)
	if (in.Data == "") == (in.MTX.Path == "") {
		return nil, errors.New("give exactly one of --data NAME and --mtx FILE")
	}
	kind, format := inputMTX, ""
	if in.Data != "" {
		var err error
		if kind, format, err = dataKind(in.Data, in.Read.Format); err != nil {
			return nil, err
		}
	}
	if err := checkInputs(cmd.Flags(), kind, format); err != nil {
		return nil, err
	}
	if kind == inputMTX {
		if err := f.quality.checkMTX(cmd.Flags().Changed("coherence")); err != nil {
			return nil, err
		}
	}
	if in.Data != "" {
		var err error
		if in.Text, err = workflow.TextOptions(f.model, f.text); err != nil {
			return nil, err
		}
		if err := m.CheckText(in.Text); err != nil {
			return nil, err
		}
	}
	return workflow.Resolve(in)
}

// dataKind is the kind of input --data names (inputRegistered, inputFile,
// inputColumns) and a file's format.
func dataKind(data, format string) (string, string, error) {
	if !workflow.IsPath(data) {
		if _, err := datasets.Lookup(data); err != nil {
			return "", "", fmt.Errorf("--data %s: neither a registered data set (topicmf data list shows them) nor an existing file or folder", data)
		}
		return inputRegistered, "", nil
	}
	format, err := datasets.UserFormat(data, format)
	if err != nil {
		return "", "", err
	}
	return fileKind(format), format, nil
}

// countFamilies names the families whose front ends build raw counts
// (catalog.FrontEnd.Counts): "lda and onlinelda".
func countFamilies() string {
	var names []string
	for _, f := range catalog.Families() {
		if f.FrontEnd.Counts {
			names = append(names, f.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
