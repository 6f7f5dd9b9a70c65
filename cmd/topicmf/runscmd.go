package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/topicmf/topicmf/experiments/store"
)

// runStates are the states a run can be in (--status).
var runStates = []string{store.StateFinished, store.StateFailed, store.StateDamaged, store.StateUnfinished}

// idPrefix is how many hex digits of a run id the listing shows; runs
// verify accepts any unambiguous prefix.
const idPrefix = 12

func newRunsCmd() *cobra.Command {
	var resultsDir, model, data, status, from string
	var showCost, markdown bool
	cmd := &cobra.Command{
		Use:   "runs [--results DIR] [--model NAME] [--data NAME] [--status STATE] | runs --cost [--markdown] [--from SOURCE]",
		Short: "List the stored runs (fits and experiment jobs): model, data, K, status",
		Long: `runs lists every run directory under <results>/runs: the id (first 12 hex
digits), the model, the data, K, the status and the start date, then the path.
A scoring of a fit (fit's topics.txt of --top terms and topic quality) shows
as model "scores", data "run <fit id>".
K is the run's number of topics as configured (ks, kc, kp for the group
families), else the columns of its U.mtx. The status is finished, failed (a numerical failure, recorded but never served
from the cache), damaged (the files no longer match the run's manifest) or
unfinished; every file of every run is hashed against its manifest to tell.
--model, --data and --status keep only the runs that match.
"topicmf runs verify" lists every difference.

--cost sums instead the wall-clock and CPU seconds of the jobs, per
experiment and per paper, sorted by cost: the jobs, the sums, each one's
share of the total, the cores it kept busy on average (CPU over elapsed)
and its largest job. The times come from the committed
reports' <results>/<paper>/<experiment>/provenance.json and, for the
experiments without one, from the runs' provenance.json (the latest run of
each job configuration); --from runs or --from reports takes one source
only. --markdown writes Markdown tables (for docs/performance.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showCost {
				if model != "" || data != "" || status != "" {
					return fmt.Errorf("runs --cost sums every run: --model, --data and --status do not apply")
				}
				return writeCost(cmd.OutOrStdout(), resultsDir, from, markdown)
			}
			if markdown || cmd.Flags().Changed("from") {
				return fmt.Errorf("runs: --markdown and --from go with --cost")
			}
			if status != "" && !slices.Contains(runStates, status) {
				return fmt.Errorf("runs: --status %q: want one of %s", status, strings.Join(runStates, ", "))
			}
			st, _, err := openRuns(resultsDir, "--results")
			if err != nil {
				return err
			}
			// Every file is hashed, so that a changed byte in a factor
			// file shows the run as damaged (the quick check leaves the
			// large factors to their readers).
			list, err := st.ListVerified()
			if err != nil {
				return fmt.Errorf("runs: %w", err)
			}
			var rows [][]string
			for _, in := range list {
				s := summarize(in)
				if (model != "" && s.model != model) || (data != "" && s.data != data) || (status != "" && in.State != status) {
					continue
				}
				rows = append(rows, []string{in.ID[:idPrefix], s.model, s.data, s.k, in.State, s.date, shortPath(in.Dir)})
			}
			out := cmd.OutOrStdout()
			if len(rows) == 0 {
				fmt.Fprintf(out, "no runs match under %s\n", filepath.Join(st.Root(), "runs"))
				return nil
			}
			writeTable(out, []string{"ID", "MODEL", "DATA", "K", "STATUS", "DATE", "PATH"}, rows, outputWidth(out))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&resultsDir, "results", "results", "results root holding runs/ (fit's --out, run's --results)")
	f.StringVar(&model, "model", "", "only runs of this model family")
	f.StringVar(&data, "data", "", "only runs on this data set")
	f.StringVar(&status, "status", "", "only runs in this state: finished, failed, damaged or unfinished")
	f.BoolVar(&showCost, "cost", false, "sum the jobs' wall and CPU seconds per experiment and per paper")
	f.BoolVar(&markdown, "markdown", false, "with --cost: Markdown tables")
	f.StringVar(&from, "from", costFromAll, "with --cost: where the times come from: all (reports, else runs), runs or reports")
	cmd.AddCommand(newRunsVerifyCmd())
	return cmd
}

func newRunsVerifyCmd() *cobra.Command {
	var resultsDir string
	cmd := &cobra.Command{
		Use:   "verify [RUN...] [--results DIR]",
		Short: "Re-hash the files of runs (ids, prefixes or directories; default all)",
		Long: `verify reads every file of each named finished run (an id prefix as runs
shows it, or a run directory; every finished or damaged run when none is named)
and compares its size and SHA-256 with the manifest written when the run
finished. It prints one line per run and fails when any run does not match,
when a run is unfinished (no done marker), or when there is nothing to
verify; a run that does not match is computed again by the next fit or run.
Failed runs (recorded numerical failures, which carry no manifest) are
listed and skipped.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, list, err := openRuns(resultsDir, "--results")
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			var ids []string
			if len(args) == 0 {
				for _, in := range list {
					if in.State == store.StateFailed {
						fmt.Fprintf(out, "skip %s  %s (failed: %s)\n", in.ID[:idPrefix], in.Dir, in.Detail)
						continue
					}
					ids = append(ids, in.ID)
				}
				if len(ids) == 0 {
					return fmt.Errorf("runs verify: nothing to verify: no finished runs under %s", filepath.Join(st.Root(), "runs"))
				}
			}
			for _, a := range args {
				id, err := resolveRun(list, a)
				if err != nil {
					return fmt.Errorf("runs verify: %w", err)
				}
				ids = append(ids, id)
			}
			bad := 0
			for _, id := range ids {
				problems, err := st.Verify(id)
				if err != nil {
					problems = []string{err.Error()}
				}
				if len(problems) == 0 {
					fmt.Fprintf(out, "ok   %s  %s\n", id[:idPrefix], st.Dir(id))
					continue
				}
				bad++
				fmt.Fprintf(out, "BAD  %s  %s\n", id[:idPrefix], st.Dir(id))
				for _, p := range problems {
					fmt.Fprintf(out, "     %s\n", p)
				}
			}
			if bad > 0 {
				return fmt.Errorf("runs verify: %d of %d runs do not match their manifests", bad, len(ids))
			}
			fmt.Fprintf(out, "%d runs verified\n", len(ids))
			return nil
		},
	}
	cmd.Flags().StringVar(&resultsDir, "results", "results", "results root holding runs/")
	return cmd
}

