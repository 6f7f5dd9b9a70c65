package main

import (
	"fmt"

	"github.com/topicmf/topicmf/datasets/text"
	"strings"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/datasets"
)

// formatList names the formats of a user's file for the flags' help.
var formatList = strings.Join(datasets.UserFormats, ", ")

// addReaderFlags adds the reader flags fit's, transform's and rank's inputs
// share beyond the column names: --no-header (CSV/TSV without a header,
// columns by position) and --topic-fields (which fields of a TREC topic
// make a query).
func addReaderFlags(cmd *cobra.Command, o *datasets.UserOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.NoHeader, "no-header", false, "CSV/TSV without a header line: every line is a record, and --text-col (required), --id-col, --label-col are 1-based column positions (--text-col 2,3)")
	f.StringVar(&o.TopicFields, "topic-fields", "", `TREC topic file: the fields that make a query, comma-separated: title, desc, narr (default "title")`)
}

// userColumnsKey is the part of a run's key that says how a user's file
// was read beyond its format: the CSV/TSV columns (and "no-header"), or
// the JSONL keys when any was named. nil when nothing is said.
func userColumnsKey(format string, o datasets.UserOptions) []string {
	cols := []string{orDefault(o.TextCol, "text"), orDefault(o.IDCol, "id"), orDefault(o.LabelCol, "label")}
	switch format {
	case datasets.FormatCSV, datasets.FormatTSV:
		if o.NoHeader {
			cols = append(cols, "no-header")
		}
		return cols
	case datasets.FormatJSONL:
		if o.TextCol != "" || o.IDCol != "" || o.LabelCol != "" {
			return cols
		}
	case datasets.FormatTRECTopics:
		return []string{"topic-fields=" + orDefault(o.TopicFields, "title")}
	}
	return nil
}

// resolveStopFlag turns --stop FILE or LIST+FILE into the stop list and the
// file's words (text.StopSpec); a list name is left as it is.
func resolveStopFlag(o *text.Options) error {
	list, extra, err := text.StopSpec(o.StopList)
	if err != nil {
		return fmt.Errorf("--stop %s: %w", o.StopList, err)
	}
	o.StopList = list
	o.ExtraStopWords = append(o.ExtraStopWords, extra...)
	return nil
}
