package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine/sparse"
)

// TestSplitNewsgroups pins the matrices of bench/TIME-TO-QUALITY.md's 20
// Newsgroups run (split -data 20newsgroups -docs 4000): a change of the
// draw, the pipeline or the split changes the corpus both sides read, and
// the committed numbers no longer describe it.
func TestSplitNewsgroups(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the 20 Newsgroups corpus")
	}
	dir, err := datasets.DataDir("")
	if err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat(filepath.Join(dir, datasets.NewsgroupsFile)); err != nil {
		t.Skip(err)
	}
	out := t.TempDir()
	if err := split([]string{"-data", "20newsgroups", "-docs", "4000", "-dir", out}); err != nil {
		t.Fatal(err)
	}
	read := func(name string) *sparse.CSR {
		m, err := sparse.ReadMMFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	train, obs, held := read("train.mtx"), read("obs.mtx"), read("held.mtx")
	if train.Rows != 23430 || train.Cols != 3600 || train.NNZ() != 272800 {
		t.Errorf("train.mtx: %d terms × %d posts, %d non-zeros; want 23,430 × 3,600, 272,800", train.Rows, train.Cols, train.NNZ())
	}
	if obs.Cols != 400 || held.Cols != 400 {
		t.Errorf("held-out posts: %d observed, %d held halves; want 400 each", obs.Cols, held.Cols)
	}
	sum := func(m *sparse.CSR) (s float64) {
		for _, v := range m.Val {
			s += v
		}
		return s
	}
	if tr, o, h := sum(train), sum(obs), sum(held); tr != 419104 || o != 22243 || h != 22032 {
		t.Errorf("tokens: %v training, %v observed, %v held; want 419,104, 22,243, 22,032", tr, o, h)
	}
}
