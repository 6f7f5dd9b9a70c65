package main

import (
	"bufio"
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
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/internal/outfile"
)

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
// workflow.OpenRunFile hashes as they are read) and names the file that
// differs.
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

// readRunDense reads the dense Matrix Market file name of the run in dir
// through workflow.OpenRunFile, so that a factor changed after the run
// finished is refused, not used.
func readRunDense(dir, name string) (*mat.Dense, error) {
	f, err := workflow.OpenRunFile(dir, name)
	if damaged, ok := errors.AsType[*store.DamagedError](err); ok {
		_, root, _ := store.RunOf(dir)
		return nil, damagedRun(dir, root, damaged.Err)
	}
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

// addUserFlags adds the flags that say how transform's --data and rank's
// --queries (input names the flag) are read (datasets.UserOptions).
func addUserFlags(cmd *cobra.Command, o *datasets.UserOptions, input string) {
	f := cmd.Flags()
	f.StringVar(&o.Format, "format", "", "format of "+input+": "+formatList+" (default: from the path)")
	f.StringVar(&o.TextCol, "text-col", "", `CSV/TSV text column(s) or JSONL key(s), comma-separated (default "text")`)
	f.StringVar(&o.IDCol, "id-col", "", `CSV/TSV id column or JSONL key (default "id" when present)`)
	addReaderFlags(cmd, o)
	annotateInputs(f, []string{inputFile, inputColumns}, "format")
	annotateInputs(f, []string{inputColumns}, "text-col", "id-col")
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
	t := &transformFlags{}
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
			if err := runTransform(cmd, args, t); err != nil {
				return fmt.Errorf("transform: %w", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&t.data, "data", "", "the new documents: a folder of text files, .csv/.tsv, .jsonl or SMART file")
	addUserFlags(cmd, &t.read, "--data")
	f.StringVar(&t.output, "output", "-", `file to write ("-": standard output)`)
	f.StringVar(&t.root, "out", "results", "results root holding runs/<id>")
	addFactorsFlag(cmd, &t.factors)
	return cmd
}

// transformFlags are transform's command line.
type transformFlags struct {
	data, output, root, factors string
	read                        datasets.UserOptions
}

// runTransform folds the documents of --data into the run and writes their
// topic vectors.
func runTransform(cmd *cobra.Command, args []string, t *transformFlags) error {
	if t.data == "" {
		return errors.New("--data PATH is required")
	}
	if err := checkOutput(t.output); err != nil {
		return err
	}
	dir, err := locateFitted(args, t.root, t.factors)
	if err != nil {
		return err
	}
	if err := checkOutputPlace(t.output, dir, input{"--data", t.data}); err != nil {
		return err
	}
	col, _, err := readUserFile(cmd.Flags(), t.data, t.read)
	if err != nil {
		return err
	}
	r, err := openFitted(cmd, dir, t.factors != "", false)
	if err != nil {
		return err
	}
	texts := make([]string, len(col.Docs))
	for i, d := range col.Docs {
		texts[i] = d.Text
	}
	weighted := r.Vectorizer.Transform(texts)
	v, err := r.Model.FoldIn(cmd.Context(), weighted)
	if err != nil {
		return err
	}
	ids := make([]string, len(col.Docs))
	for i, d := range col.Docs {
		ids[i] = d.ID
	}
	if w := emptyRowsWarning(weighted, ids, "documents", "their topic vectors are all zero"); w != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "topicmf transform: warning:", w)
	}
	return outfile.Write(t.output, cmd.OutOrStdout(), func(w io.Writer) error { return writeTopicVectors(w, col.Docs, v) })
}

// writeTopicVectors writes a header line, then one line per document: its
// id and its topic weights, tab-separated.
func writeTopicVectors(w io.Writer, docs []datasets.Document, v *mat.Dense) error {
	_, k := v.Dims()
	bw := bufio.NewWriter(w)
	bw.WriteString("id")
	for t := range k {
		fmt.Fprintf(bw, "\ttopic%d", t)
	}
	bw.WriteString("\n")
	for i, d := range docs {
		bw.WriteString(d.ID)
		for t := range k {
			bw.WriteString("\t" + strconv.FormatFloat(v.At(i, t), 'g', -1, 64))
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}
