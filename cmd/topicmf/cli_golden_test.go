package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/topicmf/topicmf/datasets"
)

// cliGolden are command lines whose whole output (stdout, then the error
// line main would print) is pinned in testdata/cli/<name>.golden, in the
// manner of benchstat's tests: a change of wording, wrapping or order
// shows up as a diff. Regenerate with
//
//	go test ./cmd/topicmf -run TestCLIGolden -update
//
// and read the diff before committing it.
var cliGolden = []struct {
	name string
	args []string
}{
	{"help", []string{"--help"}},
	{"fit-help", []string{"fit", "--help"}},
	{"run-help", []string{"run", "--help"}},
	{"list", []string{"list"}},
	{"models", []string{"models"}},
	{"data-list", []string{"data", "list", "--data-dir", "testdata/cli/datadir"}},
	{"data-list-nodir", []string{"data", "list", "--data-dir", "testdata/cli/no-such-dir"}},
	{"runs-cost", []string{"runs", "--cost", "--results", "testdata/cli/costresults"}},
	{"runs-cost-markdown", []string{"runs", "--cost", "--markdown", "--results", "testdata/cli/costresults"}},
	{"runs-cost-from-runs", []string{"runs", "--cost", "--from", "runs", "--results", "testdata/cli/costresults"}},

	// Errors: one line, in words, naming what and where.
	{"err-run-no-args", []string{"run"}},
	{"err-run-unknown", []string{"run", "nope/*"}},
	{"err-run-typo", []string{"run", "rlsi2011/figure3-5"}},
	{"err-run-bad-pattern", []string{"run", "rlsi[2011"}},
	{"err-k-not-int", []string{"fit", "--model", "nmf", "-k", "ten", "--mtx", "x.mtx"}},
	{"err-tol-not-number", []string{"fit", "--model", "nmf", "--tol", "1e-4x", "--mtx", "x.mtx"}},
	{"err-unknown-flag", []string{"fit", "--modle", "nmf"}},
	{"err-no-model", []string{"fit", "--data", "cranfield"}},
	{"err-unknown-model", []string{"fit", "--model", "nfm", "--data", "cranfield"}},
	{"err-unknown-param", []string{"fit", "--model", "nmf", "--param", "foo=1", "--mtx", "x.mtx"}},
	{"err-group-k", []string{"fit", "--model", "grouprlsi", "-k", "5", "--mtx", "x.mtx"}},
	{"err-param-not-int", []string{"fit", "--model", "nmf", "--param", "k=abc", "--mtx", "x.mtx"}},
	{"err-unknown-data", []string{"fit", "--model", "nmf", "--data", "cranfeld"}},
	{"err-long-record", []string{"fit", "--model", "nmf", "--data", "testdata/cli/long-record.jsonl"}},
	{"err-no-text-column", []string{"fit", "--model", "nmf", "--data", "testdata/cli/no-text.csv"}},
	{"err-negative-mtx", []string{"fit", "--model", "nmf", "--mtx", "testdata/cli/negative.mtx"}},
	{"err-data-dir-missing", []string{"data", "verify", "--data-dir", "testdata/cli/no-such-dir"}},
	{"err-models-unknown", []string{"models", "nosuch"}},
	{"err-runs-cost-from", []string{"runs", "--cost", "--from", "store", "--results", "testdata/cli/costresults"}},
	{"err-runs-cost-empty", []string{"runs", "--cost", "--results", "testdata/cli/datadir"}},
	{"err-runs-cost-filter", []string{"runs", "--cost", "--model", "nmf", "--results", "testdata/cli/costresults"}},
}

// goldenSources are the data sets data-list shows: one present, one in
// part, one absent, one changed (testdata/cli/datadir holds their files).
func goldenSources() []datasets.Source {
	return []datasets.Source{
		{Name: "alpha", Description: "A present collection. Its one file is in the data directory at its registered size.",
			Files: []datasets.File{{Path: "alpha/a.txt", Size: 11}}},
		{Name: "beta", Description: "A collection of which one of two files is present (Doe et al. 2020, a citation that does not end the sentence).",
			Files: []datasets.File{{Path: "beta/b1.txt", Size: 9}, {Path: "beta/b2.txt", Size: 2 << 20}}},
		{Name: "gamma", Description: "An absent collection, whose description is long enough to wrap onto the next lines of the listing at a width of one hundred columns.",
			Files: []datasets.File{{Path: "gamma/g.txt", Size: 3 << 30}}},
		{Name: "delta", Description: "A collection whose file has another size than the registered one.",
			Files: []datasets.File{{Path: "delta/d.txt", Size: 100}}},
	}
}

func TestCLIGolden(t *testing.T) {
	toyExperiment() // registered by other tests too: list the same either way
	t.Setenv("COLUMNS", "")
	t.Setenv(datasets.EnvDataDir, "")
	old := dataSources
	dataSources = goldenSources
	t.Cleanup(func() { dataSources = old })
	for _, c := range cliGolden {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), &out, &errb, c.args)
			var b strings.Builder
			b.WriteString("$ topicmf " + strings.Join(c.args, " ") + "\n")
			b.WriteString(out.String())
			if err != nil {
				b.WriteString(errorLine(err) + "\n")
			}
			got := b.String()
			if strings.HasPrefix(c.name, "err-") {
				if err == nil {
					t.Fatalf("no error; output:\n%s", got)
				}
				line := errorLine(err)
				if n := utf8.RuneCountInString(line); n > maxErrorRunes+20 || strings.Contains(line, "\n") {
					t.Errorf("error of %d runes: %q", n, line)
				}
				// No Go identifiers (package.Func) or wrapping chains.
				for _, bad := range []string{"strconv.", "json:", "Read", "Parse", "%!"} {
					if strings.Contains(line, bad) {
						t.Errorf("error contains %q: %s", bad, line)
					}
				}
			} else if err != nil {
				t.Fatalf("%v", err)
			}
			for _, l := range strings.Split(out.String(), "\n") {
				if n := utf8.RuneCountInString(l); n > defaultWidth {
					t.Errorf("line of %d runes: %q", n, l)
				}
			}
			checkGolden(t, filepath.Join("testdata", "cli", c.name+".golden"), got)
		})
	}
}
