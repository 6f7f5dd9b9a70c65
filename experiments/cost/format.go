package cost

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Duration writes seconds for people: "42.3s", "12m05s", "3h07m".
func Duration(s float64) string {
	if s < 59.95 { // below what rounds to "60.0s"
		return strconv.FormatFloat(s, 'f', 1, 64) + "s"
	}
	if r := int(math.Round(s)); r < 3600 {
		return fmt.Sprintf("%dm%02ds", r/60, r%60)
	}
	m := int(math.Round(s / 60))
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}

// sumText is a sum of seconds over n parts of which missing have no
// value: "-" when none has one, and marked with "+" when some do not (the
// sum is then a lower bound).
func sumText(sum float64, missing, n int) string {
	switch {
	case missing == n:
		return "-"
	case missing > 0:
		return Duration(sum) + "+"
	}
	return Duration(sum)
}

// cpuText is a row's CPU sum over its jobs.
func cpuText(r Row) string { return sumText(r.CPU, r.CPUMissing, r.Jobs) }

// elapsedText is a row's elapsed time over its experiments.
func elapsedText(r Row) string { return sumText(r.Elapsed, r.ElapsedMissing, r.Experiments) }

// coresText is a row's Cores with two decimals, or "-".
func coresText(r Row) string {
	c, ok := r.Cores()
	if !ok {
		return "-"
	}
	return strconv.FormatFloat(c, 'f', 2, 64)
}

// shareHead is the heading of the share column.
func (t *Table) shareHead() string {
	if t.ByCPU {
		return "CPU %"
	}
	return "Wall %"
}

// largestText is "label (cost)".
func (t *Table) largestText(r Row) string {
	if r.Jobs == 0 {
		return "-"
	}
	return fmt.Sprintf("%s (%s)", r.Largest.Label, Duration(r.Largest.cost(t.ByCPU)))
}

func percent(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) }

// rows are the cells of the experiments' and the papers' tables.
func (t *Table) rows() (expHead []string, exp [][]string, paperHead []string, papers [][]string) {
	expHead = []string{"Experiment", "Source", "Jobs", "Elapsed", "Wall", "CPU", "Cores", t.shareHead(), "Largest job"}
	for _, r := range t.Experiments {
		exp = append(exp, []string{r.Name, r.Source, strconv.Itoa(r.Jobs), elapsedText(r), Duration(r.Wall), cpuText(r), coresText(r), percent(t.Share(r)), t.largestText(r)})
	}
	paperHead = []string{"Paper", "Exps", "Jobs", "Elapsed", "Wall", "CPU", "Cores", t.shareHead(), "Largest job"}
	for _, r := range append(t.Papers, t.Total) {
		papers = append(papers, []string{r.Name, strconv.Itoa(r.Experiments), strconv.Itoa(r.Jobs), elapsedText(r), Duration(r.Wall), cpuText(r), coresText(r), percent(t.Share(r)), t.largestText(r)})
	}
	return
}

// notes are the sentences under the tables.
func (t *Table) notes() []string {
	var out []string
	switch {
	case t.ByCPU:
	case t.Total.CPUMissing == t.Total.Jobs:
		out = append(out, "No job has a CPU time (all were recorded before it was measured): rows are ordered and shared by wall time.")
	default:
		out = append(out, fmt.Sprintf("%d of %d jobs have no CPU time (recorded before it was measured): rows are ordered and shared by wall time; a CPU sum marked + leaves them out.", t.Total.CPUMissing, t.Total.Jobs))
	}
	if t.Superseded > 0 {
		out = append(out, fmt.Sprintf("%d earlier runs of job configurations run again later (other code) are not counted.", t.Superseded))
	}
	out = append(out, "Exps counts a paper's experiments.")
	out = append(out, "Elapsed runs from an experiment's first job's start to its last job's end; a paper's and the total add their experiments', which topicmf run computes one after another, so the total is a whole reproduction's wall time (the rendering of reports aside). It includes any pause, and for jobs computed in separate runs the time between them.")
	out = append(out, "Wall sums the jobs' wall-clock times: jobs run side by side on several workers count each, so it exceeds the elapsed time.")
	if t.ByCPU {
		out = append(out, "Cores is CPU over elapsed, the cores kept busy on average; well below the number of workers it means cores waited (jobs one at a time, a long last job, or other work on the machine taking the CPU).")
		out = append(out, "Largest job is the job of most CPU time, shown with that time.")
	} else {
		out = append(out, "Largest job is the job of most wall-clock time, shown with that time.")
	}
	return out
}

// WriteText writes the two tables in aligned columns (headings upper
// case), then the notes.
func (t *Table) WriteText(w io.Writer) {
	eh, er, ph, pr := t.rows()
	writeAligned(w, eh, er)
	fmt.Fprintln(w)
	writeAligned(w, ph, pr)
	fmt.Fprintln(w)
	for _, n := range t.notes() {
		writeWrapped(w, n, noteWidth)
	}
}

// WriteMarkdown writes the two tables as Markdown (GitHub) tables, then
// the notes, for docs/performance.md.
func (t *Table) WriteMarkdown(w io.Writer) {
	eh, er, ph, pr := t.rows()
	writeMarkdown(w, eh, er)
	fmt.Fprintln(w)
	writeMarkdown(w, ph, pr)
	fmt.Fprintln(w)
	for _, n := range t.notes() {
		writeWrapped(w, n, noteWidth)
	}
}

// numeric are the columns aligned right.
var numeric = map[string]bool{"Exps": true, "Jobs": true, "Elapsed": true, "Wall": true, "CPU": true, "Cores": true, "CPU %": true, "Wall %": true}

func writeAligned(w io.Writer, head []string, rows [][]string) {
	upper := make([]string, len(head))
	for i, h := range head {
		upper[i] = strings.ToUpper(h)
	}
	widths := make([]int, len(head))
	for _, r := range append([][]string{upper}, rows...) {
		for c, s := range r {
			widths[c] = max(widths[c], len([]rune(s)))
		}
	}
	for _, r := range append([][]string{upper}, rows...) {
		var b strings.Builder
		for c, s := range r {
			pad := strings.Repeat(" ", widths[c]-len([]rune(s)))
			switch {
			case c == len(r)-1:
				b.WriteString(s)
			case numeric[head[c]]:
				b.WriteString(pad + s + "  ")
			default:
				b.WriteString(s + pad + "  ")
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func writeMarkdown(w io.Writer, head []string, rows [][]string) {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	line := func(cells []string) {
		parts := make([]string, len(cells))
		for i, c := range cells {
			parts[i] = cell(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(parts, " | "))
	}
	rules := make([]string, len(head))
	for i, h := range head {
		rules[i] = "---"
		if numeric[h] {
			rules[i] = "---:"
		}
	}
	line(head)
	fmt.Fprintf(w, "|%s|\n", strings.Join(rules, "|"))
	for _, r := range rows {
		line(r)
	}
}

// noteWidth is the width the notes are wrapped to.
const noteWidth = 100

// writeWrapped writes text in lines of at most width runes, broken at
// spaces (a longer word stays whole).
func writeWrapped(w io.Writer, text string, width int) {
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			fmt.Fprintln(w, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		fmt.Fprintln(w, line)
	}
}
