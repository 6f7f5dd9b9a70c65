package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/outfile"
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
			return arg, nil // not in a store: model.json's checksums are the check
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

// readRunDense reads the dense Matrix Market file name of the run in dir
// through openRunFile, so that a factor changed after the run finished is
// refused, not used.
func readRunDense(dir, name string) (*mat.Dense, error) {
	f, err := openRunFile(dir, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := sparse.ReadDenseMM(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
	}
	return m, nil
}

// openRun reads the run in dir and loads the model saved in its model/
// folder (engine/modelio, checked against model.json's checksums and
// shapes): nothing is fitted again. A run written before models were saved
// is refused with the command that fits it again.
func openRun(dir, dataDir string) (*fittedRun, error) {
	r := &fittedRun{dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &r.cfg); err != nil || r.cfg.Command != "fit" {
		return nil, fmt.Errorf("%s: not a fit run (config.json: %v)", dir, err)
	}
	if r.model, err = loadModel(dir, r.cfg); err != nil {
		return nil, err
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
	terms, _ := r.model.TermTopics().Dims()
	docs, _ := r.model.DocTopics().Dims()
	if terms != r.vec.Terms() || docs != len(r.docIDs) {
		return nil, fmt.Errorf("%s: the saved model has %d terms and %d documents, the run %d and %d", dir, terms, docs, r.vec.Terms(), len(r.docIDs))
	}
	return r, nil
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

// addUserFlags adds the flags that say how transform's --data and rank's
// --queries (input names the flag) are read (datasets.UserOptions).
func addUserFlags(cmd *cobra.Command, o *datasets.UserOptions, input string) {
	f := cmd.Flags()
	f.StringVar(&o.Format, "format", "", "format of "+input+": "+formatList+" (default: from the path)")
	f.StringVar(&o.TextCol, "text-col", "", `CSV/TSV text column(s) or JSONL key(s), comma-separated (default "text")`)
	f.StringVar(&o.IDCol, "id-col", "", `CSV/TSV id column or JSONL key (default "id" when present)`)
	addReaderFlags(cmd, o)
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
	target, err := outfile.Resolve(path)
	if err != nil {
		return fmt.Errorf("--output %w", err)
	}
	if fi, err := os.Stat(filepath.Dir(target)); err != nil || !fi.IsDir() {
		return fmt.Errorf("--output %s: directory %s does not exist", path, filepath.Dir(target))
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

The model is loaded from the run's model/ folder, where fit saved it
(model.json and its matrices, checked against their SHA-256): nothing is
fitted again. With --factors DIR instead of RUN, the model is RLSI's factors
exported by topicmf-beam export (distributed/README.md).`,
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
			if err := checkOutputPlace(outPath, dir, input{"--data", dataPath}); err != nil {
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
			weighted := r.vec.Transform(texts)
			v, err := r.model.FoldIn(cmd.Context(), weighted)
			if err != nil {
				return fmt.Errorf("transform: %w", err)
			}
			ids := make([]string, len(col.Docs))
			for i, d := range col.Docs {
				ids[i] = d.ID
			}
			if w := emptyRowsWarning(weighted, ids, "documents", "their topic vectors are all zero"); w != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "topicmf transform: warning:", w)
			}
			_, k := v.Dims()
			err = outfile.Write(outPath, cmd.OutOrStdout(), func(w io.Writer) error {
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
