package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/store"
)

// fittedRun is a fit run read back: its configuration, vectorizer, model
// and training documents.
type fittedRun struct {
	dir    string
	cfg    fitConfig
	vec    *text.Vectorizer
	counts *sparse.CSR // M×N raw term counts of the training documents
	docIDs []string
	model  engine.Model
}

// runDir returns the directory of the finished run named by arg: a run
// directory, or a run id or unambiguous id prefix under <root>/runs (as
// topicmf runs lists them).
// The run's files are checked against the manifest written when it
// finished (intact), so that a damaged run is reported as such before
// anything is computed from it.
func runDir(arg, root string) (string, error) {
	if _, err := os.Stat(filepath.Join(arg, "done")); err == nil {
		id, root, ok := store.RunOf(arg)
		if !ok {
			return arg, nil // not in a store: openRun's comparison with U.mtx is the check
		}
		return arg, intact(arg, id, root)
	}
	st, list, err := openRuns(root, "--out")
	if err != nil {
		return "", fmt.Errorf("run %s: %w", arg, err)
	}
	id, err := resolveRun(list, arg)
	if err != nil {
		return "", err
	}
	dir := st.Dir(id)
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		return "", fmt.Errorf("run %s is not finished", id)
	}
	return dir, intact(dir, id, root)
}

// intact checks the finished run id in dir (whose results root is root,
// as the user gave it) with the store's quick check (store.CheckRun, which
// writes nothing: every file hashed but the large factor files, which
// openRunFile hashes as they are read) and names the file that differs.
func intact(dir, id, root string) error {
	if err := store.CheckRun(dir, id, false); err != nil {
		return damagedRun(dir, root, err)
	}
	return nil
}

// damagedRun is the one-line error for the run in dir whose file does not
// match its manifest (err, from the store, begins with the file's name).
func damagedRun(dir, root string, err error) error {
	id := filepath.Base(dir)[:idPrefix]
	name, _, _ := strings.Cut(err.Error(), ":")
	// Short enough that errorLine never cuts the command out of it.
	return fmt.Errorf("run %s is damaged: its files no longer match its manifest (%s); topicmf runs verify --results %s %s lists the differences",
		id, name, root, id)
}

// openRunFile opens the file name of the run in dir, hashed against the
// run's manifest first (store.OpenRunFile) when dir is a run of a store.
func openRunFile(dir, name string) (*os.File, error) {
	id, root, ok := store.RunOf(dir)
	if !ok {
		return os.Open(filepath.Join(dir, name))
	}
	f, err := store.OpenRunFile(dir, id, name)
	var damaged *store.DamagedError
	if errors.As(err, &damaged) {
		return nil, damagedRun(dir, root, damaged.Err)
	}
	return f, err
}

