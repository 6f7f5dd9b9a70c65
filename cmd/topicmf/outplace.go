package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/outfile"
)

// input is one of a command's inputs, named by its flag for the error.
type input struct{ flag, path string }

// checkOutputPlace refuses an output file path (--output; "-" is standard
// output) that would replace what the command reads or a stored run: the
// same file as one of inputs (os.SameFile, after following links; a path
// that does not exist yet is no input), a file inside an input folder or
// inside fitted (the run or factors folder the model is read from), or a
// file inside a finished run or a store's runs/ folder (enclosingStore,
// the check fit --out makes). Nothing is written.
func checkOutputPlace(path, fitted string, inputs ...input) error {
	if path == "-" {
		return nil
	}
	target, err := outfile.Resolve(path)
	if err != nil {
		return fmt.Errorf("--output %w", err)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(target))
	if err != nil {
		return fmt.Errorf("--output %s: %w", path, err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return fmt.Errorf("--output %s: %w", path, err)
	}
	out, outErr := os.Stat(target)
	if outErr != nil && !errors.Is(outErr, fs.ErrNotExist) {
		return fmt.Errorf("--output %s: %w", path, outErr)
	}
	if fitted != "" && within(dir, fitted) {
		return fmt.Errorf("--output %s lies in the run %s that the model is read from; write it elsewhere", path, fitted)
	}
	for _, in := range inputs {
		fi, err := os.Stat(in.path)
		if err != nil {
			continue // the command's reader reports it
		}
		if fi.IsDir() && within(dir, in.path) {
			return fmt.Errorf("--output %s lies in the folder %s %s; write it elsewhere", path, in.flag, in.path)
		}
		if outErr == nil && os.SameFile(out, fi) {
			return fmt.Errorf("--output %s is the %s file %s: it would be replaced; write it elsewhere", path, in.flag, in.path)
		}
	}
	if msg := enclosingStore(dir); msg != "" {
		return fmt.Errorf("--output %s lies in %s; write it elsewhere", path, msg)
	}
	return nil
}

// within reports whether the absolute, link-free directory dir is folder
// or lies inside it.
func within(dir, folder string) bool {
	f, err := filepath.EvalSymlinks(folder)
	if err != nil {
		return false
	}
	if f, err = filepath.Abs(f); err != nil {
		return false
	}
	rel, err := filepath.Rel(f, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// enclosingStore describes the finished run or the store's runs/ folder
// that the absolute directory abs is or lies in (storePlace), or returns
// "" when it is in neither: writing there would change a finished run,
// which its manifest then no longer describes.
func enclosingStore(abs string) string {
	where, isRun := storePlace(abs)
	switch {
	case where == "":
		return ""
	case isRun:
		return "the finished run " + where
	default:
		return "the runs folder of the results root " + filepath.Dir(where)
	}
}

// storePlace returns the directory, abs itself or one above it, that is a
// finished run of a store (store.RunOf; isRun) or a store's runs/ folder,
// or "" when there is none. It reads only what it checks.
func storePlace(abs string) (where string, isRun bool) {
	for dir := abs; ; {
		if _, _, ok := store.RunOf(dir); ok {
			return dir, true
		}
		// <root>/runs/.locks is the store's layout (experiments/store).
		if fi, err := os.Stat(filepath.Join(dir, ".locks")); err == nil && fi.IsDir() && filepath.Base(dir) == "runs" {
			return dir, false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
