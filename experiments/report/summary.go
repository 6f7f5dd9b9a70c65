package report

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicmf/topicmf/experiments"
)

// Markers delimiting the claims summary that Summary writes into a
// Markdown file (the README): everything between them is replaced.
const (
	SummaryBegin = "<!-- claims summary: generated from results/<paper>/REPORT.md by `topicmf report --summary`; do not edit by hand -->"
	SummaryEnd   = "<!-- end of claims summary -->"
)

// PaperVerdicts counts the verdicts of one paper's claims as its committed
// REPORT.md prints them.
type PaperVerdicts struct {
	Key                         string // report directory, e.g. "rlsi2011"
	Cite                        string // short citation, e.g. "Wang, Xu, Li, Craswell, SIGIR 2011"
	Held, NotHeld, Inconclusive int
}

// CountVerdicts reads a REPORT.md and counts the verdict column of every
// row of its "### Claims" tables: "held", "**not held**" (as ClaimsMarkdown
// writes it) and "inconclusive". Any other verdict is an error naming the
// file and line.
func CountVerdicts(path string) (held, notHeld, inconclusive int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	inClaims, header := false, false
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
			inClaims, header = line == "### Claims", false
			continue
		case !inClaims || !strings.HasPrefix(line, "|"):
			continue
		case !header:
			header = true // "| claim | source | verdict | evidence |"
			continue
		case strings.HasPrefix(line, "| ---"):
			continue
		}
		cells := splitRow(line)
		if len(cells) != 4 {
			return 0, 0, 0, fmt.Errorf("%s line %d: a claims row has %d cells, want 4 (claim, source, verdict, evidence)", path, n, len(cells))
		}
		switch v := strings.TrimSpace(cells[2]); v {
		case experiments.Held.String():
			held++
		case "**" + experiments.NotHeld.String() + "**":
			notHeld++
		case experiments.Inconclusive.String():
			inconclusive++
		default:
			return 0, 0, 0, fmt.Errorf("%s line %d: verdict %q, want held, **not held** or inconclusive", path, n, v)
		}
	}
	return held, notHeld, inconclusive, sc.Err()
}

// splitRow splits a Markdown table row at the "|" that escapeCell left
// unescaped.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteString(`\|`)
			i++
		case line[i] == '|':
			cells = append(cells, cell.String())
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	if rest := strings.TrimSpace(cell.String()); rest != "" {
		cells = append(cells, cell.String())
	}
	return cells
}

// Verdicts counts the claims of every paper (an experiment with a full
// Reference; the foundation checks are not a paper) in the committed
// root/<paper>/REPORT.md, papers in registry order. A paper without a
// REPORT.md is an error naming it.
func Verdicts(root string, exps []*experiments.Experiment) ([]PaperVerdicts, error) {
	var out []PaperVerdicts
	seen := map[string]bool{}
	for _, e := range exps {
		key := e.PaperKey()
		if seen[key] || e.Paper.Reference == (experiments.Reference{}) {
			continue
		}
		seen[key] = true
		path := filepath.Join(root, key, ReportFile)
		h, n, i, err := CountVerdicts(path)
		if err != nil {
			return nil, err
		}
		out = append(out, PaperVerdicts{Key: key, Cite: e.Paper.Cite, Held: h, NotHeld: n, Inconclusive: i})
	}
	if len(out) == 0 {
		return nil, errors.New("no paper among the experiments")
	}
	return out, nil
}

// SummaryMarkdown is the claims summary table: per paper, its citation,
// a link to its report (relative to reportsLink, e.g. "results") and its
// verdict counts.
func SummaryMarkdown(vs []PaperVerdicts, reportsLink string) string {
	var b strings.Builder
	b.WriteString("| paper | report | held | not held | inconclusive or evidence |\n|---|---|---:|---:|---:|\n")
	for _, v := range vs {
		link := reportsLink + "/" + v.Key + "/" + ReportFile
		fmt.Fprintf(&b, "| %s | [`%s`](%s) | %d | %d | %d |\n", escapeCell(v.Cite), v.Key, link, v.Held, v.NotHeld, v.Inconclusive)
	}
	return b.String()
}

// ReplaceSummary returns doc with the text between SummaryBegin and
// SummaryEnd (each on a line of its own, once) replaced by table; name
// names doc in errors.
func ReplaceSummary(doc, table, name string) (string, error) {
	begin := strings.Index(doc, SummaryBegin+"\n")
	end := strings.Index(doc, "\n"+SummaryEnd)
	if begin < 0 || end < 0 || end < begin || strings.Count(doc, SummaryBegin) != 1 || strings.Count(doc, SummaryEnd) != 1 {
		return "", fmt.Errorf("%s: want the markers %q and %q once each, on lines of their own, in that order", name, SummaryBegin, SummaryEnd)
	}
	start := begin + len(SummaryBegin) + 1
	return doc[:start] + table + doc[end+1:], nil
}
