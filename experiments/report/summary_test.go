package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
)

// TestCountVerdicts counts only the rows of "### Claims" tables, splits
// rows at unescaped "|" only, and names the file and line of a verdict it
// does not know.
func TestCountVerdicts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ReportFile)
	doc := "# Reproduction report: toy\n\n## A\n\n### Scores\n\n| method | held |\n| --- | --- |\n| x | held |\n\n### Claims\n\n" +
		"| claim | source | verdict | evidence |\n| --- | --- | --- | --- |\n" +
		"| a \\| b beats c | §5 | held | 0.9 vs 0.8 |\n| d | §6 | **not held** | x \\| y |\n| e | – | inconclusive | pairs |\n| f | §7 | held | 1 |\n\n" +
		"**Metrics.** | not a row |\n\n## B\n\n### Claims\n\n| claim | source | verdict | evidence |\n| --- | --- | --- | --- |\n| g | §8 | **not held** | 2 |\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	h, n, i, err := CountVerdicts(path)
	if err != nil || h != 2 || n != 2 || i != 1 {
		t.Errorf("CountVerdicts = %d held, %d not held, %d inconclusive, %v; want 2, 2, 1", h, n, i, err)
	}
	bad := strings.Replace(doc, "| f | §7 | held |", "| f | §7 | maybe |", 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := CountVerdicts(path); err == nil || !strings.Contains(err.Error(), "line 18") || !strings.Contains(err.Error(), `"maybe"`) {
		t.Errorf("unknown verdict: err = %v, want one naming line 18 and \"maybe\"", err)
	}
}

// TestReplaceSummary replaces only what is between the markers and
// refuses a document without them, or with them twice.
func TestReplaceSummary(t *testing.T) {
	doc := "intro\n" + SummaryBegin + "\nold table\n" + SummaryEnd + "\noutro\n"
	table := SummaryMarkdown([]PaperVerdicts{{Key: "toy2020", Cite: "Doe, 2020", Held: 3, NotHeld: 1, Inconclusive: 2}}, "results")
	got, err := ReplaceSummary(doc, table, "README.md")
	want := "intro\n" + SummaryBegin + "\n| paper | report | held | not held | inconclusive or evidence |\n|---|---|---:|---:|---:|\n" +
		"| Doe, 2020 | [`toy2020`](results/toy2020/REPORT.md) | 3 | 1 | 2 |\n" + SummaryEnd + "\noutro\n"
	if err != nil || got != want {
		t.Errorf("ReplaceSummary =\n%s\n%v; want\n%s", got, err, want)
	}
	if again, err := ReplaceSummary(got, table, "README.md"); err != nil || again != got {
		t.Errorf("replacing twice changed the document: %v", err)
	}
	for _, d := range []string{"no markers\n", doc + doc, SummaryEnd + "\n" + SummaryBegin + "\n"} {
		if _, err := ReplaceSummary(d, table, "README.md"); err == nil || !strings.HasPrefix(err.Error(), "README.md: ") {
			t.Errorf("ReplaceSummary(%q): err = %v, want one naming README.md", d, err)
		}
	}
}

// TestVerdictsNeedsEveryReport names the paper whose REPORT.md is missing.
func TestVerdictsNeedsEveryReport(t *testing.T) {
	e := toyExperiment("toy/a")
	e.Paper.Reference = experiments.Reference{Authors: "Doe", Title: "Toy", Venue: "2020"}
	if _, err := Verdicts(t.TempDir(), []*experiments.Experiment{e}); err == nil || !strings.Contains(err.Error(), filepath.Join("toy", ReportFile)) {
		t.Errorf("err = %v, want one naming toy/REPORT.md", err)
	}
}
