package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/workflow"
)

// fitConfigOf reads config.json of the run directory dir.
func fitConfigOf(t *testing.T, dir string) (cfg struct {
	Params map[string]string `json:"params"`
	Seed   uint64            `json:"seed"`
	Data   struct {
		Text struct {
			Weighting string `json:"weighting"`
			Norm      string `json:"norm"`
		} `json:"text"`
	} `json:"data"`
}) {
	t.Helper()
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "config.json"))), &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestFitCountModelsGetCounts: lda and onlinelda fit a text corpus with the
// default flags, on raw counts recorded in config.json; other families keep
// the default pipeline; a pipeline the user gives that is not counts is
// refused for lda up front, naming the flags, unless lda is told to round.
func TestFitCountModelsGetCounts(t *testing.T) {
	data := filepath.Join(plantedFiles(t), "docs.csv")
	out := t.TempDir()
	for _, c := range []struct{ model, weighting, norm string }{
		{"lda", "tf", "none"}, {"onlinelda", "tf", "none"}, {"nmf", "tfidf", "l2"},
	} {
		run := fitRun(t, "--model", c.model, "--k", "3", "--data", data, "--text-col", "body", "--out", out, "--quiet")
		cfg := fitConfigOf(t, run)
		if cfg.Data.Text.Weighting != c.weighting || cfg.Data.Text.Norm != c.norm {
			t.Errorf("%s: config.json records --weighting %s --norm %s, want %s, %s", c.model, cfg.Data.Text.Weighting, cfg.Data.Text.Norm, c.weighting, c.norm)
		}
	}
	// Given flags win: onlinelda on tf-idf is the user's choice.
	run := fitRun(t, "--model", "onlinelda", "--k", "3", "--data", data, "--text-col", "body", "--out", out, "--quiet", "--weighting", "tfidf")
	if cfg := fitConfigOf(t, run); cfg.Data.Text.Weighting != "tfidf" || cfg.Data.Text.Norm != "none" {
		t.Errorf("onlinelda --weighting tfidf: config.json records %+v", cfg.Data.Text)
	}
	// Rounding is the way out for unnormalized weights only, and then works.
	fitRun(t, "--model", "lda", "--k", "3", "--iters", "20", "--data", data, "--text-col", "body", "--out", out, "--quiet", "--weighting", "tfidf", "--param", "round=true")
	lda := []string{"fit", "--model", "lda", "--k", "3", "--data", data, "--text-col", "body", "--out", out}
	checkCLIErrors(t, []cliError{
		{append(lda, "--weighting", "tfidf"), "lda needs integer word counts, which weighting tfidf and norm none do not give: use lda's default pipeline (weighting tf, norm none)"},
		{append(lda, "--weighting", "tfidf"), "or the parameter round=true"},
		{append(lda, "--norm", "l2"), "which weighting tf and norm l2 do not give: use lda's default pipeline (weighting tf, norm none)"},
	})
	// On unit-length rows rounding would keep only entries ≥ 0.5: not offered.
	if _, _, err := runTopicmf(context.Background(), append(lda, "--norm", "l2")...); err == nil || strings.Contains(err.Error(), "round=true") {
		t.Errorf("lda --norm l2: %v; want an error that does not suggest round=true", err)
	}
}

// TestFitPipelineFlagValues: a value of a text-pipeline flag outside its
// declared range (datasets/text Options' engine/param tags) is refused by
// the flag parser, naming the flag and the range, 0 included where
// text.Options reads 0 as the default (it is not in the range); nothing is
// written.
func TestFitPipelineFlagValues(t *testing.T) {
	data := filepath.Join(plantedFiles(t), "docs.csv")
	out := filepath.Join(t.TempDir(), "results")
	fit := func(flag, value string) []string {
		return []string{"fit", "--model", "nmf", "--k", "3", "--data", data, "--text-col", "body", "--out", out, "--" + flag, value}
	}
	checkCLIErrors(t, []cliError{
		{fit("min-df", "0"), `--min-df "0": want ≥ 1`},
		{fit("min-df", "-5"), `--min-df "-5": want ≥ 1`},
		{fit("max-df", "0"), `--max-df "0": want in (0, 1]`},
		{fit("max-df", "-0.5"), `--max-df "-0.5": want in (0, 1]`},
		{fit("max-df", "1.5"), `--max-df "1.5": want in (0, 1]`},
		{fit("max-token-len", "0"), `--max-token-len "0": want ≥ 2 or -1`},
		{fit("max-token-len", "-3"), `--max-token-len "-3": want ≥ 2 or -1`},
		{fit("max-vocab", "-1"), `--max-vocab "-1": want ≥ 0`},
		{fit("weighting", "bm25"), `--weighting "bm25": want one of tf, boolean, tfidf, logtf-idf`},
		{fit("norm", "l1"), `--norm "l1": want one of l2, none`},
		{fit("strip", "signature"), `--strip "signature": want a comma-separated list of headers, footers, quotes`},
		{fit("stop", "klingon"), `--stop "klingon": neither a stop list (known: none, cacm, nltk, smart, terrier)`},
	})
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused fits created %s", out)
	}
	// The limits themselves are accepted.
	fitRun(t, "--model", "nmf", "--k", "3", "--iters", "5", "--data", data, "--text-col", "body", "--out", out, "--quiet",
		"--min-df", "1", "--max-df", "1", "--max-token-len", "-1")
}

