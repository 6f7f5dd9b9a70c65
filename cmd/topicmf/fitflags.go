package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/internal/outfile"
)

// This file checks fit's command line before any data is read: flags that
// do not apply to the input are an error rather than silently ignored,
// the text-pipeline flags are checked in the terms of the command line
// (text.Options.Validate names Go fields and reads 0 as "the default"),
// and --out may not be inside a run.

// textFlags are fit's flags that configure the text pipeline or the reading
// of a --data input; with --mtx none applies.
var textFlags = []string{
	"stop", "stem", "min-df", "max-df", "max-token-len", "keep-mixed", "strip", "max-vocab",
	"weighting", "norm", "format", "text-col", "id-col", "label-col", "no-header", "topic-fields", "split", "corpus-cache", "verify",
}

// columnFlags name the columns of a CSV/TSV --data file.
var columnFlags = []string{"text-col", "id-col", "label-col"}

// registeredOnlyFlags apply to a registered data set (its corpus cache),
// not to a --data PATH, which is read afresh every time.
var registeredOnlyFlags = []string{"corpus-cache", "verify"}

// firstChanged is the first of names given on the command line, or "".
func firstChanged(flags *pflag.FlagSet, names []string) string {
	for _, n := range names {
		if flags.Changed(n) {
			return n
		}
	}
	return ""
}

// checkMTXFlags refuses a text-pipeline flag given with --mtx.
func checkMTXFlags(flags *pflag.FlagSet) error {
	if n := firstChanged(flags, textFlags); n != "" {
		return fmt.Errorf("--%s applies to --data, not to --mtx", n)
	}
	return nil
}

// checkUserFlags refuses flags that do not apply to a --data PATH read in
// format (a datasets.Format constant).
func checkUserFlags(flags *pflag.FlagSet, format string) error {
	if n := firstChanged(flags, registeredOnlyFlags); n != "" {
		return fmt.Errorf("--%s applies to a registered data set, not to a --data PATH", n)
	}
	if format != datasets.FormatCSV && format != datasets.FormatTSV && format != datasets.FormatJSONL {
		if n := firstChanged(flags, columnFlags); n != "" {
			return fmt.Errorf("--%s applies to a CSV, TSV or JSONL file, not to a %s input (%s)", n, format, userFormatFields[format])
		}
	}
	return nil
}

// readUserFile reads a user's collection at path (fit's --data, transform's
// --data, rank's --queries) in the format given or implied by the path,
// after refusing the flags that do not apply to that format, and returns
// the collection and the format.
func readUserFile(flags *pflag.FlagSet, path string, o datasets.UserOptions) (*datasets.Collection, string, error) {
	format, err := datasets.UserFormat(path, o.Format)
	if err != nil {
		return nil, "", err
	}
	if err := checkUserFlags(flags, format); err != nil {
		return nil, "", err
	}
	o.Format = format
	col, err := datasets.ReadUser(path, o)
	return col, format, err
}

// userFormatFields says where a non-delimited format keeps its fields.
var userFormatFields = map[string]string{
	datasets.FormatDir:        "one document per file, the folder is the class",
	datasets.FormatSMART:      ".I is the id, .T and .W the text",
	datasets.FormatTREC:       "DOCNO is the id, TEXT, HEADLINE and the like the text",
	datasets.FormatTRECTopics: "num is the id, --topic-fields the text",
}

// checkTextFlags checks the values of the text-pipeline flags, naming the
// flag. A zero --min-df, --max-df or --max-token-len is refused: in
// text.Options 0 stands for the default (2, 0.95, 25), which a command line
// saying 0 does not mean, and its literal meaning (keep tokens of at most 0
// letters, terms in at most 0% of the documents) leaves no term.
func checkTextFlags(o text.Options) error {
	if o.MinDF < 1 {
		return fmt.Errorf("--min-df = %d, want ≥ 1 (1 keeps every term)", o.MinDF)
	}
	if math.IsNaN(o.MaxDF) || o.MaxDF <= 0 || o.MaxDF > 1 {
		return fmt.Errorf("--max-df = %v, want a fraction in (0, 1] (1 keeps every term)", o.MaxDF)
	}
	if o.MaxTokenLen != -1 && o.MaxTokenLen < text.DefaultMinTokenLen {
		return fmt.Errorf("--max-token-len = %d, want ≥ %d (the shortest token kept), or -1 for no limit", o.MaxTokenLen, text.DefaultMinTokenLen)
	}
	if o.MaxVocab < 0 {
		return fmt.Errorf("--max-vocab = %d, want ≥ 0 (0 keeps every term)", o.MaxVocab)
	}
	for _, part := range o.Strip {
		switch part {
		case text.StripHeaders, text.StripFooters, text.StripQuotes:
		default:
			return fmt.Errorf("--strip %q: unknown part (known: headers, footers, quotes)", part)
		}
	}
	if _, err := text.StopListPath(o.StopList); err != nil {
		return fmt.Errorf("--stop %s: %w", o.StopList, err)
	}
	switch o.Weighting {
	case text.WeightTF, text.WeightBoolean, text.WeightTFIDF, text.WeightLogTFIDF:
	default:
		return fmt.Errorf("--weighting %q: unknown weighting (known: %s)", o.Weighting, strings.Join(text.Weightings, ", "))
	}
	switch o.Norm {
	case text.NormL2, text.NormNone:
	default:
		return fmt.Errorf("--norm %q: unknown norm (known: l2, none)", o.Norm)
	}
	// What the flags cannot express wrongly is checked all the same.
	return o.Validate()
}

// integerWeights reports whether the pipeline o gives integer weights (raw
// or boolean term frequencies, unnormalized).
func integerWeights(o text.Options) bool {
	return (o.Weighting == text.WeightTF || o.Weighting == text.WeightBoolean) && o.Norm == text.NormNone
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

// errNoCounts is the error of a Gibbs LDA fit whose pipeline o gives
// weights that are not counts.
// Rounding is offered only for unnormalized weights: on unit-length rows
// it would keep just the entries of at least 0.5.
func errNoCounts(o text.Options) error {
	msg := fmt.Sprintf("lda needs integer word counts, which --weighting %s --norm %s does not give: drop both flags (lda's default: tf, none)", o.Weighting, o.Norm)
	if o.Norm == text.NormNone {
		msg += " or add --param round=true"
	}
	return errors.New(msg)
}
