package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/experiments"
	_ "github.com/topicmf/topicmf/experiments/all" // registers every experiment
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/linediff"
)

// reportLong is report's help text.
const reportLong = `report rewrites <results>/<paper>/REPORT.md from the sections
(<results>/<paper>/<experiment>/section.md) that are there, listing the
registered experiments without one as not run yet. It computes nothing: use it
after copying sections rendered by runs on other machines or at other times
into one results tree. run does the same after every experiment.

With --check it writes nothing: for every experiment of the papers named (all
papers when none is) whose full-run report is under <results>, it renders the
report again from the stored runs in <results>/runs into a temporary directory
and compares the tables (the unrounded CSVs) and section.md (except the
"Runs." line, which counts cached runs) with the committed ones. An
experiment whose runs are not all in the store, or are damaged (their files
no longer match their manifests), cannot be checked, and is listed as such,
naming the first damaged run and what is wrong with it: results/runs is not
committed, so on a fresh clone only the runs recomputed there can be checked. It fails when any report differs, and
when nothing was checked (no committed report under <results>, or none whose
runs are all stored).

With --verify it writes nothing either: for the experiments named (papers,
ids or globs such as '*/*') it recomputes from scratch, in a temporary results
store, a deterministic sample of the jobs of each committed full run, and
compares every metric exactly with the values committed in the experiment's
provenance.json (machine-dependent metrics such as times are left out). Jobs
are chosen cheapest first by their recorded wall time, one per experiment
per round, while the recorded times fit in --budget. It names the job and
metric of every difference and fails on any, and fails when a committed
section has no provenance.json (rendered before provenance was recorded).

With --summary it counts the claims' verdicts (held, not held, inconclusive)
in every paper's <results>/<paper>/REPORT.md and writes them as a table into
--readme (README.md) between the lines
` + report.SummaryBegin + `
` + report.SummaryEnd + `
replacing what is between them and nothing else; it fails when a paper has no
REPORT.md or the file lacks the markers.`

// reportOptions are report's flags.
type reportOptions struct {
	quick, check, verify, summary bool
	resultsDir, readme            string
	budget                        time.Duration
}

