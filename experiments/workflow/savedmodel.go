package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/modelio"
	"github.com/topicmf/topicmf/experiments/store"
)

// modelDir is the folder of a fit run that holds its saved model
// (engine/modelio).
const modelDir = "model"

// runFiles writes a saved model's files into the model/ folder of a run.
type runFiles struct{ w *store.Writer }

func (r runFiles) WriteFile(name string, write func(io.Writer) error) error {
	return r.w.WriteFile(modelDir+"/"+name, write)
}

// saveModel saves the fitted model into the run's model/ folder, so that
// transform and rank load it instead of fitting again.
func saveModel(w *store.Writer, m engine.Model) error {
	return modelio.Write(runFiles{w}, m)
}

// loadModel loads the model saved in the fit run dir, whose configuration
// is cfg. A run written before models were saved has no model/model.json:
// it is refused with the command that fits it again.
func loadModel(dir string, cfg Config) (engine.Model, error) {
	mdir := filepath.Join(dir, modelDir)
	if _, err := os.Stat(filepath.Join(mdir, modelio.HeaderFile)); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no saved model (the run was written by an earlier topicmf); fit it again: %s", dir, refitCommand(cfg, dir))
	}
	m, h, err := modelio.ReadDir(mdir)
	if err != nil {
		return nil, err
	}
	if h.Family != cfg.Model {
		return nil, fmt.Errorf("%s: model %s, but config.json says %s", filepath.Join(mdir, modelio.HeaderFile), h.Family, cfg.Model)
	}
	return m, nil
}

// refitCommand is the topicmf fit command line that fits the run of cfg
// again, as far as config.json records it; --out names the results root of
// the run in dir when it is not fit's default, ./results.
func refitCommand(cfg Config, dir string) string {
	args := []string{"topicmf fit --model", cfg.Model}
	switch cfg.Data.Kind {
	case KindDataset, KindUser:
		args = append(args, "--data", cfg.Data.Name)
	case KindMTX:
		args = append(args, "--mtx FILE")
	}
	if cfg.Data.Split != "" {
		args = append(args, "--split", cfg.Data.Split)
	}
	keys := make([]string, 0, len(cfg.Params))
	for k := range cfg.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "--param", k+"="+cfg.Params[k])
	}
	args = append(args, fmt.Sprintf("--seed %d", cfg.Seed))
	if _, root, ok := store.RunOf(dir); ok {
		r, errR := os.Stat(root)
		d, errD := os.Stat("results")
		if errR != nil || errD != nil || !os.SameFile(r, d) {
			args = append(args, "--out", root)
		}
	}
	line := strings.Join(args, " ")
	if cfg.Data.Kind == KindMTX {
		return line + " (FILE: the Matrix Market file it was fitted on)"
	}
	def := text.Options{}
	if fam, err := catalog.Lookup(cfg.Model); err == nil && fam.FrontEnd.Counts {
		def.Weighting, def.Norm = text.WeightTF, text.NormNone
	}
	var given, want any
	json.Unmarshal(cfg.Data.Text, &given)
	json.Unmarshal([]byte(def.Canonical()), &want)
	if cfg.Data.Text != nil && !reflect.DeepEqual(given, want) {
		line += " with the text options of its config.json"
	}
	return line
}