// openRuns opens the store at root without creating one where there is
// none (a typo in the results root should not leave a directory behind),
// and lists its runs; rootFlag is the flag that gives root (runs:
// --results; transform and rank: --out), named in the error.
func openRuns(root, rootFlag string) (*store.Store, []store.Info, error) {
	if fi, err := os.Stat(filepath.Join(root, "runs")); err != nil || !fi.IsDir() {
		return nil, nil, fmt.Errorf("runs: %s holds no runs/ directory (give the results root with %s)", root, rootFlag)
	}
	st, err := store.Open(root)
	if err != nil {
		return nil, nil, err
	}
	list, err := st.List()
	if err != nil {
		return nil, nil, fmt.Errorf("runs: %w", err)
	}
	return st, list, nil
}

// resolveRun finds the run named by an id prefix or a run directory.
func resolveRun(list []store.Info, arg string) (string, error) {
	if strings.ContainsRune(arg, os.PathSeparator) {
		arg = filepath.Base(filepath.Clean(arg))
	}
	var found []string
	for _, in := range list {
		if strings.HasPrefix(in.ID, strings.ToLower(arg)) {
			found = append(found, in.ID)
		}
	}
	switch {
	case arg == "" || len(found) == 0:
		return "", fmt.Errorf("no run %q", arg)
	case len(found) > 1:
		return "", fmt.Errorf("run prefix %q is ambiguous (%d runs)", arg, len(found))
	}
	return found[0], nil
}

