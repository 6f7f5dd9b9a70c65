package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/topicmf/topicmf/datasets/text"
)

// savedVectorizer is vectorizer.json of a run fitted through the text
// pipeline: the options and document frequencies that, with vocab.txt,
// rebuild the run's text.Vectorizer.
type savedVectorizer struct {
	Options text.Options `json:"options"`
	N       int          `json:"n"`
	DF      []int        `json:"df"`
}

func writeVectorizer(w io.Writer, v *text.Vectorizer) error {
	o := v.Options
	o.DataDir = ""
	b, err := json.Marshal(savedVectorizer{Options: o, N: v.N, DF: v.DF})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// readVectorizer rebuilds the vectorizer of the run in dir; dataDir is
// where a stop list that is not embedded is read from.
func readVectorizer(dir, dataDir string) (*text.Vectorizer, error) {
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
	vocab, err := readLines(filepath.Join(dir, "vocab.txt"), "term")
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
