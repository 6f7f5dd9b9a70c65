package main

import (
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
