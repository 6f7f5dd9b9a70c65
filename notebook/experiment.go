package notebook

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/topicmf/topicmf/experiments"
	// Every paper's experiments, registered for Experiments and
	// RunExperiment.
	_ "github.com/topicmf/topicmf/experiments/all"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
)

// Experiments is a dataframe of the registered experiments whose id
// starts with prefix ("" for all, "rlsi2011/" for one paper): id, title,
// and where in the paper.
func Experiments(prefix string) dataframe.DataFrame {
	var ids, titles, wheres []string
	for _, e := range experiments.All() {
		if strings.HasPrefix(e.ID, prefix) {
			ids, titles, wheres = append(ids, e.ID), append(titles, e.Title), append(wheres, e.Paper.Where)
		}
	}
	return dataframe.New(series.New(ids, series.String, "id"), series.New(titles, series.String, "title"),
		series.New(wheres, series.String, "where"))
}

// ExperimentIDs are the ids of the registered experiments whose id starts
// with prefix, in registry order.
func ExperimentIDs(prefix string) []string {
	var ids []string
	for _, e := range experiments.All() {
		if strings.HasPrefix(e.ID, prefix) {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// ExperimentRun is a registered experiment's results, read back from the
// results store.
type ExperimentRun struct {
	*experiments.Results
}

// RunExperiment runs the registered experiment id, with its Quick
// overrides when quick is set, through the results store at ResultsDir
// (as `topicmf run id [--quick]`: finished jobs are read back, the others
// computed). Progress goes nowhere; see Summary for what was computed.
func RunExperiment(id string, quick bool) (*ExperimentRun, error) {
	exps, err := experiments.Get(id)
	if err != nil {
		return nil, err
	}
	if len(exps) != 1 {
		return nil, fmt.Errorf("experiment %q matches %d experiments, want one id", id, len(exps))
	}
	st, err := store.Open(ResultsDir())
	if err != nil {
		return nil, err
	}
	res, err := (&experiments.Runner{Store: st, Quick: quick}).Run(context.Background(), exps[0])
	if err != nil {
		return nil, err
	}
	return &ExperimentRun{res}, nil
}

// TableNames are the names of the experiment's tables, in order.
func (r *ExperimentRun) TableNames() []string {
	var out []string
	for _, t := range r.Experiment.Tables {
		out = append(out, t.Name)
	}
	return out
}

// FigureNames are the names of the experiment's figures, in order.
func (r *ExperimentRun) FigureNames() []string {
	var out []string
	for _, f := range r.Experiment.Figures {
		out = append(out, f.Name)
	}
	return out
}

// Table is the named table as a dataframe, unrounded, as its CSV in the
// report: the grouping columns, then per metric the mean, the sample
// standard deviation, n and the paper's value (where the paper gives one).
func (r *ExperimentRun) Table(name string) (dataframe.DataFrame, error) {
	for _, t := range r.Experiment.Tables {
		if t.Name == name {
			head, rows := report.BuildTable(r.Results, t).CSV()
			return dataframe.LoadRecords(append([][]string{head}, rows...), dataframe.DetectTypes(false), dataframe.DefaultType(series.String)), nil
		}
	}
	return dataframe.DataFrame{}, fmt.Errorf("experiment %s has no table %q (tables: %s)", r.Experiment.ID, name, strings.Join(r.TableNames(), ", "))
}

// Metrics is one row per job with one column per metric.
func (r *ExperimentRun) Metrics() dataframe.DataFrame { return Wide(r.Results) }

// Figure renders the named figure as in the report, shows it inline and
// returns the PNG.
func (r *ExperimentRun) Figure(name string) ([]byte, error) {
	for _, f := range r.Experiment.Figures {
		if f.Name == name {
			return ShowFigure(r.Results, f)
		}
	}
	return nil, fmt.Errorf("experiment %s has no figure %q (figures: %s)", r.Experiment.ID, name, strings.Join(r.FigureNames(), ", "))
}

// Verdicts is a dataframe of the experiment's claims: claim, source,
// verdict (held, not held, inconclusive) and the evidence.
func (r *ExperimentRun) Verdicts() dataframe.DataFrame {
	var claims, sources, outcomes, details []string
	for i, v := range r.Results.Verdicts() {
		c := r.Experiment.Claims[i]
		claims, sources = append(claims, c.Statement), append(sources, c.Source)
		outcomes, details = append(outcomes, v.Outcome.String()), append(details, v.Detail)
	}
	return dataframe.New(series.New(claims, series.String, "claim"), series.New(sources, series.String, "source"),
		series.New(outcomes, series.String, "verdict"), series.New(details, series.String, "evidence"))
}

// Summary is one line: the experiment, quick or full, jobs and the fits'
// stop reasons.
func (r *ExperimentRun) Summary() string {
	mode := "full"
	if r.Quick {
		mode = "quick"
	}
	reasons := map[string]int{}
	for _, j := range r.Jobs {
		if j.Run.Status != "" {
			reasons[j.Run.Status]++
		}
	}
	var parts []string
	for k, n := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", n, k))
	}
	sort.Strings(parts)
	s := fmt.Sprintf("%s (%s run): %d jobs", r.Experiment.ID, mode, len(r.Jobs))
	if len(parts) > 0 {
		s += "; fits: " + strings.Join(parts, ", ")
	}
	return s
}

// QuickLabel heads a quick run's Show, so that it is never taken for the
// reproduction.
const QuickLabel = "Quick run (reduced grid) — not the paper's settings"

// Show displays the whole experiment as its report section would: under
// QuickLabel for a quick run, the summary, every table in Markdown (ours as mean ± sd beside the paper's),
// every figure inline, and the claims with their verdicts.
func (r *ExperimentRun) Show() error {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s — %s\n\n", r.Experiment.ID, r.Experiment.Title)
	if r.Quick {
		b.WriteString("**" + QuickLabel + ".** ")
	}
	fmt.Fprintf(&b, "%s. Paper: %s.\n", r.Summary(), r.Experiment.Paper)
	for _, t := range r.Experiment.Tables {
		fmt.Fprintf(&b, "\n**%s**\n\n%s", firstNonEmpty(t.Title, t.Name), report.BuildTable(r.Results, t).Markdown())
	}
	showMarkdown(b.String())
	for _, f := range r.Experiment.Figures {
		if _, err := r.Figure(f.Name); err != nil {
			return err
		}
	}
	if md := report.ClaimsMarkdown(r.Results); md != "" {
		showMarkdown("**Claims**\n\n" + md)
	}
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
