package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
)

// A report cites the paper by authors, title and venue.
func TestCitation(t *testing.T) {
	rlsi := experiments.PaperRef{Reference: experiments.PaperRLSI2011, Cite: "Wang et al., SIGIR 2011", Where: "Table 6"}
	want := "Quan Wang, Jun Xu, Hang Li and Nick Craswell. Regularized Latent Semantic Indexing. " +
		"Proceedings of the 34th International ACM SIGIR Conference on Research and Development in Information Retrieval (SIGIR 2011)."
	if got := Citation(rlsi); got != want {
		t.Errorf("Citation = %q\nwant %q", got, want)
	}
	if got := ShortTitle(rlsi); got != "Wang et al., SIGIR 2011: Regularized Latent Semantic Indexing" {
		t.Errorf("ShortTitle = %q", got)
	}
	other := experiments.PaperRef{Cite: "Doe 2020"}
	if Citation(other) != "Doe 2020" || ShortTitle(other) != "Doe 2020" {
		t.Errorf("an unknown paper: %q, %q", Citation(other), ShortTitle(other))
	}

	dir := t.TempDir()
	e := &experiments.Experiment{ID: "rlsi2011/x", Title: "X", Paper: rlsi}
	if err := Assemble(dir, []*experiments.Experiment{e}, false); err != nil {
		t.Fatal(err)
	}
	rep, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rep), "Paper: "+want+"\n") || strings.Contains(string(rep), ".txt") {
		t.Errorf("REPORT.md:\n%s", rep)
	}
}