// openRun reads the run in dir and restores its model. Models cannot be
// rebuilt from their factors alone (each family's fold-in needs state of
// its own), so the fit is run again on the run's training documents
// (counts.mtx weighted by its vectorizer) with its configuration and seed;
// fits are deterministic, and the refitted U is checked bit for bit against
// U.mtx, so the model is the one that was stored. The refit's progress
// goes to m (nil: none).
func openRun(ctx context.Context, dir, dataDir string, m *meter) (*fittedRun, error) {
	r := &fittedRun{dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &r.cfg); err != nil || r.cfg.Command != "fit" {
		return nil, fmt.Errorf("%s: not a fit run (config.json: %v)", dir, err)
	}
	if r.vec, err = readVectorizer(dir, dataDir); err != nil {
		return nil, err
	}
	if r.counts, err = readRunMM(dir, "counts.mtx"); err != nil {
		return nil, err
	}
	if r.docIDs, err = readLines(filepath.Join(dir, "doc_ids.txt"), "document id"); err != nil {
		return nil, err
	}
	if r.counts.Rows != r.vec.Terms() || r.counts.Cols != len(r.docIDs) {
		return nil, fmt.Errorf("%s: counts.mtx is %d×%d, want %d terms × %d documents", dir, r.counts.Rows, r.counts.Cols, r.vec.Terms(), len(r.docIDs))
	}
	var labels []int
	var classes []string
	if names, err := readLines(filepath.Join(dir, "labels.txt"), "label"); err == nil {
		labels, classes = labelIndex(names)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	corpus, err := engine.NewCorpus(r.cfg.Data.Name, r.vec.Vocab, weightCounts(r.vec, r.counts), r.docIDs, labels, classes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	p := catalog.Params{}
	for k, v := range r.cfg.Params {
		p[k] = v
	}
	fam, err := catalog.Lookup(r.cfg.Model)
	if err != nil {
		return nil, err
	}
	for _, fp := range fam.Params {
		if fp.Key == "seed" {
			p["seed"] = strconv.FormatUint(r.cfg.Seed, 10)
		}
	}
	method, err := catalog.New(r.cfg.Model, p)
	if err != nil {
		return nil, err
	}
	rec := engine.NewBoundedRecorder(1)
	limit := maxIters(fam, p)
	rec.OnIteration = func(it engine.Iteration) {
		m.show("refitting: iteration", it.Iter, limit, remaining(m.elapsed(), it.Iter, limit), "", false)
	}
	model, status, err := method.Fit(ctx, corpus, rec)
	m.finish()
	if err != nil {
		return nil, err
	}
	if status.Reason == engine.Cancelled {
		return nil, context.Canceled
	}
	stored, err := readRunDense(dir, "U.mtx")
	if err != nil {
		return nil, err
	}
	if !mat.Equal(stored, model.TermTopics()) {
		return nil, fmt.Errorf("%s: refitting does not reproduce U.mtx (the run was made by another version of topicmf); fit again", dir)
	}
	r.model = model
	return r, nil
}

// weightCounts turns the M×N raw counts into the weighted corpus matrix
// exactly as text.Build weighted it: the same weights, in the same term
// order, the same normalization.
func weightCounts(v *text.Vectorizer, counts *sparse.CSR) *sparse.CSR {
	dt := counts.T() // N×M: a document's terms ascending
	out := &sparse.CSR{Rows: dt.Rows, Cols: dt.Cols, RowPtr: make([]int, dt.Rows+1)}
	for d := 0; d < dt.Rows; d++ {
		idx, val := dt.Row(d)
		var w []float64
		var cols []int32
		for q, m := range idx {
			if x := v.Weight(int(m), int(val[q])); x != 0 {
				cols = append(cols, m)
				w = append(w, x)
			}
		}
		if v.Options.Norm == text.NormL2 {
			text.NormalizeL2(w)
		}
		out.ColIdx = append(out.ColIdx, cols...)
		out.Val = append(out.Val, w...)
		out.RowPtr[d+1] = len(out.ColIdx)
	}
	return out.T()
}

// labelIndex maps class names ("-" for none) to labels and sorted names.
func labelIndex(names []string) ([]int, []string) {
	var classes []string
	for _, n := range names {
		if n != "-" && !slices.Contains(classes, n) {
			classes = append(classes, n)
		}
	}
	slices.Sort(classes)
	labels := make([]int, len(names))
	for j, n := range names {
		labels[j] = slices.Index(classes, n) // -1 for "-"
	}
	return labels, classes
}

// readRunMM reads the sparse Matrix Market file name of the run in dir
// through openRunFile.
func readRunMM(dir, name string) (*sparse.CSR, error) {
	f, err := openRunFile(dir, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := sparse.ReadMM(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return m, nil
}

// readRunDense reads the dense Matrix Market file name of the run in dir
// through openRunFile.
func readRunDense(dir, name string) (*mat.Dense, error) {
	f, err := openRunFile(dir, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := sparse.ReadDenseMM(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return m, nil
}

func readDense(path string) (*mat.Dense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := sparse.ReadDenseMM(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// writeAtomic writes path through a temporary file renamed into place, so
// a failure leaves nothing; "-" writes to stdout.
func writeAtomic(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(tmp)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// addUserFlags adds the flags that say how transform's --data and rank's
// --queries (input names the flag) are read (datasets.UserOptions).
func addUserFlags(cmd *cobra.Command, o *datasets.UserOptions, input string) {
	f := cmd.Flags()
	f.StringVar(&o.Format, "format", "", "format of "+input+": dir, csv, tsv, jsonl or smart (default: from the path)")
	f.StringVar(&o.TextCol, "text-col", "", `CSV/TSV text column (default "text")`)
	f.StringVar(&o.IDCol, "id-col", "", `CSV/TSV id column (default "id" when present)`)
}

// checkOutput checks, before anything is computed, that the output file
// path ("-": standard output) can be written: it is not a directory, and
// the directory it goes in exists.
func checkOutput(path string) error {
	if path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("--output %s is a directory, want a file", path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("--output %s: directory %s does not exist", path, filepath.Dir(path))
	}
	return nil
}

func newTransformCmd() *cobra.Command {
	var (
		dataPath, outPath, root string
		uopt                    datasets.UserOptions
		factorsDir              string
	)
	cmd := &cobra.Command{
		Use:   "transform RUN|--factors DIR --data PATH [--output FILE]",
		Short: "Fold new documents into a fitted run and write their topic vectors",
		Long: `transform reads new documents (a folder of text files, .csv/.tsv, .jsonl or a
SMART file, as fit --data reads them), weights them with the run's own
vectorizer (its vocabulary, document frequencies and pipeline options, saved in
vectorizer.json), folds them in with the run's model as its paper defines
fold-in, and writes one line per document: its id, then its K topic weights,
tab-separated, after a header line. RUN is a run directory or a run id under
<out>/runs.

The model is restored by fitting again on the run's stored training counts
with its configuration and seed (fits are deterministic; the result is checked
against U.mtx), so transform takes about as long as the fit did. With
--factors DIR instead of RUN, the model is RLSI's factors exported by
topicmf-beam export (distributed/README.md), restored without a refit.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if dataPath == "" {
				return errors.New("transform: --data PATH is required")
			}
			if err := checkOutput(outPath); err != nil {
				return fmt.Errorf("transform: %w", err)
			}
			dir, err := locateFitted(args, root, factorsDir)
			if err != nil {
				return fmt.Errorf("transform: %w", err)
			}
			col, _, err := readUserFile(cmd.Flags(), dataPath, uopt)
			if err != nil {
				return fmt.Errorf("transform: %w", err)
			}
			r, err := openFitted(cmd, dir, factorsDir != "", false)
			if err != nil {
				return fmt.Errorf("transform: %w", err)
			}
			texts := make([]string, len(col.Docs))
			for i, d := range col.Docs {
				texts[i] = d.Text
			}
			v, err := r.model.FoldIn(cmd.Context(), r.vec.Transform(texts))
			if err != nil {
				return fmt.Errorf("transform: %w", err)
			}
			_, k := v.Dims()
			err = writeAtomic(outPath, cmd.OutOrStdout(), func(w io.Writer) error {
				bw := bufio.NewWriter(w)
				bw.WriteString("id")
				for t := range k {
					fmt.Fprintf(bw, "\ttopic%d", t)
				}
				bw.WriteString("\n")
				for i, d := range col.Docs {
					bw.WriteString(d.ID)
					for t := range k {
						bw.WriteString("\t" + strconv.FormatFloat(v.At(i, t), 'g', -1, 64))
					}
					bw.WriteString("\n")
				}
				return bw.Flush()
			})
			if err != nil {
				return fmt.Errorf("transform: %w", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&dataPath, "data", "", "the new documents: a folder of text files, .csv/.tsv, .jsonl or SMART file")
	addUserFlags(cmd, &uopt, "--data")
	f.StringVar(&outPath, "output", "-", `file to write ("-": standard output)`)
	f.StringVar(&root, "out", "results", "results root holding runs/<id>")
	addFactorsFlag(cmd, &factorsDir)
	return cmd
}
