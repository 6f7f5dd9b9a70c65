package workflow

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/store"
)

// Run is a fitted run read back: its configuration, vectorizer, training
// documents and restored model.
type Run struct {
	Dir    string
	Config Config
	// Vectorizer weights new text as the training text was weighted.
	Vectorizer *text.Vectorizer
	// Counts are the M×N raw term counts of the training documents (nil
	// when not read).
	Counts *sparse.CSR
	// DocIDs are the training documents' ids, in column order.
	DocIDs []string
	// Model is the restored model.
	Model engine.Model
}

// OpenRun reads the fit run in dir and restores its model (Restore);
// dataDir is where a stop list that is not embedded is read from.
func OpenRun(dir, dataDir string) (*Run, error) {
	r := &Run{Dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &r.Config); err != nil || r.Config.Command != "fit" {
		return nil, fmt.Errorf("%s: not a fit run (config.json: %v)", dir, err)
	}
	if r.Model, err = Restore(r); err != nil {
		return nil, err
	}
	if r.Vectorizer, err = ReadVectorizer(dir, dataDir); err != nil {
		return nil, err
	}
	if r.Counts, err = readRunMM(dir, "counts.mtx"); err != nil {
		return nil, err
	}
	if r.DocIDs, err = ReadLines(filepath.Join(dir, "doc_ids.txt"), "document id"); err != nil {
		return nil, err
	}
	if r.Counts.Rows != r.Vectorizer.Terms() || r.Counts.Cols != len(r.DocIDs) {
		return nil, fmt.Errorf("%s: counts.mtx is %d×%d, want %d terms × %d documents", dir, r.Counts.Rows, r.Counts.Cols, r.Vectorizer.Terms(), len(r.DocIDs))
	}
	terms, _ := r.Model.TermTopics().Dims()
	docs, _ := r.Model.DocTopics().Dims()
	if terms != r.Vectorizer.Terms() || docs != len(r.DocIDs) {
		return nil, fmt.Errorf("%s: the saved model has %d terms and %d documents, the run %d and %d", dir, terms, docs, r.Vectorizer.Terms(), len(r.DocIDs))
	}
	return r, nil
}

// Restore loads the model saved in the model/ folder of the run r (whose
// configuration is read), checked against model.json's checksums and
// shapes (engine/modelio): nothing is fitted again. A run written before
// models were saved is refused with the command that fits it again.
func Restore(r *Run) (engine.Model, error) {
	return loadModel(r.Dir, r.Config)
}

// Transform folds new texts into the run's model: weighted by the run's
// vectorizer, folded in as the family's paper defines it; one row of K
// topic weights per text.
func (r *Run) Transform(ctx context.Context, texts []string) (*mat.Dense, error) {
	return r.Model.FoldIn(ctx, r.Vectorizer.Transform(texts))
}

// ReadVectorizer rebuilds the vectorizer of the run in dir; dataDir is
// where a stop list that is not embedded is read from.
func ReadVectorizer(dir, dataDir string) (*text.Vectorizer, error) {
	b, err := os.ReadFile(filepath.Join(dir, "vectorizer.json"))
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("run %s has no vectorizer.json (fitted on a Matrix Market file, or by an older topicmf): it cannot weight new text", dir)
	}
	if err != nil {
		return nil, err
	}
	var sv savedVectorizer
	if err := json.Unmarshal(b, &sv); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "vectorizer.json"), err)
	}
	vocab, err := ReadLines(filepath.Join(dir, "vocab.txt"), "term")
	if err != nil {
		return nil, err
	}
	sv.Options.DataDir = dataDir
	v, err := text.NewVectorizer(vocab, sv.DF, sv.N, sv.Options)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	return v, nil
}

// OpenRunFile opens the file name of the run in dir, hashed against the
// run's manifest first (store.OpenRunFile) when dir is a run of a store:
// a file that no longer matches is a *store.DamagedError.
func OpenRunFile(dir, name string) (*os.File, error) {
	id, _, ok := store.RunOf(dir)
	if !ok {
		return os.Open(filepath.Join(dir, name))
	}
	return store.OpenRunFile(dir, id, name)
}

// readRunMM reads the sparse Matrix Market file name of the run in dir
// through OpenRunFile.
func readRunMM(dir, name string) (*sparse.CSR, error) {
	f, err := OpenRunFile(dir, name)
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

// ReadDense reads a dense Matrix Market file.
func ReadDense(path string) (*mat.Dense, error) {
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
