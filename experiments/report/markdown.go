package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

// TableData is a rendered table's numbers before rounding.
type TableData struct {
	Table    experiments.Table
	Rows     [][]string              // values of Table.Rows per row
	Cells    [][]experiments.Summary // [row][metric]
	Paper    [][]float64             // [row][metric]; NaN where the paper gives none
	Notes    [][]string              // [row][metric] note of the paper value
	HasPaper []bool                  // per metric: some row has a paper value
}

// BuildTable groups the results as table t says and attaches the paper's
// values.
func BuildTable(res *experiments.Results, t experiments.Table) TableData {
	td := TableData{Table: t, HasPaper: make([]bool, len(t.Metrics))}
	var keys [][]string
	seen := map[string]bool{}
	for _, j := range res.Select(t.Where) {
		key := make([]string, len(t.Rows))
		for i, c := range t.Rows {
			key[i] = j.Job.Column(c)
		}
		id := strings.Join(key, "\x00")
		if !seen[id] {
			seen[id] = true
			keys = append(keys, key)
		}
	}
	for _, key := range keys {
		where := map[string]string{}
		for k, v := range t.Where {
			where[k] = v
		}
		for i, c := range t.Rows {
			where[c] = key[i]
		}
		cells := make([]experiments.Summary, len(t.Metrics))
		paper := make([]float64, len(t.Metrics))
		notes := make([]string, len(t.Metrics))
		for m, metric := range t.Metrics {
			cells[m] = experiments.Summarize(res.Values(metric, where))
			paper[m] = math.NaN()
			if pv, ok := paperValue(res.Experiment.PaperValues, metric, where); ok {
				paper[m], notes[m] = pv.Value, pv.Note
				td.HasPaper[m] = true
			}
		}
		td.Rows = append(td.Rows, key)
		td.Cells = append(td.Cells, cells)
		td.Paper = append(td.Paper, paper)
		td.Notes = append(td.Notes, notes)
	}
	return td
}

// paperValue finds the paper value of metric whose Where agrees with the
// row's column values.
func paperValue(pvs []experiments.PaperValue, metric string, row map[string]string) (experiments.PaperValue, bool) {
	for _, pv := range pvs {
		if pv.Metric != metric {
			continue
		}
		ok := true
		for k, v := range pv.Where {
			if rv, has := row[k]; !has || rv != v {
				ok = false
				break
			}
		}
		if ok {
			return pv, true
		}
	}
	return experiments.PaperValue{}, false
}

