package main

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/experiments"
	_ "github.com/topicmf/topicmf/experiments/all" // registers every experiment
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/outfile"
)

func newRunCmd() *cobra.Command {
	var (
		quick      bool
		resultsDir string
		workers    int
		seed       uint64
	)
	cmd := &cobra.Command{
		Use:   "run ID... [--quick] [--results DIR] [--workers N]",
		Short: "Run experiments (ids or globs such as rlsi2011/*) and render their reports",
		Long: `run expands each experiment into jobs, computes those the results store does not
hold yet (a finished job is never recomputed; an interrupted run resumes), and
renders the experiment's tables, figures and claims into
<results>/<paper>/<name>/ and <results>/<paper>/REPORT.md. Runs are stored under
<results>/runs/. With --quick the experiments' reduced grids are used and the
reports go to <results>/quick/<paper>/ so the full reports are not overwritten.
"topicmf list" shows the ids.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return errors.New("run: name the experiments to run, e.g. topicmf run foundation/nmf-synthetic --quick (topicmf list shows them)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			// The experiments read the collections from $TOPICMF_DATA.
			restore, err := useDataDir(cmd)
			if err != nil {
				return fmt.Errorf("run: %w", err)
			}
			defer restore()
			exps, err := matchExperiments(args)
			if err != nil {
				return err
			}
			pool, err := workerPool(workers)
			if err != nil {
				return err
			}
			if err := outfile.CheckDir(resultsDir); err != nil {
				return fmt.Errorf("run: --results %w; want the results root, a directory", err)
			}
			st, err := store.Open(resultsDir)
			if err != nil {
				return err
			}
			reportRoot := st.Root()
			if quick {
				reportRoot = filepath.Join(reportRoot, "quick")
			} else if err := report.CheckCommittable(reportRoot, st.Code()); err != nil {
				return fmt.Errorf("run: %w", err)
			}
			for _, e := range exps {
				r := &experiments.Runner{Store: st, Pool: pool, Quick: quick, Seed: seed}
				if err := runExperiment(cmd, r, e, reportRoot); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&quick, "quick", false, "use the experiments' reduced grids (minutes, a smoke test)")
	f.StringVar(&resultsDir, "results", "results", "results root: runs/ and the per-paper reports")
	f.IntVar(&workers, "workers", 0, "worker slots shared by jobs and by the models' parallel loops (default GOMAXPROCS)")
	f.Uint64Var(&seed, "seed", 0, "root seed replacing each experiment's own (0 keeps theirs)")
	return cmd
}

// runExperiment runs e with r, renders its section and its paper's report
// under reportRoot, and prints what was computed and the claims' verdicts.
func runExperiment(cmd *cobra.Command, r *experiments.Runner, e *experiments.Experiment, reportRoot string) error {
	out := cmd.OutOrStdout()
	errw := cmd.ErrOrStderr()
	view := newProgressView(errw, quietFlag(cmd))
	r.Progress = func(p experiments.Progress) {
		if p.Event == experiments.EventRecomputed {
			view.Note(errw, recomputedNote(p))
		}
		view.Update(p)
	}
	res, err := r.Run(cmd.Context(), e)
	view.Finish()
	if err != nil {
		return err // names the experiment or job
	}
	dir := report.PaperDir(reportRoot, e)
	if _, err := report.Render(res, dir); err != nil {
		return fmt.Errorf("%s: rendering: %w", e.ID, err)
	}
	paperExps, err := experiments.Get(e.PaperKey() + "/*")
	if err != nil {
		return err
	}
	if err := report.Assemble(dir, paperExps, r.Quick); err != nil {
		return fmt.Errorf("%s: assembling the report: %w", e.ID, err)
	}
	computed := 0
	for _, j := range res.Jobs {
		if !j.Cached {
			computed++
		}
	}
	fmt.Fprintf(out, "%s: %d jobs (%d computed, %d cached) -> %s\n", e.ID, len(res.Jobs), computed, len(res.Jobs)-computed, filepath.Join(dir, report.ReportFile))
	for i, v := range res.Verdicts() {
		fmt.Fprintf(out, "  claim %q: %s (%s)\n", e.Claims[i].Statement, v.Outcome, v.Detail)
	}
	return nil
}

// matchExperiments are the experiments the patterns name, each once, in
// the order named.
func matchExperiments(patterns []string) ([]*experiments.Experiment, error) {
	var exps []*experiments.Experiment
	seen := map[string]bool{}
	for _, pat := range patterns {
		if _, err := path.Match(pat, ""); err != nil {
			return nil, fmt.Errorf("run: %q is not a valid pattern: %v", pat, err)
		}
		es, err := experiments.Get(pat)
		if err != nil {
			return nil, fmt.Errorf("run: no experiment matches %q%s (topicmf list shows them)", pat, suggest(pat))
		}
		for _, e := range es {
			if !seen[e.ID] {
				seen[e.ID] = true
				exps = append(exps, e)
			}
		}
	}
	return exps, nil
}

// suggest is "; did you mean X?" for the registered ids and paper names
// closest to a pattern that matched none (within a third of its length in
// edits), or "".
func suggest(pattern string) string {
	var names []string
	paper := ""
	for _, e := range experiments.All() { // sorted by id, so by paper
		if e.PaperKey() != paper {
			paper = e.PaperKey()
			names = append(names, paper)
		}
		names = append(names, e.ID)
	}
	best, dist := []string(nil), len(pattern)/3+1
	for _, n := range names {
		switch d := editDistance(pattern, n); {
		case d < dist:
			best, dist = []string{n}, d
		case d == dist:
			best = append(best, n)
		}
	}
	if len(best) == 0 || len(best) > 3 {
		return ""
	}
	return "; did you mean " + strings.Join(best, " or ") + "?"
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			sub := prev[j-1]
			if ra[i-1] != rb[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// workerPool returns the shared pool, sized to workers when given. The
// models run on parallel.Default(), so --workers sets GOMAXPROCS before
// the pool is first created; results are identical for any size.
func workerPool(workers int) (*parallel.Pool, error) {
	if workers < 0 {
		return nil, fmt.Errorf("--workers = %d: want ≥ 1 (0 for GOMAXPROCS)", workers)
	}
	if workers > 0 {
		runtime.GOMAXPROCS(workers)
	}
	pool := parallel.Default()
	if workers > 0 && pool.Workers() != workers {
		return nil, fmt.Errorf("--workers %d: the worker pool already has %d slots in this process", workers, pool.Workers())
	}
	return pool, nil
}
