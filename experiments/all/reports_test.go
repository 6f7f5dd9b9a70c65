package all_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/report"
)

// TestCommittedReportsAssembled checks that every committed
// results/<paper>/REPORT.md is what report.Assemble makes today from the
// committed sections, so that a change of the report's header, citation or
// contents list cannot leave the committed reports stale (report --check
// compares the sections with the stored runs, not REPORT.md itself).
func TestCommittedReportsAssembled(t *testing.T) {
	byPaper := map[string][]*experiments.Experiment{}
	var papers []string
	for _, e := range experiments.All() {
		p := e.PaperKey()
		if byPaper[p] == nil {
			papers = append(papers, p)
		}
		byPaper[p] = append(byPaper[p], e)
	}
	compared := 0
	for _, p := range papers {
		committed := filepath.Join("..", "..", "results", p)
		want, err := os.ReadFile(filepath.Join(committed, "REPORT.md"))
		if os.IsNotExist(err) {
			continue
		}
		compared++
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), p)
		for _, e := range byPaper[p] {
			section, err := os.ReadFile(filepath.Join(committed, e.Name(), report.SectionFile))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, e.Name()), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, e.Name(), report.SectionFile), section, 0o644); err != nil {
				t.Fatal(err)
			}
			// The header's provenance is assembled from each section's
			// provenance.json, when the section has one.
			prov, err := os.ReadFile(filepath.Join(committed, e.Name(), report.ProvenanceFile))
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, e.Name(), report.ProvenanceFile), prov, 0o644)
			}
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		if err := report.Assemble(dir, byPaper[p], false); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("results/%s/REPORT.md is stale: rewrite it with `topicmf report %s`", p, p)
		}
	}
	if compared < len(papers) {
		t.Errorf("%d of the %d papers have a committed results/<paper>/REPORT.md, want all", compared, len(papers))
	}
}

// TestREADMEClaimsSummary checks that the README's table of held / not
// held claims is what `topicmf report --summary` makes from the committed
// reports today, so that it cannot drift from them.
func TestREADMEClaimsSummary(t *testing.T) {
	root := filepath.Join("..", "..")
	vs, err := report.Verdicts(filepath.Join(root, "results"), experiments.All())
	if err != nil {
		t.Fatal(err)
	}
	readme := filepath.Join(root, "README.md")
	doc, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.ReplaceSummary(string(doc), report.SummaryMarkdown(vs, "results"), readme)
	if err != nil {
		t.Fatal(err)
	}
	if want != string(doc) {
		t.Errorf("README.md's claims summary differs from the committed reports' verdicts; run `topicmf report --summary`. Want:\n%s", report.SummaryMarkdown(vs, "results"))
	}
}