func newReportCmd() *cobra.Command {
	var o reportOptions
	cmd := &cobra.Command{
		Use:   "report PAPER... [--results DIR] [--quick] | --check [PAPER...] | --verify PAPER|ID... [--budget DURATION] | --summary [--readme FILE]",
		Short: "Re-assemble <results>/<paper>/REPORT.md from the experiment sections present",
		Long:  reportLong,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.summary {
				return cobra.NoArgs(cmd, args)
			}
			if o.check || len(args) > 0 {
				return nil
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runReport(cmd, args, o) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.quick, "quick", false, "assemble the quick report (<results>/quick/<paper>/)")
	f.BoolVar(&o.check, "check", false, "write nothing; check that the committed reports agree with their stored runs")
	f.StringVar(&o.resultsDir, "results", "results", "results root holding <paper>/<experiment>/section.md")
	f.BoolVar(&o.verify, "verify", false, "write nothing; recompute a sample of the committed full runs and compare their metrics exactly")
	f.DurationVar(&o.budget, "budget", 5*time.Minute, "with --verify: the recorded wall time of the jobs to recompute")
	f.BoolVar(&o.summary, "summary", false, "write the table of every paper's claim verdicts into --readme, between its markers")
	f.StringVar(&o.readme, "readme", "README.md", "with --summary: the Markdown file holding the markers")
	return cmd
}

// runReport dispatches report to its mode: --summary, --verify, --check or
// assembling the named papers' reports.
func runReport(cmd *cobra.Command, args []string, o reportOptions) error {
	switch {
	case o.summary:
		if o.quick || o.check || o.verify {
			return errors.New("report --summary: counts the committed full-run reports' verdicts; --quick, --check and --verify do not apply")
		}
		return writeSummary(cmd.OutOrStdout(), o.resultsDir, o.readme)
	case o.verify:
		if o.quick || o.check {
			return errors.New("report --verify: checks the committed full-run reports; --quick and --check do not apply")
		}
		restore, err := useDataDir(cmd)
		if err != nil {
			return fmt.Errorf("report --verify: %w", err)
		}
		defer restore()
		return verifyReports(cmd.Context(), cmd.OutOrStdout(), o.resultsDir, args, o.budget)
	case o.check:
		if o.quick {
			return errors.New("report --check: checks the committed full-run reports; --quick does not apply")
		}
		return checkReports(cmd.OutOrStdout(), o.resultsDir, args)
	}
	return assembleReports(cmd.OutOrStdout(), o.resultsDir, args, o.quick)
}

// writeSummary is report --summary: the verdict counts of every paper's
// REPORT.md under root, written between the markers of readme (links to
// the reports relative to readme's directory); readme is rewritten
// atomically, and only when the table changed.
func writeSummary(out io.Writer, root, readme string) error {
	vs, err := report.Verdicts(root, experiments.All())
	if err != nil {
		return fmt.Errorf("report --summary: %w", err)
	}
	link, err := filepath.Rel(filepath.Dir(readme), root)
	if err != nil {
		return fmt.Errorf("report --summary: %w", err)
	}
	doc, err := os.ReadFile(readme)
	if err != nil {
		return fmt.Errorf("report --summary: %w", err)
	}
	updated, err := report.ReplaceSummary(string(doc), report.SummaryMarkdown(vs, filepath.ToSlash(link)), readme)
	if err != nil {
		return fmt.Errorf("report --summary: %w", err)
	}
	if updated == string(doc) {
		fmt.Fprintf(out, "%s: claims summary of %d papers unchanged\n", readme, len(vs))
		return nil
	}
	if err := store.WriteFileAtomic(readme, func(w io.Writer) error { _, err := io.WriteString(w, updated); return err }); err != nil {
		return fmt.Errorf("report --summary: %w", err)
	}
	fmt.Fprintf(out, "%s: claims summary of %d papers written\n", readme, len(vs))
	return nil
}

// assembleReports is report PAPER...: each paper's REPORT.md rebuilt from
// the sections present under root (root/quick with quick).
func assembleReports(out io.Writer, root string, papers []string, quick bool) error {
	if quick {
		root = filepath.Join(root, "quick")
	}
	for _, paper := range papers {
		exps, err := experiments.Get(paper + "/*")
		if err != nil {
			return err
		}
		dir := report.PaperDir(root, exps[0])
		if _, err := os.Stat(dir); err != nil {
			return fmt.Errorf("report %s: %w", paper, err)
		}
		if err := report.Assemble(dir, exps, quick); err != nil {
			return fmt.Errorf("report %s: %w", paper, err)
		}
		fmt.Fprintln(out, filepath.Join(dir, report.ReportFile))
	}
	return nil
}

// checkReports is report --check (see its help).
func checkReports(out io.Writer, root string, papers []string) error {
	var exps []*experiments.Experiment
	which := "" // the papers named, for the message when nothing is checked
	if len(papers) == 0 {
		papers = []string{"*"}
	} else {
		which = " of " + strings.Join(papers, ", ")
	}
	for _, p := range papers {
		es, err := experiments.Get(p + "/*")
		if err != nil {
			return err
		}
		exps = append(exps, es...)
	}
	runs, err := indexRuns(root)
	if err != nil {
		return fmt.Errorf("report --check: %w", err)
	}
	var agree, differ, unchecked int
	anyDamaged := false
	for _, e := range exps {
		dir := filepath.Join(root, e.PaperKey(), e.Name())
		if _, err := os.Stat(filepath.Join(dir, report.SectionFile)); err != nil {
			continue // no committed report for this experiment
		}
		res, gaps, err := storedResults(e, runs, committedRevision(dir))
		if err != nil {
			return fmt.Errorf("report --check %s: %w", e.ID, err)
		}
		if gaps.jobs() > 0 {
			unchecked++
			fmt.Fprintf(out, "unchecked  %s: %s\n", e.ID, gaps.describe(e.ID, gaps.jobs()+len(res.Jobs), filepath.Join(root, "runs")))
			anyDamaged = anyDamaged || len(gaps.damaged) > 0
			continue
		}
		diffs, err := compareRendered(res, dir)
		if err != nil {
			return fmt.Errorf("report --check %s: %w", e.ID, err)
		}
		if len(diffs) == 0 {
			agree++
			fmt.Fprintf(out, "agree      %s (%d runs)\n", e.ID, len(res.Jobs))
			continue
		}
		differ++
		fmt.Fprintf(out, "DIFFER     %s\n", e.ID)
		for _, d := range diffs {
			fmt.Fprintf(out, "           %s\n", d)
		}
	}
	runsNote := fmt.Sprintf("their runs are not in %s: results/runs is not committed; \"topicmf run ID\" recomputes them", filepath.Join(root, "runs"))
	if anyDamaged {
		runsNote = fmt.Sprintf("their runs are damaged or not in %s; \"topicmf run ID\" recomputes them", filepath.Join(root, "runs"))
	}
	switch {
	case agree+differ+unchecked == 0:
		return fmt.Errorf("report --check: nothing was checked: no committed report%s under %s (give the results root with --results)", which, root)
	case agree+differ == 0:
		return fmt.Errorf("report --check: nothing was checked: none of the %d reports can be checked (%s)", unchecked, runsNote)
	}
	fmt.Fprintf(out, "%d reports agree with their runs, %d differ, %d could not be checked", agree, differ, unchecked)
	if unchecked > 0 {
		fmt.Fprintf(out, " (%s)", runsNote)
	}
	fmt.Fprintln(out)
	if differ > 0 {
		return fmt.Errorf("report --check: %d reports differ from their stored runs", differ)
	}
	return nil
}

// runIndex holds the runs of a store by canonical job configuration.
type runIndex struct {
	finished map[string][]string     // the finished runs' directories
	damaged  map[string][]store.Info // runs whose files no longer match their manifest
}

// indexRuns indexes every run under root by its canonical job
// configuration: the finished runs, and apart from them the damaged ones
// (store.StateDamaged), so that a job whose run is damaged is not taken for
// one that never ran. Runs are matched by configuration alone: a committed
// report was computed by an earlier revision, whose code version is part
// of the run id.
func indexRuns(root string) (runIndex, error) {
	idx := runIndex{finished: map[string][]string{}, damaged: map[string][]store.Info{}}
	if _, err := os.Stat(filepath.Join(root, "runs")); err != nil {
		return idx, nil
	}
	st, err := store.Open(root)
	if err != nil {
		return idx, err
	}
	list, err := st.List()
	if err != nil {
		return idx, err
	}
	for _, in := range list {
		var c experiments.JobConfig
		if (in.State != store.StateFinished && in.State != store.StateDamaged) || json.Unmarshal(in.Config, &c) != nil || c.Experiment == "" {
			continue
		}
		b, err := store.Canonical(c)
		if err != nil {
			return idx, err
		}
		if in.State == store.StateDamaged {
			idx.damaged[string(b)] = append(idx.damaged[string(b)], in)
			continue
		}
		idx.finished[string(b)] = append(idx.finished[string(b)], in.Dir)
	}
	return idx, nil
}

// runGaps are the jobs of an experiment without a finished run: those
// whose run is damaged, and those with none in the store.
type runGaps struct {
	missing int
	damaged []store.Info // one damaged run of each such job
}

func (g runGaps) jobs() int { return g.missing + len(g.damaged) }

// describe says, in one line, how many of the jobs' runs are damaged (the
// first named, with what is wrong with it) and how many are not in runs,
// for the experiment id.
func (g runGaps) describe(id string, jobs int, runs string) string {
	var parts []string
	if n := len(g.damaged); n > 0 {
		first := g.damaged[0]
		parts = append(parts, fmt.Sprintf("%d of %d runs are damaged (the first: %s…, %s; \"topicmf run %s\" recomputes them)",
			n, jobs, first.ID[:12], first.Detail, id))
	}
	if g.missing > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d runs are not in %s", g.missing, jobs, runs))
	}
	return strings.Join(parts, ", ")
}

