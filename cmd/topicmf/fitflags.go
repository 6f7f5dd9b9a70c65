package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/internal/outfile"
)

// This file checks what fit, transform and rank read before any data is
// read: a user's file in its format, and --out, which may not be inside a
// run.

// readUserFile reads a user's collection at path (fit's --data, transform's
// --data, rank's --queries) in the format given or implied by the path,
// after refusing the flags that do not apply to that format, and returns
// the collection and the format.
func readUserFile(flags *pflag.FlagSet, path string, o datasets.UserOptions) (*datasets.Collection, string, error) {
	format, err := datasets.UserFormat(path, o.Format)
	if err != nil {
		return nil, "", err
	}
	if err := checkInputs(flags, fileKind(format), format); err != nil {
		return nil, "", err
	}
	o.Format = format
	col, err := datasets.ReadUser(path, o)
	return col, format, err
}

// fileKind is the kind of input (inputFile, inputColumns) of a user's
// file in format: CSV and TSV have columns, JSON Lines keys.
func fileKind(format string) string {
	if format == datasets.FormatCSV || format == datasets.FormatTSV || format == datasets.FormatJSONL {
		return inputColumns
	}
	return inputFile
}

// userFormatFields says where a format without named fields keeps them.
var userFormatFields = map[string]string{
	datasets.FormatDir:        "one document per file, the folder is the class",
	datasets.FormatSMART:      ".I is the id, .T and .W the text",
	datasets.FormatTREC:       "DOCNO is the id, TEXT, HEADLINE and the like the text",
	datasets.FormatTRECTopics: "num is the id, --topic-fields the text",
}

// checkOutDir refuses a results root (fit --out) that is, or lies inside,
// a finished run of a store (store.RunOf: <root>/runs/<id> with its done
// marker) or a store's runs/ directory: a store there would write into a
// finished run, which its manifest then no longer describes. A folder that
// merely holds a file named done is no run. Nothing is created.
func checkOutDir(out string) error {
	if err := outfile.CheckDir(out); err != nil {
		return fmt.Errorf("--out %w; want the results root, a directory", err)
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("--out %s: %w", out, err)
	}
	where, isRun := storePlace(abs)
	switch {
	case where == "":
		return nil
	case isRun && where == abs:
		return fmt.Errorf("--out %s is a finished run, not a results root", out)
	case isRun:
		return fmt.Errorf("--out %s lies in a finished run (%s), not in a results root", out, filepath.Base(where))
	case where == abs:
		return fmt.Errorf("--out %s is the runs folder of the results root %s; give the root", out, filepath.Dir(where))
	default:
		return fmt.Errorf("--out %s lies in the runs folder of the results root %s; give the root", out, filepath.Dir(where))
	}
}