// TestFitFlagsThatDoNotApply: a flag that does not apply to the input is an
// error naming it, not silently ignored.
func TestFitFlagsThatDoNotApply(t *testing.T) {
	dir := plantedFiles(t)
	mtx, _ := writeTestMatrix(t, t.TempDir(), 10, 8)
	out := filepath.Join(t.TempDir(), "results")
	base := []string{"fit", "--model", "nmf", "--k", "3", "--out", out}
	with := func(args ...string) []string { return append(append([]string{}, base...), args...) }
	checkCLIErrors(t, []cliError{
		{with("--mtx", mtx, "--stem"), "--stem applies to --data, not to --mtx"},
		{with("--mtx", mtx, "--min-df", "1"), "--min-df applies to --data, not to --mtx"},
		{with("--mtx", mtx, "--weighting", "tf"), "--weighting applies to --data, not to --mtx"},
		{with("--mtx", mtx, "--text-col", "body"), "--text-col applies to --data, not to --mtx"},
		{with("--mtx", mtx, "--split", "train"), "--split applies to --data, not to --mtx"},
		// JSONL keys are named by the column flags; a key no record has is an error.
		{with("--data", filepath.Join(dir, "docs.jsonl"), "--text-col", "body"), `line 1: no "body" field (--text-col)`},
		{with("--data", filepath.Join(dir, "docs.jsonl"), "--id-col", "key"), `line 1: no "key" field (--id-col)`},
		{with("--data", filepath.Join(dir, "docs.jsonl"), "--label-col", "cluster"), `no record has the label key "cluster" (--label-col)`},
		{with("--data", filepath.Join(dir, "folder"), "--label-col", "c"), "--label-col applies to a CSV, TSV or JSONL file, not to a dir input"},
		{with("--data", filepath.Join(dir, "folder"), "--no-header"), "--no-header applies to a CSV or TSV file, not to a dir input"},
		{with("--data", filepath.Join(dir, "docs.csv"), "--text-col", "body", "--corpus-cache", "none"), "--corpus-cache applies to a registered data set"},
	})
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused fits created %s", out)
	}
	// transform's --data and rank's --queries are read by the same rule.
	run := fitRun(t, "--model", "nmf", "--k", "3", "--iters", "5", "--data", filepath.Join(dir, "docs.csv"), "--text-col", "body", "--out", out, "--quiet")
	folder := filepath.Join(dir, "folder")
	checkCLIErrors(t, []cliError{
		{[]string{"transform", run, "--data", folder, "--text-col", "body"}, "transform: --text-col applies to a CSV, TSV or JSONL file, not to a dir input"},
		{[]string{"rank", run, "--queries", folder, "--id-col", "key"}, "rank: --id-col applies to a CSV, TSV or JSONL file, not to a dir input"},
	})
}