// committedRevision is the code revision (12 hex digits) the committed
// section names in its "Runs." footer, or "".
func committedRevision(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, report.SectionFile))
	if err != nil {
		return ""
	}
	_, after, ok := strings.Cut(string(b), " revision ")
	if !ok {
		return ""
	}
	rev, _, _ := strings.Cut(after, " ")
	return rev
}

// storedResults assembles the full-run results of e from stored runs,
// preferring for each job a run computed by revision rev. gaps are the
// jobs without a finished run: a damaged run, or none.
func storedResults(e *experiments.Experiment, runs runIndex, rev string) (*experiments.Results, runGaps, error) {
	var gaps runGaps
	jobs, err := e.Jobs(false, 0)
	if err != nil {
		return nil, gaps, err
	}
	res := &experiments.Results{Experiment: e}
	for _, j := range jobs {
		b, err := store.Canonical(j.Config())
		if err != nil {
			return nil, gaps, err
		}
		dirs := runs.finished[string(b)]
		if damaged := runs.damaged[string(b)]; len(dirs) == 0 && len(damaged) > 0 {
			gaps.damaged = append(gaps.damaged, damaged[0])
			continue
		}
		if len(dirs) == 0 {
			gaps.missing++
			continue
		}
		dir := dirs[0]
		for _, d := range dirs {
			if p, err := store.ReadProvenance(d); err == nil && rev != "" && strings.HasPrefix(p.Code.Revision, rev) {
				dir = d
			}
		}
		sr, err := experiments.ReadRun(dir)
		if err != nil {
			return nil, gaps, err
		}
		res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, RunID: filepath.Base(dir), Dir: dir, Cached: true, Run: sr})
	}
	return res, gaps, nil
}