// shortPath is dir relative to the working directory when it lies below it.
func shortPath(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return dir
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
		return dir
	}
	return rel
}

// runSummary is what the listing shows of a run's configuration.
type runSummary struct{ model, data, k, date string }

// summarize reads the model, data set and K from a run's config.json: a
// fit's ({"model", "data": {"name" | "kind"}, "params"}) or an experiment
// job's ({"experiment", "method", "dataset", "params", "task"}); a scoring
// of a fit run ({"command": "score", "run"}) shows as "scores" of that run.
func summarize(in store.Info) runSummary {
	var c struct {
		Command    string            `json:"command"`
		Run        string            `json:"run"`
		Model      string            `json:"model"`
		Method     string            `json:"method"`
		Experiment string            `json:"experiment"`
		Dataset    string            `json:"dataset"`
		Params     map[string]string `json:"params"`
		Task       map[string]string `json:"task"`
		Data       struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"data"`
	}
	s := runSummary{model: "-", data: "-", k: "-", date: "-"}
	read := json.Unmarshal(in.Config, &c) == nil
	if read && c.Command == "score" && len(c.Run) >= idPrefix {
		s.model, s.data = "scores", "run "+c.Run[:idPrefix]
	} else if read {
		for _, m := range []string{c.Model, c.Method, c.Experiment} {
			if m != "" {
				s.model = m
				break
			}
		}
		switch {
		case c.Data.Name != "":
			s.data = c.Data.Name
		case c.Data.Kind != "":
			s.data = "(" + c.Data.Kind + ")"
		case c.Dataset != "":
			s.data = c.Dataset
		}
		var group []string // the group families' numbers of topics, as given
		for _, key := range []string{"ks", "kc", "kp"} {
			if v := c.Params[key]; v != "" {
				group = append(group, key+"="+v)
			}
		}
		switch {
		case c.Params["k"] != "":
			s.k = c.Params["k"]
		case c.Task["k"] != "":
			s.k = c.Task["k"]
		case len(group) > 0:
			s.k = strings.Join(group, ",")
		default: // the family's default: the columns of the run's U
			if k, ok := topicsOf(filepath.Join(in.Dir, "U.mtx")); ok {
				s.k = strconv.Itoa(k)
			}
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, in.Start); err == nil {
		s.date = t.UTC().Format("2006-01-02 15:04")
	}
	return s
}

// topicsOf reads the size line of the dense Matrix Market file path (a
// fit's U, M×K) and returns K; ok is false when it cannot be read.
func topicsOf(path string) (k int, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '%' {
			continue
		}
		var m int
		if n, err := fmt.Sscan(line, &m, &k); n != 2 || err != nil || k < 1 {
			return 0, false
		}
		return k, true
	}
	return 0, false
}

// outputWidth is the width of the terminal w writes to, else $COLUMNS,
// else 0 (no wrapping, one line per row for scripts).
func outputWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			return width
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 0
}

// writeTable writes rows in aligned columns. When a line would exceed
// width (> 0), its last column (the path) goes on the next line, indented.
func writeTable(w io.Writer, head []string, rows [][]string, width int) {
	last := len(head) - 1
	widths := make([]int, last)
	for _, r := range append([][]string{head}, rows...) {
		for c := 0; c < last; c++ {
			widths[c] = max(widths[c], len([]rune(r[c])))
		}
	}
	for _, r := range append([][]string{head}, rows...) {
		var b strings.Builder
		for c := 0; c < last; c++ {
			b.WriteString(r[c])
			b.WriteString(strings.Repeat(" ", widths[c]-len([]rune(r[c]))+2))
		}
		line := b.String()
		if width > 0 && len([]rune(line))+len([]rune(r[last])) > width {
			fmt.Fprintf(w, "%s\n    %s\n", strings.TrimRight(line, " "), r[last])
			continue
		}
		fmt.Fprintf(w, "%s%s\n", line, r[last])
	}
}
