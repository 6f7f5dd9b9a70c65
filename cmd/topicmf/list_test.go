package main

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/topicmf/topicmf/experiments"
)

// list names every experiment once, at the start of a row, with its
// title, within the width; each paper's group is headed by its title.
func TestListCmd(t *testing.T) {
	t.Setenv("COLUMNS", "")
	out, _, err := runTopicmf(context.Background(), "list")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > defaultWidth {
			t.Errorf("line of %d runes: %q", n, line)
		}
	}
	for _, e := range experiments.All() {
		if strings.Count(out, "\n  "+e.ID+" ") != 1 || !strings.Contains(flat, strings.Join(strings.Fields(e.Title), " ")) {
			t.Errorf("%s: not listed once with its title", e.ID)
		}
		// Each paper's experiment (not this package's test ones) names its
		// paper in full.
		if e.PaperKey() != "clitest" && e.Paper.Reference.Title == "" {
			t.Errorf("%s: its paper has no full reference (experiments.PaperRef.Reference)", e.ID)
		}
	}
	if !strings.Contains(flat, "rlsi2011 — Wang, Xu, Li, Craswell, SIGIR 2011: Regularized Latent Semantic Indexing") {
		t.Errorf("no heading for rlsi2011:\n%s", out)
	}
	if _, _, err := runTopicmf(context.Background(), "list", "extra"); err == nil {
		t.Fatal("list accepted an argument")
	}
}