// compareRendered renders res into a temporary directory and lists how its
// table CSVs and section.md differ from those in dir.
func compareRendered(res *experiments.Results, dir string) ([]string, error) {
	tmp, err := os.MkdirTemp("", "topicmf-report-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if _, err := report.Render(res, tmp); err != nil {
		return nil, err
	}
	fresh := filepath.Join(tmp, res.Experiment.Name())
	ents, err := os.ReadDir(fresh)
	if err != nil {
		return nil, err
	}
	var diffs []string
	for _, ent := range ents {
		name := ent.Name()
		if !strings.HasSuffix(name, ".csv") && name != report.SectionFile {
			continue
		}
		want, err := os.ReadFile(filepath.Join(fresh, name))
		if err != nil {
			return nil, err
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			diffs = append(diffs, name+": not committed")
			continue
		}
		if d := firstDifference(string(got), string(want), name == report.SectionFile); d != "" {
			diffs = append(diffs, name+": "+d)
		}
	}
	return diffs, nil
}

// firstDifference describes the first line where the committed text and
// the text rendered from the runs differ ("" when they agree), skipping
// the section's "**Runs.**" line when section is set.
func firstDifference(committed, rendered string, section bool) string {
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if !(section && strings.HasPrefix(l, "**Runs.**")) {
				out = append(out, l)
			}
		}
		return out
	}
	if n, x, y, ok := linediff.First(lines(committed), lines(rendered)); ok {
		return fmt.Sprintf("line %d: committed %.80q, from the runs %.80q", n, x, y)
	}
	return ""
}