// TestFitOutNotInsideARun: --out naming a finished run, a folder inside
// one, or a store's runs/ folder is refused before anything is written;
// the store stays intact.
func TestFitOutNotInsideARun(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 10)
	out := filepath.Join(dir, "results")
	run := fitRun(t, "--model", "nmf", "--k", "3", "--iters", "5", "--mtx", mtx, "--vocab", vocab, "--out", out, "--quiet")
	before := readFile(t, filepath.Join(run, "done"))
	entsBefore, err := os.ReadDir(run)
	if err != nil {
		t.Fatal(err)
	}
	other := []string{"fit", "--model", "nmf", "--k", "2", "--iters", "5", "--mtx", mtx, "--out"}
	checkCLIErrors(t, []cliError{
		{append(other, run), "is a finished run, not a results root"},
		{append(other, filepath.Join(run, "sub")), "lies in a finished run"},
		{append(other, filepath.Join(out, "runs")), "is the runs folder of the results root " + out},
		{append(other, filepath.Join(out, "runs", "x")), "lies in the runs folder of the results root " + out},
	})
	ents, err := os.ReadDir(run)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(entsBefore) {
		t.Errorf("refused fits wrote into the run: %d entries before, %d after", len(entsBefore), len(ents))
	}
	if _, err := os.Stat(filepath.Join(out, "runs", "runs")); !os.IsNotExist(err) {
		t.Errorf("a refused fit made a store inside runs/")
	}
	if readFile(t, filepath.Join(run, "done")) != before {
		t.Error("done changed")
	}
	if n := len(runEntries(t, out)); n != 1 {
		t.Errorf("%d runs, want the one", n)
	}
	// A results root holding runs is fine (the same fit is a cache hit).
	if stdout, _, err := runTopicmf(context.Background(), "fit", "--model", "nmf", "--k", "3", "--iters", "5", "--mtx", mtx, "--vocab", vocab, "--out", out, "--quiet"); err != nil || strings.TrimSpace(stdout) != "cached: "+run {
		t.Errorf("same fit: %q %v, want cached: %s", stdout, err, run)
	}
	// A folder that merely holds a file named done (a make or Snakemake
	// marker) is no run: a results root inside it is fine.
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "done"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fitRun(t, "--model", "nmf", "--k", "3", "--iters", "5", "--mtx", mtx, "--vocab", vocab, "--out", filepath.Join(proj, "results"), "--quiet")
}

// TestModelsShowsFitDefaults: for every family, the DEFAULT column of
// `topicmf models` is what fit records in config.json when no parameter
// is given (seed included), and the listing names the text pipeline fit
// uses for count models.
func TestModelsShowsFitDefaults(t *testing.T) {
	for _, f := range catalog.Families() {
		listing, _, err := runTopicmf(context.Background(), "models", f.Name)
		if err != nil {
			t.Fatal(err)
		}
		// The table's rows: "  KEY  DEFAULT  RANGE  DOC", columns where
		// the header puts them.
		shown := map[string]string{}
		from, to := -1, -1
		for _, line := range strings.Split(listing, "\n") {
			if strings.HasPrefix(line, "  PARAMETER ") {
				from, to = strings.Index(line, "DEFAULT"), strings.Index(line, "RANGE")
				continue
			}
			if from < 0 || len(line) < to || strings.HasPrefix(line, "   ") || !strings.HasPrefix(line, "  ") {
				continue
			}
			key, def := strings.TrimSpace(line[:from]), strings.TrimSpace(line[from:to])
			if slices.ContainsFunc(f.Params, func(p catalog.Param) bool { return p.Key == key }) {
				shown[key] = strings.TrimSuffix(def, "*")
			}
		}
		// What fit adds to the command line's parameters.
		recorded := map[string]string{}
		for k, v := range f.FrontEnd.Params {
			recorded[k] = v
		}
		for _, p := range f.Params {
			want := p.Default
			if v, ok := recorded[p.Key]; ok {
				want = v
			}
			if shown[p.Key] != want {
				t.Errorf("models %s: %s shown as %q, fit uses %q", f.Name, p.Key, shown[p.Key], want)
			}
		}
		if counts := strings.Contains(strings.Join(strings.Fields(listing), " "), "--weighting tf --norm none"); counts != f.FrontEnd.Counts {
			t.Errorf("models %s: mentions raw counts %v, fit uses them %v", f.Name, counts, f.FrontEnd.Counts)
		}
	}
	// fit --help names the count models in its flags' defaults.
	help, _, _ := runTopicmf(context.Background(), "fit", "--help")
	for _, f := range catalog.Families() {
		if name := f.Name; f.FrontEnd.Counts && !strings.Contains(help, name+", ") && !strings.Contains(help, ", "+name+":") {
			t.Errorf("fit --help does not say %s's pipeline", name)
		}
	}
	// And fit really records them: rlsi, whose defaults differ most.
	dir := t.TempDir()
	mtx, _ := writeTestMatrix(t, dir, 12, 10)
	cfg := fitConfigOf(t, fitRun(t, "--model", "rlsi", "--k", "2", "--iters", "2", "--mtx", mtx, "--out", filepath.Join(dir, "r"), "--quiet"))
	listing, _, _ := runTopicmf(context.Background(), "models", "rlsi")
	for k, v := range cfg.Params {
		if k != "k" && k != "iters" && !strings.Contains(listing, " "+v+"* ") {
			t.Errorf("config.json has %s=%s, not marked in the listing", k, v)
		}
	}
	if cfg.Seed != workflow.DefaultSeed {
		t.Errorf("config.json seed %d", cfg.Seed)
	}
}