// paperNotes are the distinct notes of the paper values shown.
func (td TableData) paperNotes() []string {
	var out []string
	seen := map[string]bool{}
	for r := range td.Notes {
		for _, n := range td.Notes[r] {
			if n != "" && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// FormatNumber rounds v to digits decimals; values too small for that are
// shown with digits significant figures instead of as zero.
func FormatNumber(v float64, digits int) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v != 0 && math.Abs(v) < 0.5*math.Pow(10, -float64(digits)):
		return strconv.FormatFloat(v, 'g', max(digits, 1), 64)
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

func formatSummary(s experiments.Summary, digits int) string {
	if s.N == 0 {
		return "–"
	}
	// Counts (every value the same integer) print as integers.
	if s.Mean == math.Trunc(s.Mean) && math.Abs(s.Mean) < 1e15 && (s.N == 1 || s.SD == 0) {
		same := true
		for _, v := range s.Values {
			same = same && v == s.Mean
		}
		if same {
			return strconv.FormatFloat(s.Mean, 'f', 0, 64)
		}
	}
	out := FormatNumber(s.Mean, digits)
	if s.N > 1 {
		out += " ± " + FormatNumber(s.SD, digits)
	}
	return out
}

func escapeCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// Markdown renders the table: the grouping columns, then for each metric
// our mean ± sd (over replicates) and, where the paper reports the
// metric, the paper's value.
func (td TableData) Markdown() string {
	t := td.Table
	digits := t.Digits
	if digits == 0 {
		digits = 3
	}
	head := append([]string(nil), t.Rows...)
	for m, metric := range t.Metrics {
		head = append(head, metric+" (ours)")
		if td.HasPaper[m] {
			head = append(head, metric+" (paper)")
		}
	}
	head = append(head, "n")
	var b strings.Builder
	writeRow := func(cells []string) {
		for i := range cells {
			cells[i] = escapeCell(cells[i])
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	writeRow(append([]string(nil), head...))
	seps := make([]string, len(head))
	for i := range seps {
		if i < len(t.Rows) {
			seps[i] = "---"
		} else {
			seps[i] = "---:"
		}
	}
	b.WriteString("| " + strings.Join(seps, " | ") + " |\n")
	for r, key := range td.Rows {
		cells := append([]string(nil), key...)
		n := 0
		for m := range t.Metrics {
			cells = append(cells, formatSummary(td.Cells[r][m], digits))
			if td.HasPaper[m] {
				cells = append(cells, FormatNumber(td.Paper[r][m], digits))
			}
			n = max(n, td.Cells[r][m].N)
		}
		cells = append(cells, strconv.Itoa(n))
		writeRow(cells)
	}
	return b.String()
}

// TextMarkdown renders a table of text cells, every column left-aligned.
func TextMarkdown(head []string, rows [][]string) string {
	var b strings.Builder
	writeRow := func(cells []string) {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = escapeCell(c)
		}
		b.WriteString("| " + strings.Join(out, " | ") + " |\n")
	}
	writeRow(head)
	seps := make([]string, len(head))
	for i := range seps {
		seps[i] = "---"
	}
	b.WriteString("| " + strings.Join(seps, " | ") + " |\n")
	for _, r := range rows {
		writeRow(r)
	}
	return b.String()
}

// CSV returns the table unrounded: the grouping columns, then per metric
// <metric>_mean, <metric>_sd, <metric>_n and <metric>_paper.
func (td TableData) CSV() (header []string, rows [][]string) {
	header = append(header, td.Table.Rows...)
	for _, m := range td.Table.Metrics {
		header = append(header, m+"_mean", m+"_sd", m+"_n", m+"_paper")
	}
	num := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return store.FormatFloat(v)
	}
	for r, key := range td.Rows {
		row := append([]string(nil), key...)
		for m := range td.Table.Metrics {
			c := td.Cells[r][m]
			row = append(row, num(c.Mean), num(c.SD), strconv.Itoa(c.N), num(td.Paper[r][m]))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// ClaimsMarkdown renders the claims with their verdicts.
func ClaimsMarkdown(res *experiments.Results) string {
	e := res.Experiment
	if len(e.Claims) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("| claim | source | verdict | evidence |\n| --- | --- | --- | --- |\n")
	for i, v := range res.Verdicts() {
		c := e.Claims[i]
		verdict := v.Outcome.String()
		if v.Outcome == experiments.NotHeld {
			verdict = "**not held**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", escapeCell(c.Statement), escapeCell(firstNonEmpty(c.Source, "–")), verdict, escapeCell(v.Detail))
	}
	return b.String()
}

// footer states metric definitions, data substitutes, protocol, the run's
// code version and the fits' statuses.
func footer(res *experiments.Results, prov *Provenance) string {
	e := res.Experiment
	var b strings.Builder
	if len(e.Metrics) > 0 {
		b.WriteString("**Metrics.** ")
		for i, m := range e.Metrics {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "*%s*: %s", m.Name, strings.TrimSpace(m.Definition))
			if !strings.HasSuffix(strings.TrimSpace(m.Definition), ".") {
				b.WriteString(".")
			}
		}
		b.WriteString(" Cells are mean ± sample standard deviation over the n runs of a row.\n\n")
	}
	if e.Substitutes != "" {
		b.WriteString("**Data.** " + strings.TrimSpace(e.Substitutes) + "\n\n")
	}
	if e.Protocol != "" {
		b.WriteString("**Protocol.** " + strings.TrimSpace(e.Protocol) + "\n\n")
	}
	// Run facts.
	computed, cached := 0, 0
	statuses := map[string]int{}
	var notes []string
	noteSeen := map[string]bool{}
	for _, j := range res.Jobs {
		if j.Cached {
			cached++
		} else {
			computed++
		}
		if j.Run.Status != "" {
			statuses[j.Run.Status]++
		}
		for _, n := range j.Run.Notes {
			if !noteSeen[n] {
				noteSeen[n] = true
				notes = append(notes, n)
			}
		}
	}
	fmt.Fprintf(&b, "**Runs.** %d jobs (%d computed now, %d from the results store)", len(res.Jobs), computed, cached)
	if len(statuses) > 0 {
		var parts []string
		for _, s := range slices.Sorted(maps.Keys(statuses)) {
			parts = append(parts, fmt.Sprintf("%d %s", statuses[s], s))
		}
		b.WriteString("; fits: " + strings.Join(parts, ", "))
	}
	b.WriteString(".")
	if prov != nil && len(prov.Code) > 0 {
		c := prov.Code[0]
		mod := "(devel)"
		if sp, err := store.ReadProvenance(res.Jobs[0].Dir); err == nil {
			mod = sp.Code.Version
		}
		fmt.Fprintf(&b, " Code %s %s (from %s), experiment version %q; root seed %d.", mod, codeText(prov.Code), c.Source, prov.ExperimentVersion, prov.RootSeed)
	}
	b.WriteString("\n")
	if len(notes) > 0 {
		b.WriteString("\n**Warnings.**\n\n")
		for _, n := range notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}
