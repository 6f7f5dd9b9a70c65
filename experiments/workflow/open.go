package workflow

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/sparse"
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

// Progress, when not nil, is told of every iteration of a long step
// (restoring a model) and of the step's iteration limit (0: unknown).
type Progress func(it engine.Iteration, limit int)

// OpenRun reads the fit run in dir and restores its model (Restore);
// dataDir is where a stop list that is not embedded is read from.
func OpenRun(ctx context.Context, dir, dataDir string, progress Progress) (*Run, error) {
	r := &Run{Dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &r.Config); err != nil || r.Config.Command != "fit" {
		return nil, fmt.Errorf("%s: not a fit run (config.json: %v)", dir, err)
	}
	if r.Vectorizer, err = ReadVectorizer(dir, dataDir); err != nil {
		return nil, err
	}
	if r.Counts, err = sparse.ReadMMFile(filepath.Join(dir, "counts.mtx")); err != nil {
		return nil, err
	}
	if r.DocIDs, err = ReadLines(filepath.Join(dir, "doc_ids.txt"), "document id"); err != nil {
		return nil, err
	}
	if r.Counts.Rows != r.Vectorizer.Terms() || r.Counts.Cols != len(r.DocIDs) {
		return nil, fmt.Errorf("%s: counts.mtx is %d×%d, want %d terms × %d documents", dir, r.Counts.Rows, r.Counts.Cols, r.Vectorizer.Terms(), len(r.DocIDs))
	}
	if r.Model, err = Restore(ctx, r, progress); err != nil {
		return nil, err
	}
	return r, nil
}

// Restore restores the model of the run r (whose configuration,
// vectorizer, counts and document ids are read). Models cannot be rebuilt
// from their factors alone (each family's fold-in needs state of its
// own), so the fit is run again on the run's training documents
// (counts.mtx weighted by its vectorizer) with its configuration and seed;
// fits are deterministic, and the refitted U is checked bit for bit against
// U.mtx, so the model is the one that was stored.
func Restore(ctx context.Context, r *Run, progress Progress) (engine.Model, error) {
	var labels []int
	var classes []string
	if names, err := ReadLines(filepath.Join(r.Dir, "labels.txt"), "label"); err == nil {
		labels, classes = labelIndex(names)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	corpus, err := engine.NewCorpus(r.Config.Data.Name, r.Vectorizer.Vocab, weightCounts(r.Vectorizer, r.Counts), r.DocIDs, labels, classes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Dir, err)
	}
	p := maps.Clone(r.Config.Params)
	if p == nil {
		p = map[string]string{}
	}
	fam, err := catalog.Lookup(r.Config.Model)
	if err != nil {
		return nil, err
	}
	if declares(fam, "seed") {
		p["seed"] = strconv.FormatUint(r.Config.Seed, 10)
	}
	m, err := NewMethod(r.Config.Model, p)
	if err != nil {
		return nil, err
	}
	rec := engine.NewBoundedRecorder(1)
	limit := m.MaxIters()
	rec.OnIteration = func(it engine.Iteration) {
		if progress != nil {
			progress(it, limit)
		}
	}
	model, status, err := m.Method.Fit(ctx, corpus, rec)
	if err != nil {
		return nil, err
	}
	if status.Reason == engine.Cancelled {
		return nil, context.Canceled
	}
	stored, err := ReadDense(filepath.Join(r.Dir, "U.mtx"))
	if err != nil {
		return nil, err
	}
	if !mat.Equal(stored, model.TermTopics()) {
		return nil, fmt.Errorf("%s: refitting does not reproduce U.mtx (the run was made by another version of topicmf); fit again", r.Dir)
	}
	return model, nil
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
